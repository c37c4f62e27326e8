package io.weft.controller.onos;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static io.weft.controller.onos.OsgiPropertyConstants.KAFKA_BOOTSTRAP;
import static io.weft.controller.onos.OsgiPropertyConstants.KAFKA_BOOTSTRAP_DEFAULT;
import static io.weft.controller.onos.OsgiPropertyConstants.PUBLISH_RETRY_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.PUBLISH_RETRY_MS_DEFAULT;
import static io.weft.controller.onos.OsgiPropertyConstants.REPLAN_DEBOUNCE_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.REPLAN_DEBOUNCE_MS_DEFAULT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cfgdef that onos-maven-plugin generates from {@code @Component(property = ...)} is what
 * ONOS's {@code cfg} command accepts: every tunable read in {@code @Modified} must be in it.
 */
class ComponentPropertiesTest {
    @Test
    void everyTunableIsDeclaredWithItsDefault() throws IOException {
        String cfgdef;
        try (InputStream in = PlanProvisioner.class.getResourceAsStream("PlanProvisioner.cfgdef")) {
            assertThat(in).as("PlanProvisioner.cfgdef generated at build time").isNotNull();
            cfgdef = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }

        assertThat(cfgdef).contains(
                REPLAN_DEBOUNCE_MS + "|INTEGER|" + REPLAN_DEBOUNCE_MS_DEFAULT + "|",
                PUBLISH_RETRY_MS + "|INTEGER|" + PUBLISH_RETRY_MS_DEFAULT + "|",
                KAFKA_BOOTSTRAP + "|STRING|" + KAFKA_BOOTSTRAP_DEFAULT + "|");
        assertThat(cfgdef).doesNotContain("no description provided");
    }
}
