package io.weft.scheduler.api;

import java.util.ArrayList;
import java.util.List;

import io.weft.devstack.DevstackEndpoints;
import io.weft.scheduler.SchedulerApiApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A scheduler-api started by a test on its own PostgreSQL schema of the shared devstack, on a free
 * port, placing on the 2x2 example: for tests that stop, restart or reconfigure the service, which the
 * shared {@link ApiTestSupport} context cannot. {@code more} adds or replaces {@code --key=value}
 * arguments (Kafka, controller, tokens, TLS): a replaced default is left out, because Spring joins two
 * values of one command-line key with a comma instead of taking the last.
 */
final class SchemaService {
    private SchemaService() {
    }

    static ConfigurableApplicationContext start(DevstackEndpoints e, String schema, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "--server.port=0",
                "--spring.datasource.url=" + e.jdbcUrl(),
                "--spring.datasource.hikari.schema=" + schema,
                "--spring.flyway.schemas=" + schema,
                "--spring.flyway.default-schema=" + schema,
                "--spring.datasource.username=" + e.jdbcUser(),
                "--spring.datasource.password=" + e.jdbcPassword(),
                "--weft.scheduler.kafka.bootstrap-servers=",
                "--weft.scheduler.fabric.file=" + ApiTestSupport.FABRIC,
                "--spring.jmx.enabled=false"));
        for (String m : more) {
            String key = m.contains("=") ? m.substring(0, m.indexOf('=') + 1) : m;
            args.removeIf(a -> a.startsWith(key));
        }
        args.addAll(List.of(more));
        return new SpringApplicationBuilder(SchedulerApiApplication.class).run(args.toArray(String[]::new));
    }
}
