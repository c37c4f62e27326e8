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

    /** The endpoints as the environment variables other Weft processes read (WEFT_KAFKA_BOOTSTRAP, ...). */
    public Map<String, String> asEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("WEFT_KAFKA_BOOTSTRAP", kafkaBootstrapServers);
        env.put("WEFT_JDBC_URL", jdbcUrl);
        env.put("WEFT_JDBC_USER", jdbcUser);
        env.put("WEFT_JDBC_PASSWORD", jdbcPassword);
        return env;
    }

    /**
     * Writes {@link #asEnv()} as {@code NAME=value} lines (sourceable by bash) to {@code file}, atomically so
     * that a reader never sees half a file.
     */
    public void writeEnvFile(Path file) throws IOException {
        StringBuilder text = new StringBuilder("# written by the Weft devstack; valid while it runs\n");
        asEnv().forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".devstack", ".env");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
