package io.weft.karafcheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Weft's .oar in ONOS 2.7's OSGi container: Apache Karaf 4.2.9 on Java 11 with ONOS 2.7.0's API-side
 * bundles (onos-api, onos-core-common, onos-cli, onos-rest, their third-party bundles and Atomix
 * 3.1.9), then the .oar installed the way ONOS installs one (its m2/ tree into Karaf's system
 * repository, its features file added, its feature installed). Karaf's own resolver, bundle list
 * and wiring answer whether every bundle resolves; no ONOS service runs (the core implementation
 * bundles are not in any registry), so the app's components stay unsatisfied and are not checked.
 */
@Tag("slow")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OnosKarafResolutionTest {
    static final String WEFT_BSN = "io.weft.weft-controller-app";
    private static final String SEPARATOR = "=====weft-karaf-check: ";
    static final List<String> ONOS_BSNS = List.of("org.onosproject.onlab-misc", "org.onosproject.onlab-osgi",
            "org.onosproject.onlab-rest", "org.onosproject.onos-api", "org.onosproject.onos-core-serializers",
            "org.onosproject.onos-core-common", "org.onosproject.onos-cli", "org.onosproject.onos-rest", "io.atomix");
    private static final Pattern REQUIREMENT = Pattern.compile(
            "osgi\\.wiring\\.package; \\(.*?osgi\\.wiring\\.package=([^)]+)\\).*? resolved by:\\s*\\n\\s*"
                    + "osgi\\.wiring\\.package; \\S+ (\\S+) from (\\S+) \\[(\\d+)]");

    private final Path checkDir = Path.of(System.getProperty("weft.karafCheckDir", "target/karaf-check"));
    private final String appVersion = System.getProperty("weft.appVersion", "0.1.0-SNAPSHOT");
    private KarafInstance karaf;
    private String onosInstall;
    private String weftInstall;
    private BundleTable bundles;
    /** What Karaf answered per command of the last batch, by command. */
    private final Map<String, String> answers = new LinkedHashMap<>();
    private long startMs;
    private long readyMs;

    @BeforeAll
    void installOnosThenWeft() throws Exception {
        Path java11 = Java11Runtime.home();
        String karafVersion = System.getProperty("weft.karafVersion", "4.2.9");
        Path mavenRepo = Path.of(System.getProperty("weft.mavenRepo",
                System.getProperty("user.home") + "/.m2/repository"));
        karaf = KarafInstance.prepare(checkDir.resolve("apache-karaf-" + karafVersion), checkDir.resolve("run"),
                java11, mavenRepo);
        // As ONOS installs an .oar: its m2/ tree goes into Karaf's system repository.
        unzipTree(checkDir.resolve("weft-controller-app.oar"), "m2/", karaf.home().resolve("system"));
        Path onosFeatures = karaf.home().resolve("onos-2.7-features.xml");
        try (InputStream in = getClass().getResourceAsStream("/onos-2.7-features.xml")) {
            Files.copy(in, onosFeatures, StandardCopyOption.REPLACE_EXISTING);
        }
        long t0 = System.nanoTime();
        karaf.start(180_000);
        startMs = (System.nanoTime() - t0) / 1_000_000;
        onosInstall = karaf.run(300_000, "feature:repo-add " + onosFeatures.toUri(),
                "feature:install onos-api onos-core-common onos-cli onos-rest");
        weftInstall = karaf.run(180_000,
                "feature:repo-add mvn:io.weft/weft-controller-app/" + appVersion + "/xml/features",
                "feature:install weft-controller-app");
        // One client session for every question (each bin/client costs a JVM start); bundles by name.
        List<String> questions = List.of("bundle:list -t 0 -s", "bundle:diag " + WEFT_BSN,
                "bundle:requirements " + WEFT_BSN, "weft-plan --help", "weft-intent --help", "weft-devices --help");
        List<String> batch = new ArrayList<>();
        for (String q : questions) {
            batch.add("echo '" + SEPARATOR + q + "'");
            batch.add(q);
        }
        String all = karaf.run(120_000, batch.toArray(new String[0]));
        for (String part : all.split(Pattern.quote(SEPARATOR))) {
            int nl = part.indexOf('\n');
            if (nl > 0) {
                answers.put(part.substring(0, nl).trim(), part.substring(nl + 1));
            }
        }
        assertThat(answers).as("answers to " + questions + " in:\n" + all)
                .containsKeys(questions.toArray(new String[0]));
        bundles = BundleTable.parse(answers.get("bundle:list -t 0 -s"));
        readyMs = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("karaf-check: Karaf shell ready in %d ms, ONOS + Weft installed after %d ms, %d bundles%n",
                startMs, readyMs, bundles.rows.size());
    }

    @AfterAll
    void stopKaraf() throws Exception {
        if (karaf != null) {
            karaf.close();
        }
    }

    @Test
    void onosFeaturesAndTheOarFeatureInstall() {
        assertThat(onosInstall).as("feature:install of ONOS 2.7's features").doesNotContain("Error executing command");
        assertThat(weftInstall).as("feature:install of the .oar's feature").doesNotContain("Error executing command");
    }

    @Test
    void everyBundleIsActiveWeftAndOnosIncluded() {
        List<String> notActive = new ArrayList<>();
        for (BundleTable.Row r : bundles.rows.values()) {
            // Fragments (Karaf's features extension, jline's jansi) are Resolved by design.
            boolean fragment = r.symbolicName.equals("org.apache.karaf.features.extension")
                    || r.symbolicName.equals("org.jline.terminal-jansi");
            if (!r.state.equals("Active") && !(fragment && r.state.equals("Resolved"))) {
                notActive.add(r.toString());
            }
        }
        assertThat(notActive).as("bundles not Active").isEmpty();
        assertThat(bundles.bySymbolicName(WEFT_BSN)).as(WEFT_BSN).isNotNull();
        assertThat(bundles.bySymbolicName(WEFT_BSN).state).isEqualTo("Active");
        for (String bsn : ONOS_BSNS) {
            assertThat(bundles.bySymbolicName(bsn)).as(bsn).isNotNull();
            assertThat(bundles.bySymbolicName(bsn).state).as(bsn).isEqualTo("Active");
        }
    }

    @Test
    void weftImportsResolveToOnosAndNothingOfGrpcGuavaOrProtobufComesFromOutside() {
        assertThat(answers.get("bundle:diag " + WEFT_BSN).trim()).as("bundle:diag of Weft's bundle").isEmpty();
        String requirements = answers.get("bundle:requirements " + WEFT_BSN);
        assertThat(requirements).contains(WEFT_BSN + " [" + bundles.bySymbolicName(WEFT_BSN).id + "] requires:");
        Map<String, String> providers = new LinkedHashMap<>();
        Matcher m = REQUIREMENT.matcher(requirements);
        while (m.find()) {
            providers.put(m.group(1), m.group(3) + " " + m.group(2));
        }
        assertThat(providers).as("wired imports of Weft's bundle").isNotEmpty();
        assertThat(providers.get("com.fasterxml.jackson.databind"))
                .isEqualTo("com.fasterxml.jackson.core.jackson-databind 2.11.0");
        assertThat(providers.get("org.onosproject.net.config")).startsWith("org.onosproject.onos-api 2.7.0");
        assertThat(providers.get("org.onosproject.cli")).startsWith("org.onosproject.onos-cli 2.7.0");
        assertThat(providers.get("org.apache.karaf.shell.api.action")).startsWith("org.apache.karaf.shell.core 4.2.9");
        assertThat(providers.keySet()).as("packages Weft's bundle takes from other bundles")
                .noneMatch(p -> p.startsWith("com.google.") || p.startsWith("io.grpc") || p.startsWith("io.netty")
                        || p.startsWith("io.weft."));
    }

    @Test
    void weftCommandsAreRegisteredWithKarafsShell() {
        for (String cmd : List.of("weft-plan", "weft-intent", "weft-devices")) {
            assertThat(answers.get(cmd + " --help")).as(cmd).contains("onos:" + cmd)
                    .doesNotContain("Command not found");
        }
    }

    /** Extracts the entries under {@code prefix} of a zip into {@code target}, without the prefix. */
    static void unzipTree(Path zip, String prefix, Path target) throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                if (!e.getName().startsWith(prefix) || e.isDirectory()) {
                    continue;
                }
                Path out = target.resolve(e.getName().substring(prefix.length())).normalize();
                if (!out.startsWith(target)) {
                    throw new IOException(zip + ": entry " + e.getName() + " points outside " + target);
                }
                Files.createDirectories(out.getParent());
                Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
