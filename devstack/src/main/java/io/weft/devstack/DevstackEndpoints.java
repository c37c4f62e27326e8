package io.weft.devstack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;

/** Where a running devstack answers; what a service needs to connect to it. */
public record DevstackEndpoints(String kafkaBootstrapServers, String jdbcUrl, String jdbcUser, String jdbcPassword) {

    /**
     * The endpoints as the environment variables other Weft processes read (WEFT_KAFKA_BOOTSTRAP, ...).
     * {@code WEFT_JDBC_USER} is the devstack's administrator; each service's own login is there too
     * ({@code WEFT_SCHEDULER_JDBC_USER}, {@code WEFT_COLLECTOR_JDBC_USER} and their passwords), for the
     * scripts that start the services.
     */
    public Map<String, String> asEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("WEFT_KAFKA_BOOTSTRAP", kafkaBootstrapServers);
        env.put("WEFT_JDBC_URL", jdbcUrl);
        env.put("WEFT_JDBC_USER", jdbcUser);
        env.put("WEFT_JDBC_PASSWORD", jdbcPassword);
        env.put("WEFT_SCHEDULER_JDBC_USER", ServiceRoles.SCHEDULER);
        env.put("WEFT_SCHEDULER_JDBC_PASSWORD", ServiceRoles.SCHEDULER_PASSWORD);
        env.put("WEFT_COLLECTOR_JDBC_USER", ServiceRoles.COLLECTOR);
        env.put("WEFT_COLLECTOR_JDBC_PASSWORD", ServiceRoles.COLLECTOR_PASSWORD);
        return env;
    }

    /**
     * What scheduler-api needs to run on the devstack as itself: Kafka, the database, and its own role
     * {@value ServiceRoles#SCHEDULER} (owner of schema {@code scheduler} and nothing else).
     */
    public Map<String, String> schedulerEnv() {
        return serviceEnv(ServiceRoles.SCHEDULER, ServiceRoles.SCHEDULER_PASSWORD);
    }

    /** As {@link #schedulerEnv()} for the collector: role {@value ServiceRoles#COLLECTOR}, schema telemetry. */
    public Map<String, String> collectorEnv() {
        return serviceEnv(ServiceRoles.COLLECTOR, ServiceRoles.COLLECTOR_PASSWORD);
    }

    private Map<String, String> serviceEnv(String user, String password) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("WEFT_KAFKA_BOOTSTRAP", kafkaBootstrapServers);
        env.put("WEFT_JDBC_URL", jdbcUrl);
        env.put("WEFT_JDBC_USER", user);
        env.put("WEFT_JDBC_PASSWORD", password);
        return env;
    }

    /**
     * Writes {@link #asEnv()} as {@code NAME=value} lines (sourceable by bash) to {@code file}, atomically so
     * that a reader never sees half a file.
     */
    public void writeEnvFile(Path file) throws IOException {
        writeEnvFile(file, Map.of());
    }

    /** As {@link #writeEnvFile(Path)}, with {@code extra} variables after the endpoints'. */
    public void writeEnvFile(Path file, Map<String, String> extra) throws IOException {
        StringBuilder text = new StringBuilder("# written by the Weft devstack; valid while it runs\n");
        asEnv().forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        extra.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".devstack", ".env");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
