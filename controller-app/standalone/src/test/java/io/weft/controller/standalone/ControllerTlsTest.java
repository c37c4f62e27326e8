package io.weft.controller.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import io.weft.auth.ReadAccess;
import io.weft.devstack.Keytool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS on the controller's listener: a key store made here by the JDK's keytool (a self-signed
 * certificate for 127.0.0.1), a client that trusts exactly that certificate, the operator's drain
 * over TLS, and a plain-HTTP client that gets no answer.
 */
class ControllerTlsTest {
    private static final String OPERATOR = "tls-operator-token-0123456789";

    @TempDir
    Path dir;

    @Test
    void servesHttpsWithTheGivenKeyStoreAndNoPlainHttp() throws Exception {
        Path store = dir.resolve("controller.p12");
        Path password = dir.resolve("password");
        Files.writeString(password, "changeit-0123\n");
        Keytool.run("-genkeypair", "-alias", "controller", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=weft-controller", "-ext", "SAN=ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", "changeit-0123");
        Path file = dir.resolve("fabric.json");
        TestFabrics.write(file, TestFabrics.leafSpine("tls", 2, 2, 400));
        ControllerOptions o = new ControllerOptions(file, null, "127.0.0.1", 0, dir.resolve("state"), 50,
                ControllerOptions.DEFAULT_GNMI_TIMEOUT_MS, ControllerOptions.DEFAULT_GNMI_RESYNC_MS, null,
                ReadAccess.OPEN, new ControllerOptions.Tls(store, password));
        try (StandaloneController c = StandaloneController.start(o, "ops:operator=" + OPERATOR,
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()))) {
            HttpClient trusting = HttpClient.newBuilder().sslContext(trusting(store, "changeit-0123"))
                    .connectTimeout(Duration.ofSeconds(5)).build();
            String base = "https://127.0.0.1:" + c.httpPort();
            assertThat(trusting.send(HttpRequest.newBuilder(URI.create(base + "/healthz")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
            HttpResponse<String> drained =
                    trusting.send(HttpRequest.newBuilder(URI.create(base + "/links/leaf1-spine1/state"))
                    .header("Authorization", "Bearer " + OPERATOR)
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"state\":\"drained\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(drained.statusCode()).as(drained.body()).isEqualTo(200);
            assertThat(c.describe()).startsWith("serving https://");

            HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            assertThatThrownBy(() -> plain.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.httpPort()
                    + "/healthz")).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void aWrongPasswordStopsTheStartWithOneLine() throws Exception {
        Path store = dir.resolve("controller.p12");
        Path password = dir.resolve("password");
        Files.writeString(password, "not-the-password");
        Keytool.run("-genkeypair", "-alias", "controller", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=weft-controller", "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", "changeit-0123");
        Path file = dir.resolve("fabric.json");
        TestFabrics.write(file, TestFabrics.leafSpine("tls", 2, 2, 400));
        ControllerOptions o = new ControllerOptions(file, null, "127.0.0.1", 0, dir.resolve("state"), 50,
                ControllerOptions.DEFAULT_GNMI_TIMEOUT_MS, ControllerOptions.DEFAULT_GNMI_RESYNC_MS, null,
                ReadAccess.OPEN, new ControllerOptions.Tls(store, password));
        assertThatThrownBy(() -> StandaloneController.start(o, null, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream())))
                .hasMessageContaining("--tls-keystore " + store).hasMessageNotContaining("not-the-password");
    }

    @Test
    void tlsOptionsParseAndGoTogether() {
        ControllerOptions o = ControllerOptions.parse(new String[] {"--fabric", "f.json", "--tls-keystore", "k.p12",
            "--tls-keystore-password-file", "pw"}, null);
        assertThat(o.tls()).isEqualTo(new ControllerOptions.Tls(Path.of("k.p12"), Path.of("pw")));
        assertThat(ControllerOptions.parse(new String[] {"--fabric", "f.json"}, null).tls()).isNull();
        assertThatThrownBy(() -> ControllerOptions.parse(new String[] {"--fabric", "f.json", "--tls-keystore", "k.p12"},
                null)).hasMessageContaining("go together");
    }

    private static SSLContext trusting(Path store, String password) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, password.toCharArray());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }
}
