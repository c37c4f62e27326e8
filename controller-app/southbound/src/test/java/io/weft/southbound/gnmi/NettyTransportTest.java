package io.weft.southbound.gnmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileInputStream;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grpc.Metadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real TCP transport (grpc-netty-shaded, as against real switches): credentials as metadata,
 * TLS with the switch's CA, and a certificate the controller must not trust. Certificates are made
 * with the JDK's keytool, so nothing beyond the JDK is needed.
 */
class NettyTransportTest {
    @TempDir
    Path dir;

    private final List<String> log = new CopyOnWriteArrayList<>();
    private FakeSwitch fake;
    private Provisioner provisioner;

    @AfterEach
    void stop() {
        if (provisioner != null) {
            provisioner.close();
        }
        if (fake != null) {
            fake.close();
        }
    }

    private DeviceStatus pushOnce(GnmiTarget target) throws Exception {
        Map<String, ObjectNode> intents = Intents.leafSpine2x2();
        provisioner = new Provisioner(new ProvisionerConfig(4, 3000, 50, 500, 60_000), new NettyChannels(), log::add);
        provisioner.provision(Map.of("leaf1", target), Map.of("leaf1", intents.get("leaf1")));
        long end = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < end) {
            DeviceStatus s = provisioner.device("leaf1");
            if (s.state() != DeviceState.PENDING) {
                return s;
            }
            Thread.sleep(20);
        }
        return provisioner.device("leaf1");
    }

    @Test
    void plaintextWithUsernameAndPasswordMetadata() throws Exception {
        fake = FakeSwitch.tcp("leaf1").start();
        DeviceStatus s = pushOnce(new GnmiTarget("leaf1", "127.0.0.1", fake.port(), false, null, null, null,
                "weft", "s3cret"));
        assertThat(s.state()).as(String.valueOf(s.lastError())).isEqualTo(DeviceState.IN_SYNC);
        Metadata h = fake.lastHeaders;
        assertThat(h.get(Metadata.Key.of("username", Metadata.ASCII_STRING_MARSHALLER))).isEqualTo("weft");
        assertThat(h.get(Metadata.Key.of("password", Metadata.ASCII_STRING_MARSHALLER))).isEqualTo("s3cret");
    }

    @Test
    void tlsWithTheSwitchesCaIsInSync() throws Exception {
        fake = FakeSwitch.tls("leaf1", keys(keystore("switch"))).start();
        Path ca = exportCert("switch");
        DeviceStatus s = pushOnce(new GnmiTarget("leaf1", "127.0.0.1", fake.port(), true, ca.toString(), null, null,
                null, null));
        assertThat(s.state()).as(String.valueOf(s.lastError())).isEqualTo(DeviceState.IN_SYNC);
        assertThat(fake.sets).hasSize(1);
    }

    @Test
    void aCertificateFromAnotherCaIsRefusedWithAClearState() throws Exception {
        fake = FakeSwitch.tls("leaf1", keys(keystore("switch"))).start();
        keystore("other");
        Path wrongCa = exportCert("other");
        DeviceStatus s = pushOnce(new GnmiTarget("leaf1", "127.0.0.1", fake.port(), true, wrongCa.toString(), null,
                null, null, null));
        assertThat(s.state()).isEqualTo(DeviceState.UNREACHABLE);
        assertThat(s.lastError()).contains("leaf1").contains("127.0.0.1:" + fake.port()).contains("UNAVAILABLE");
        assertThat(log).anyMatch(l -> l.contains("leaf1") && l.contains("unreachable"));
        assertThat(fake.sets).isEmpty();
    }

    @Test
    void plaintextClientAgainstATlsSwitchIsUnreachableNotHung() throws Exception {
        fake = FakeSwitch.tls("leaf1", keys(keystore("switch"))).start();
        long t0 = System.nanoTime();
        DeviceStatus s = pushOnce(GnmiTarget.plaintext("leaf1", "127.0.0.1", fake.port()));
        assertThat(s.state()).isEqualTo(DeviceState.UNREACHABLE);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(5000);
    }

    @Test
    void agentKilledThenRestartedEmptyOnTheSamePortIsResyncedWithoutAManualStep() throws Exception {
        fake = FakeSwitch.tcp("leaf1").start();
        Map<String, ObjectNode> intents = Intents.leafSpine2x2();
        provisioner = new Provisioner(new ProvisionerConfig(4, 1000, 50, 300, 300), new NettyChannels(), log::add);
        provisioner.provision(Map.of("leaf1", GnmiTarget.plaintext("leaf1", "127.0.0.1", fake.port())),
                Map.of("leaf1", intents.get("leaf1")));
        awaitState(DeviceState.IN_SYNC);
        int ops = fake.totalOps();

        fake.stop(); // the agent dies
        awaitState(DeviceState.UNREACHABLE);
        assertThat(provisioner.device("leaf1").lastError()).contains("leaf1").contains("127.0.0.1:" + fake.port());

        fake.restartEmpty(); // back with an empty kernel on the same port
        long end = System.currentTimeMillis() + 10_000;
        while (fake.sets.size() < 2 && System.currentTimeMillis() < end) {
            Thread.sleep(20);
        }
        awaitState(DeviceState.IN_SYNC);
        assertThat(fake.sets).as("one full re-push after the restart").hasSize(2);
        assertThat(fake.opsInSet(1)).isEqualTo(ops);
        assertThat(fake.store).hasSize(ops);
    }

    private void awaitState(DeviceState state) throws Exception {
        long end = System.currentTimeMillis() + 10_000;
        while (provisioner.device("leaf1").state() != state) {
            assertThat(System.currentTimeMillis()).as("leaf1 " + state + ", now " + provisioner.device("leaf1"))
                    .isLessThan(end);
            Thread.sleep(20);
        }
    }

    private Path keystore(String alias) throws Exception {
        Path ks = dir.resolve(alias + ".p12");
        run("keytool", "-genkeypair", "-alias", alias, "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=" + alias, "-ext", "SAN=IP:127.0.0.1,DNS:localhost", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", ks.toString(), "-storepass", "changeit", "-keypass", "changeit");
        return ks;
    }

    private Path exportCert(String alias) throws Exception {
        Path pem = dir.resolve(alias + ".pem");
        run("keytool", "-exportcert", "-rfc", "-alias", alias, "-keystore", dir.resolve(alias + ".p12").toString(),
                "-storepass", "changeit", "-file", pem.toString());
        return pem;
    }

    private static KeyManagerFactory keys(Path p12) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (FileInputStream in = new FileInputStream(p12.toFile())) {
            ks.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "changeit".toCharArray());
        return kmf;
    }

    private static void run(String tool, String... args) throws Exception {
        java.util.List<String> cmd = new java.util.ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", tool).toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(tool + ": " + out).isZero();
    }
}
