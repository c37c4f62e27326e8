package io.weft.controller.onos;

import java.util.ArrayList;
import java.util.List;

import org.onosproject.net.config.Config;
import org.slf4j.LoggerFactory;

/**
 * A Weft netcfg class that lists every problem of its JSON at once ({@link ConfigChecks}), one message per
 * field, and logs them when ONOS asks {@link #isValid()}: ONOS answers an upload of an invalid config with a
 * bare "invalid".
 *
 * @param <S> the config's subject (an application, a device)
 */
public abstract class CheckedConfig<S> extends Config<S> {

    @Override
    public boolean isValid() {
        List<String> problems = problems();
        if (!problems.isEmpty()) {
            LoggerFactory.getLogger(getClass()).warn("netcfg {} of {} is invalid: {}", key, subject,
                    String.join("; ", problems));
        }
        return problems.isEmpty();
    }

    /** Every problem of this config, one message per field ("nics[2].attach: ..."); empty when valid. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (object == null) {
            problems.add("weft: must be a JSON object");
            return problems;
        }
        check(problems);
        return problems;
    }

    /** Appends a message per problem of {@code object} (not null here). */
    protected abstract void check(List<String> problems);
}
