package io.weft.southbound.gnmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The Java stubs are compiled from contracts/gnmi/proto, the Go switch agent imports the module
 * github.com/openconfig/gnmi at {@value #GNMI_VERSION}: both sides speak the same wire only while
 * the vendored files are byte-identical to the module's. Under CI the module is fetched with
 * {@code go mod download}; locally the test is skipped (with the reason) when Go is missing.
 */
class VendoredProtosTest {
    static final String GNMI_VERSION = "v0.14.1";
    private static final Path VENDORED = Path.of("../../contracts/gnmi/proto/github.com/openconfig/gnmi");

    @Test
    void vendoredProtosAreTheGoModulesCopies() throws Exception {
        Path module = goModuleDir();
        for (String file : new String[] {"proto/gnmi/gnmi.proto", "proto/gnmi_ext/gnmi_ext.proto"}) {
            byte[] ours = Files.readAllBytes(VENDORED.resolve(file));
            byte[] theirs = Files.readAllBytes(module.resolve(file));
            assertThat(new String(ours, StandardCharsets.UTF_8))
                    .as("%s differs from github.com/openconfig/gnmi@%s", file, GNMI_VERSION)
                    .isEqualTo(new String(theirs, StandardCharsets.UTF_8));
            assertThat(ours).as(file).isEqualTo(theirs);
        }
    }

    /** The module's directory in the Go module cache, downloading it if needed (the proxy is reachable in CI). */
    private static Path goModuleDir() throws IOException, InterruptedException {
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        ProcessBuilder pb = new ProcessBuilder("go", "mod", "download", "-json",
                "github.com/openconfig/gnmi@" + GNMI_VERSION)
                .directory(Files.createTempDirectory("weft-gnmi-proto").toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            if (ci) {
                fail("CI=true but go cannot be run to fetch github.com/openconfig/gnmi: " + e.getMessage());
            }
            assumeTrue(false, "go is not installed, cannot compare with the Go module: " + e.getMessage());
            throw e;
        }
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
            String why = "go mod download github.com/openconfig/gnmi@" + GNMI_VERSION + " failed: "
                    + new String(out, StandardCharsets.UTF_8);
            if (ci) {
                fail(why);
            }
            assumeTrue(false, why);
        }
        JsonNode info = new ObjectMapper().readTree(out);
        Path dir = Path.of(info.path("Dir").asText(""));
        assertThat(dir.resolve("proto/gnmi/gnmi.proto")).as("module dir from go mod download").exists();
        return dir;
    }
}
