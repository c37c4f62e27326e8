package io.weft.karafcheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarInputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import org.junit.jupiter.api.Test;

/**
 * The bundle inside the .oar, read without Karaf: it exports nothing, imports no gRPC, Guava,
 * protobuf or Netty (those it carries relocated under io.weft.shaded), and every class in it and in
 * its embedded jars is Java 11 bytecode or older (ONOS 2.7 runs on Java 11).
 */
class BundleManifestTest {
    private static final int JAVA_11_MAJOR = 55;

    private final Path oar = Path.of(System.getProperty("weft.karafCheckDir", "target/karaf-check"))
            .resolve("weft-controller-app.oar");

    @Test
    void exportsNothingAndImportsNoGrpcGuavaProtobufOrNetty() throws IOException {
        Manifest mf = bundleManifest();
        assertThat(mf.getMainAttributes().getValue("Export-Package")).as("Export-Package").isNull();
        List<String> imports = packages(mf.getMainAttributes().getValue("Import-Package"));
        assertThat(imports).contains("com.fasterxml.jackson.databind", "org.onosproject.net.config");
        assertThat(imports).as("Import-Package").noneMatch(p -> p.startsWith("com.google.") || p.startsWith("io.grpc")
                || p.startsWith("io.netty") || p.startsWith("io.weft."));
        assertThat(mf.getMainAttributes().getValue("Bundle-SymbolicName")).isEqualTo("io.weft.weft-controller-app");
    }

    @Test
    void carriesTheRelocatedGnmiClientAndOnlyJava11Bytecode() throws IOException {
        List<String> tooNew = new ArrayList<>();
        List<String> names = new ArrayList<>();
        scan(new ByteArrayInputStream(bundleJar()), "", names, tooNew);
        assertThat(names).contains("io/weft/southbound/gnmi/Provisioner.class",
                "io/weft/shaded/io/grpc/ManagedChannel.class",
                "io/weft/shaded/com/github/gnmi/proto/gNMIGrpc.class",
                "io/weft/shaded/com/google/common/collect/ImmutableList.class",
                "io/weft/shaded/com/google/protobuf/Message.class",
                "META-INF/services/io.weft.shaded.io.grpc.NameResolverProvider");
        assertThat(names).as("unrelocated gRPC/Guava/protobuf classes")
                .noneMatch(n -> n.startsWith("io/grpc/") || n.startsWith("com/google/"));
        assertThat(tooNew).as("classes newer than Java 11").isEmpty();
    }

    private void scan(InputStream jar, String where, List<String> names, List<String> tooNew) throws IOException {
        ZipInputStream in = new ZipInputStream(jar);
        for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
            String name = e.getName();
            if (where.isEmpty()) {
                names.add(name);
            }
            if (name.endsWith(".jar")) {
                scan(new ByteArrayInputStream(in.readAllBytes()), where + name + "!", names, tooNew);
            } else if (name.endsWith(".class") && !name.startsWith("META-INF/versions/")
                    && !name.endsWith("module-info.class")) {
                byte[] head = in.readNBytes(8);
                int major = ((head[6] & 0xff) << 8) | (head[7] & 0xff);
                if (major > JAVA_11_MAJOR) {
                    tooNew.add(where + name + " (class file " + major + ")");
                }
            }
        }
    }

    private byte[] bundleJar() throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(oar))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                if (e.getName().matches("m2/io/weft/weft-controller-app/[^/]+/weft-controller-app-[^/]+\\.jar")) {
                    return in.readAllBytes();
                }
            }
        }
        throw new IllegalStateException(oar + " holds no weft-controller-app jar under m2/");
    }

    private Manifest bundleManifest() throws IOException {
        try (JarInputStream jar = new JarInputStream(new ByteArrayInputStream(bundleJar()))) {
            return jar.getManifest();
        }
    }

    /** Package names of an OSGi header, without attributes and directives. */
    static List<String> packages(String header) {
        List<String> out = new ArrayList<>();
        if (header == null) {
            return out;
        }
        // Split on commas outside quotes (version ranges contain commas).
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (char c : header.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            }
            if (c == ',' && !quoted) {
                out.add(cur.toString().split(";", 2)[0].trim());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        if (cur.length() > 0) {
            out.add(cur.toString().split(";", 2)[0].trim());
        }
        return out;
    }
}
