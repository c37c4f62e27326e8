package io.weft.controller.onos;

import com.fasterxml.jackson.databind.cfg.PackageVersion;
import io.weft.fabric.Fabric;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Guards what lets the same planning core run inside ONOS and standalone: no ONOS, OSGi or Karaf
 * types in controller-app/fabric-plan, Java 11 bytecode (ONOS 2.7 runs on JDK 11), and this module's
 * tests exercising it on the Jackson version ONOS 2.7 ships.
 */
class CoreBoundaryTest {
    private static final Path CORE_SRC = Paths.get("fabric-plan", "src");
    private static final Pattern FORBIDDEN = Pattern.compile(
            "^\\s*import\\s+(static\\s+)?(org\\.onosproject|org\\.onlab|org\\.osgi|org\\.apache\\.karaf)\\.",
            Pattern.MULTILINE);
    private static final int JAVA_11_CLASS_VERSION = 55;

    @Test
    void coreSourcesImportNothingFromOnos() throws IOException {
        assertThat(CORE_SRC.resolve("main/java")).as("core sources next to this module").isDirectory();
        List<Path> sources;
        try (Stream<Path> s = Files.walk(CORE_SRC)) {
            sources = s.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList());
        }
        assertThat(sources).isNotEmpty();

        List<String> offenders = sources.stream()
                .filter(p -> FORBIDDEN.matcher(read(p)).find())
                .map(Path::toString)
                .collect(Collectors.toList());

        assertThat(offenders).as("core files importing ONOS/OSGi/Karaf types").isEmpty();
    }

    @Test
    void forbiddenImportPatternCatchesOnosImports() {
        assertThat(FORBIDDEN.matcher("package x;\nimport org.onosproject.net.DeviceId;\n").find()).isTrue();
        assertThat(FORBIDDEN.matcher("import static org.onlab.util.Tools.get;").find()).isTrue();
        assertThat(FORBIDDEN.matcher("// see org.onosproject docs\nimport java.util.List;").find()).isFalse();
    }

    @Test
    void embeddedCoreIsJava11Bytecode() throws IOException {
        try (InputStream in = Fabric.class.getResourceAsStream("Fabric.class")) {
            byte[] header = in.readNBytes(8);
            int major = ((header[6] & 0xff) << 8) | (header[7] & 0xff);
            assertThat(major).as("class file major version of io.weft.fabric.Fabric")
                    .isLessThanOrEqualTo(JAVA_11_CLASS_VERSION);
        }
    }

    @Test
    void testsRunTheCoreOnOnosJackson() {
        assertThat(PackageVersion.VERSION.getMajorVersion()).isEqualTo(2);
        assertThat(PackageVersion.VERSION.getMinorVersion()).as("ONOS 2.7 ships Jackson 2.11").isEqualTo(11);
    }

    private static String read(Path p) {
        try {
            return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
