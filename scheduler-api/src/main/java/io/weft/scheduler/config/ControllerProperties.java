package io.weft.scheduler.config;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where link drains go: the controller owns every link's administrative state (its snapshot on
 * {@code weft.fabric}); scheduler-api's drain endpoints forward to it and wait for the snapshot.
 *
 * @param url       the controller's HTTP base, e.g. {@code http://127.0.0.1:8181}; empty: drains answer 503
 * @param token     an operator-scope bearer token the controller accepts (contracts/auth.md), or empty
 * @param tokenFile a file holding that token (one line), or empty; wins over {@code token}
 * @param drainWait how long a drain waits for the snapshot carrying it to arrive on {@code weft.fabric}
 */
@Validated
@ConfigurationProperties("weft.scheduler.controller")
public record ControllerProperties(String url, String token, String tokenFile,
                                   @DefaultValue("10s") Duration drainWait) {
    public boolean configured() {
        return url != null && !url.isBlank();
    }
}
