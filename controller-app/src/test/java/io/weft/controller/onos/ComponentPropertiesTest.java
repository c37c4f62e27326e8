package io.weft.controller.onos;

import static io.weft.controller.onos.OsgiPropertyConstants.GNMI_MAX_IN_FLIGHT;
import static io.weft.controller.onos.OsgiPropertyConstants.GNMI_MAX_IN_FLIGHT_DEFAULT;
import static io.weft.controller.onos.OsgiPropertyConstants.GNMI_RESYNC_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.GNMI_RESYNC_MS_DEFAULT;
import static io.weft.controller.onos.OsgiPropertyConstants.GNMI_TIMEOUT_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.GNMI_TIMEOUT_MS_DEFAULT;
import static io.weft.controller.onos.OsgiPropertyConstants.KAFKA_BOOTSTRAP;
import static io.weft.controller.onos.OsgiPropertyConstants.KAFKA_BOOTSTRAP_DEFAULT;
import static io.weft.controller.onos.OsgiPropertyConstants.PUBLISH_RETRY_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.PUBLISH_RETRY_MS_DEFAULT;
import static io.weft.controller.onos.OsgiPropertyConstants.REPLAN_DEBOUNCE_MS;
import static io.weft.controller.onos.OsgiPropertyConstants.REPLAN_DEBOUNCE_MS_DEFAULT;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * The cfgdef that onos-maven-plugin generates from {@code @Component(property = ...)} is what
 * ONOS's {@code cfg} command accepts: every tunable read in {@code @Modified} must be in it.
 */
class ComponentPropertiesTest {
    @Test
    void everyTunableIsDeclaredWithItsDefault() throws IOException {
        String cfgdef = cfgdef(PlanProvisioner.class);

        assertThat(cfgdef).contains(
                REPLAN_DEBOUNCE_MS + "|INTEGER|" + REPLAN_DEBOUNCE_MS_DEFAULT + "|",
                PUBLISH_RETRY_MS + "|INTEGER|" + PUBLISH_RETRY_MS_DEFAULT + "|",
                KAFKA_BOOTSTRAP + "|STRING|" + KAFKA_BOOTSTRAP_DEFAULT + "|");
        assertThat(cfgdef).doesNotContain("no description provided");
    }

    @Test
    void everyGnmiTunableIsDeclaredWithItsDefault() throws IOException {
        String cfgdef = cfgdef(GnmiDeviceProvisioner.class);

        assertThat(cfgdef).contains(
                GNMI_TIMEOUT_MS + "|INTEGER|" + GNMI_TIMEOUT_MS_DEFAULT + "|",
                GNMI_RESYNC_MS + "|INTEGER|" + GNMI_RESYNC_MS_DEFAULT + "|",
                GNMI_MAX_IN_FLIGHT + "|INTEGER|" + GNMI_MAX_IN_FLIGHT_DEFAULT + "|");
        assertThat(cfgdef).doesNotContain("no description provided");
    }

    private static String cfgdef(Class<?> component) throws IOException {
        String name = component.getSimpleName() + ".cfgdef";
        try (InputStream in = component.getResourceAsStream(name)) {
            assertThat(in).as(name + " generated at build time").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
