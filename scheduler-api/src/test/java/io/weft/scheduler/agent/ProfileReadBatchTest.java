package io.weft.scheduler.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.weft.scheduler.api.ApiTestSupport;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A fan-out reads many NICs' profiles in one statement: each NIC must get exactly what a read of
 * that NIC alone gives (no entry of a neighbour, released jobs' flows left out), and the carriers,
 * fetched as one string, must be the stored array.
 */
class ProfileReadBatchTest extends ApiTestSupport {
    /** The scheduler token of {@link ApiTestSupport}'s configuration. */
    private static final String SCHEDULER_TOKEN = "sched-token-0123456789";
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @Autowired
    ProfileReader reader;
    @Autowired
    JdbcClient jdbc;
    @LocalServerPort
    int servicePort;

    @Test
    void aBatchReadGivesEveryNicWhatItsOwnReadGives() throws Exception {
        String kept = ring("batch-kept", "nic1", "nic3", "nic2", "nic4");
        try {
            String released = ring("batch-released", "nic1", "nic4");
            release(released);
            readAndCompare(kept, released);
        } finally {
            // The API tests share one fabric: a job left active would load it for the next test.
            release(kept);
        }
    }

    private void readAndCompare(String kept, String released) {
        List<String> nics = List.of("nic1", "nic2", "nic3", "nic4", "no-such-nic");
        Map<String, EvProfile> batch = reader.readAll(nics);
        assertThat(batch.keySet()).containsExactlyInAnyOrderElementsOf(nics);
        for (String nic : nics) {
            assertThat(batch.get(nic)).as(nic).isEqualTo(reader.readAll(List.of(nic)).get(nic));
        }
        assertThat(batch.get("no-such-nic").peers()).isEmpty();
        int srv6 = 0;
        for (EvProfile p : batch.values()) {
            for (EvProfile.Peer peer : p.peers()) {
                for (EvProfile.Entry e : peer.entries()) {
                    assertThat(e.jobId()).isNotEqualTo(released);
                    if (e.format().equals("srv6")) {
                        String flow = e.id().substring(0, e.id().length() - "#srv6".length());
                        List<String> stored = jdbc.sql("select carriers from path_assignments where flow_id = ?")
                                .param(flow).query((rs, n) -> Arrays.asList((String[]) rs.getArray(1).getArray()))
                                .single();
                        assertThat(e.carriers()).as(e.id()).isEqualTo(stored);
                        assertThat(e.value()).isEqualTo(stored.get(0));
                        srv6 += e.jobId().equals(kept) ? 1 : 0;
                    }
                }
            }
        }
        assertThat(srv6).as("the kept ring's four flows").isEqualTo(4);
    }

    private void release(String job) throws Exception {
        HttpResponse<String> r = CLIENT.send(request("/v1/jobs/" + job).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
    }

    private String ring(String name, String... nics) throws Exception {
        String body = "{\"name\":\"" + name + "\",\"pattern\":\"ring\",\"endpoints\":[\"" + String.join("\",\"", nics)
                + "\"],\"demandGbps\":10}";
        HttpResponse<String> r = CLIENT.send(request("/v1/jobs").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return r.body().replaceAll("(?s).*?\"id\":\"([^\"]+)\".*", "$1");
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + servicePort + path))
                .header("Authorization", "Bearer " + SCHEDULER_TOKEN);
    }
}
