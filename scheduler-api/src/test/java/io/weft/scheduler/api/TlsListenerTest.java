package io.weft.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
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

import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.Keytool;
import io.weft.devstack.junit.WeftDevstackTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * TLS on scheduler-api's listener with Spring Boot's own settings ({@code server.ssl.*}, i.e.
 * {@code SERVER_SSL_ENABLED}, {@code SERVER_SSL_KEY_STORE}, ...): a key store made by the JDK's
 * keytool, an agent's poll (answered by the Jetty handler in front of the servlets), its profile
 * stream and a scheduler's read over HTTPS, and no answer to plain HTTP.
 */
@WeftDevstackTest
class TlsListenerTest {
    private static final String AGENT = "tls-agent-token-0123456789";
    private static final String SCHED = "tls-sched-token-0123456789";

    @TempDir
    Path dir;

    @Test
    void agentsAndSchedulersAreServedOverHttpsOnly(DevstackEndpoints e) throws Exception {
        Path store = dir.resolve("scheduler-api.p12");
        Keytool.run("-genkeypair", "-alias", "scheduler-api", "-keyalg", "EC", "-groupname", "secp256r1",
                "-validity", "2", "-dname", "CN=weft-scheduler-api", "-ext", "SAN=ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", "changeit-0123");
        String schema = "tls_" + System.nanoTime();
        ConfigurableApplicationContext app = SchemaService.start(e, schema,
                "--server.ssl.enabled=true",
                "--server.ssl.key-store=" + store,
                "--server.ssl.key-store-type=PKCS12",
                "--server.ssl.key-store-password=changeit-0123",
                "--weft.scheduler.auth.tokens=s:scheduler=" + SCHED + ";a:agent:nic1=" + AGENT);
        try {
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            HttpClient https = HttpClient.newBuilder().sslContext(trusting(store)).connectTimeout(Duration.ofSeconds(5))
                    .build();
            String base = "https://127.0.0.1:" + port;
            assertThat(https.send(get(base + "/v1/agents/nic1/paths", AGENT), HttpResponse.BodyHandlers.ofString())
                    .statusCode()).isEqualTo(200);
            // The profile stream over TLS: its events go through the TLS endpoint, never straight to the socket.
            HttpResponse<java.util.stream.Stream<String>> stream = https.send(HttpRequest.newBuilder(
                    URI.create(base + "/v1/agents/nic1/paths/stream")).header("Authorization", "Bearer " + AGENT)
                    .header("Accept", "text/event-stream").version(HttpClient.Version.HTTP_1_1).build(),
                    HttpResponse.BodyHandlers.ofLines());
            assertThat(stream.statusCode()).isEqualTo(200);
            try (java.util.stream.Stream<String> lines = stream.body()) {
                assertThat(lines.filter(l -> l.startsWith("data:")).findFirst().orElseThrow())
                        .as("the first event, readable through TLS").contains("\"nic\":\"nic1\"");
            }
            assertThat(https.send(get(base + "/v1/jobs", SCHED), HttpResponse.BodyHandlers.ofString()).statusCode())
                    .isEqualTo(200);
            assertThat(https.send(get(base + "/v1/jobs", null), HttpResponse.BodyHandlers.ofString()).statusCode())
                    .isEqualTo(401);
            HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            int status;
            try {
                status = plain.send(get("http://127.0.0.1:" + port + "/v1/jobs", SCHED),
                        HttpResponse.BodyHandlers.ofString()).statusCode();
            } catch (IOException refused) {
                status = -1;
            }
            assertThat(status).as("plain HTTP on the TLS port is never served").isNotEqualTo(200);
        } finally {
            app.close();
        }
    }

    private static HttpRequest get(String url, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        return (token == null ? b : b.header("Authorization", "Bearer " + token)).build();
    }

    private static SSLContext trusting(Path store) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, "changeit-0123".toCharArray());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }
}
