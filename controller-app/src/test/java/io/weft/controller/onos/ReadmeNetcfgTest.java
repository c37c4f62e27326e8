package io.weft.controller.onos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.onosproject.net.DeviceId;

/** The netcfg example in README.md is valid, so an operator can start from it. */
class ReadmeNetcfgTest {
    @Test
    void readmeNetcfgExampleIsValid() throws IOException {
        String readme = new String(Files.readAllBytes(Paths.get("README.md")), StandardCharsets.UTF_8);
        int section = readme.indexOf("## Network configuration");
        int start = readme.indexOf("```json", section) + "```json".length();
        JsonNode netcfg = Fixtures.MAPPER.readTree(readme.substring(start, readme.indexOf("```", start)));

        int devices = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = netcfg.path("devices").fields(); it.hasNext(); devices++) {
            Map.Entry<String, JsonNode> e = it.next();
            WeftDeviceConfig cfg = Fixtures.deviceConfig(DeviceId.deviceId(e.getKey()), e.getValue().path("weft"));
            assertThat(cfg.problems()).as(e.getKey()).isEmpty();
        }
        WeftAppConfig app = Fixtures.appConfig(TestFabric.APP_ID,
                netcfg.path("apps").path(MainComponent.APP_NAME).path(WeftAppConfig.KEY));

        assertThat(devices).isEqualTo(4);
        assertThat(app.problems()).isEmpty();
        assertThat(app.nics()).hasSize(2);
    }
}
