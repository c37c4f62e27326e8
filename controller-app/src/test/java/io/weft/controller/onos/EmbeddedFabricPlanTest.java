package io.weft.controller.onos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;

import com.fasterxml.jackson.databind.cfg.PackageVersion;
import io.weft.fabric.Fabric;
import org.junit.jupiter.api.Test;

/**
 * Guards what lets the fabric plan run embedded in this bundle: Java 11 bytecode (ONOS 2.7 runs on
 * JDK 11), and this module's tests exercising it on the Jackson version ONOS 2.7 ships. That its
 * sources reference no ONOS, OSGi, Karaf or other framework type is fabric-plan's own
 * FrameworkImportTest.
 */
class EmbeddedFabricPlanTest {
    private static final int JAVA_11_CLASS_VERSION = 55;

    @Test
    void embeddedFabricPlanIsJava11Bytecode() throws IOException {
        try (InputStream in = Fabric.class.getResourceAsStream("Fabric.class")) {
            byte[] header = in.readNBytes(8);
            int major = ((header[6] & 0xff) << 8) | (header[7] & 0xff);
            assertThat(major).as("class file major version of io.weft.fabric.Fabric")
                    .isLessThanOrEqualTo(JAVA_11_CLASS_VERSION);
        }
    }

    @Test
    void testsRunTheFabricPlanOnOnosJackson() {
        assertThat(PackageVersion.VERSION.getMajorVersion()).isEqualTo(2);
        assertThat(PackageVersion.VERSION.getMinorVersion()).as("ONOS 2.7 ships Jackson 2.11").isEqualTo(11);
    }
}
