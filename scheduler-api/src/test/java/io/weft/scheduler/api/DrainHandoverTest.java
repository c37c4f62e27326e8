package io.weft.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;

import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.junit.WeftDevstackTest;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The upgrade that moved link drains to the controller: a database at schema version 1 with a row in
 * {@code link_drains} (scheduler-api's own drain, before) is migrated on start, the table is gone,
 * and the drain reaches the controller once, so the link is drained in the controller's snapshot and
 * in scheduler-api's view of it.
 */
@WeftDevstackTest
class DrainHandoverTest {
    private static final String TOKEN = "handover-operator-token-0123456789";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void aDrainRecordedBeforeTheUpgradeIsHandedToTheController(DevstackEndpoints e) throws Exception {
        String schema = "handover_" + System.nanoTime();
        String link = "leaf2-spine2";
        Flyway.configure().dataSource(e.jdbcUrl(), e.jdbcUser(), e.jdbcPassword()).schemas(schema)
                .defaultSchema(schema).locations("classpath:db/migration").target("1").load().migrate();
        try (Connection c = DriverManager.getConnection(e.jdbcUrl(), e.jdbcUser(), e.jdbcPassword());
             Statement s = c.createStatement()) {
            s.execute("insert into " + schema + ".link_drains (link_id, drained_by) values ('" + link + "', 'ops')");
        }
        int controller = TestController.port(e);
        ConfigurableApplicationContext app = SchemaService.start(e, schema,
                "--weft.scheduler.kafka.bootstrap-servers=" + e.kafkaBootstrapServers(),
                "--weft.scheduler.controller.url=http://127.0.0.1:" + controller,
                "--weft.scheduler.controller.token=" + TestController.TOKEN,
                "--weft.scheduler.auth.tokens=o:operator=" + TOKEN);
        try {
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
            assertThat(jdbc.queryForObject("select count(*) from information_schema.tables where table_schema = ? "
                    + "and table_name = 'link_drains'", Integer.class, schema)).isZero();
            String state = "";
            for (int i = 0; i < 300 && !state.equals("drained"); i++) {
                Thread.sleep(100);
                JsonNode f = get(port, "/v1/fabric");
                state = f.path("linkStates").path(link).asString("");
            }
            assertThat(state).as("scheduler-api's view, from the controller's snapshot").isEqualTo("drained");
            JsonNode snapshot = JSON.readTree(http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + controller + "/fabric")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            assertThat(snapshot.path("linkStates").path(link).asString()).isEqualTo("drained");
            assertThat(jdbc.queryForObject("select count(*) from events where type = 'link-drain-handed-over' "
                    + "and subject = ?", Integer.class, link)).isEqualTo(1);

            // Back in service through the API: the controller's state again.
            HttpResponse<String> undrain = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                            + "/v1/fabric/links/" + link + "/undrain")).header("Authorization", "Bearer " + TOKEN)
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(undrain.statusCode()).as(undrain.body()).isEqualTo(200);
            assertThat(JSON.readTree(undrain.body()).path("state").asString()).isEqualTo("up");
        } finally {
            app.close();
        }
    }

    private JsonNode get(int port, String path) throws Exception {
        return JSON.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", "Bearer " + TOKEN).build(), HttpResponse.BodyHandlers.ofString()).body());
    }
}
