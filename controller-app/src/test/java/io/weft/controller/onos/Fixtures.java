package io.weft.controller.onos;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.Config;

/** Loads the JSON fixtures under src/test/resources and turns them into initialised configs. */
final class Fixtures {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private Fixtures() {
    }

    static JsonNode json(String resource) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/" + resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + resource);
            }
            return MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode inline(String text, Object... args) {
        try {
            return MAPPER.readTree(String.format(text.replace('\'', '"'), args));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static WeftDeviceConfig deviceConfig(DeviceId id, JsonNode json) {
        return init(new WeftDeviceConfig(), id, WeftDeviceConfig.KEY, json);
    }

    static WeftAppConfig appConfig(ApplicationId id, JsonNode json) {
        return init(new WeftAppConfig(), id, WeftAppConfig.KEY, json);
    }

    private static <S, C extends Config<S>> C init(C cfg, S subject, String key, JsonNode json) {
        cfg.init(subject, key, json, MAPPER, c -> { });
        return cfg;
    }
}
