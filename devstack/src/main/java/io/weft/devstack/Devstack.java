package io.weft.devstack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

import org.apache.kafka.clients.admin.Admin;

/**
 * Weft's embedded default infrastructure: one KRaft Kafka broker and one PostgreSQL, both on loopback,
 * with their data under one state directory ({@code kafka/}, {@code postgres/}), and the topic catalogue
 * created. Both start in parallel; if either fails the other is stopped again.
 */
public final class Devstack implements AutoCloseable {
    public static final int DEFAULT_KAFKA_PORT = 19092;
    public static final int DEFAULT_POSTGRES_PORT = 15432;

    private final EmbeddedKafka kafka;
    private final EmbeddedPostgres postgres;
    private final List<String> createdTopics;
    private boolean closed;

    private Devstack(EmbeddedKafka kafka, EmbeddedPostgres postgres, List<String> createdTopics) {
        this.kafka = kafka;
        this.postgres = postgres;
        this.createdTopics = createdTopics;
    }

    public static Builder builder() {
        return new Builder();
    }

    public DevstackEndpoints endpoints() {
        return new DevstackEndpoints(kafka.bootstrapServers(), postgres.jdbcUrl(),
                postgres.user(), postgres.password());
    }

    public EmbeddedKafka kafka() {
        return kafka;
    }

    public EmbeddedPostgres postgres() {
        return postgres;
    }

    /** Topics this start created (empty when all of the catalogue was already there). */
    public List<String> createdTopics() {
        return createdTopics;
    }

    /** Stops Kafka, then PostgreSQL; waits for both. Safe to call twice. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            kafka.close();
        } finally {
            postgres.close();
        }
    }

    /** Devstack settings; every one has a default usable by {@code ./weft demo}. */
    public static final class Builder {
        private Path stateDir = Path.of(".weft");
        private int kafkaPort = DEFAULT_KAFKA_PORT;
        private int postgresPort = DEFAULT_POSTGRES_PORT;
        private List<TopicSpec> topics;
        private Duration readyTimeout = Duration.ofSeconds(60);
        private Consumer<String> progress = line -> { };
        private boolean postgresTemplate;
        private boolean kafkaSecure;

        /** Data goes to {@code stateDir/kafka} and {@code stateDir/postgres}; a later start reuses it. */
        public Builder stateDir(Path dir) {
            this.stateDir = Objects.requireNonNull(dir, "stateDir");
            return this;
        }

        /** Kafka's client port on 127.0.0.1; 0 = any free port. */
        public Builder kafkaPort(int port) {
            this.kafkaPort = port;
            return this;
        }

        /** PostgreSQL's port on 127.0.0.1; 0 = any free port. */
        public Builder postgresPort(int port) {
            this.postgresPort = port;
            return this;
        }

        /** Topics to ensure; default {@link KafkaTopicSetup#catalogue()}. */
        public Builder topics(List<TopicSpec> specs) {
            this.topics = List.copyOf(specs);
            return this;
        }

        /**
         * A new PostgreSQL data directory starts as a copy of a machine-wide template instead of initdb
         * (see {@link EmbeddedPostgres#start(Path, int, Duration, boolean)}); for throw-away test databases.
         */
        public Builder postgresFromTemplate(boolean enabled) {
            this.postgresTemplate = enabled;
            return this;
        }

        /**
         * Kafka's client listener is SASL/SCRAM over TLS with the ACLs of contracts/topics.json
         * ({@link KafkaSecureListener}); its data goes to {@code stateDir/kafka-secure}. Default: plaintext.
         */
        public Builder kafkaSecure(boolean enabled) {
            this.kafkaSecure = enabled;
            return this;
        }

        public Builder readyTimeout(Duration timeout) {
            this.readyTimeout = Objects.requireNonNull(timeout, "readyTimeout");
            return this;
        }

        /** Receives one human-readable line per step (for a CLI's progress output). */
        public Builder progress(Consumer<String> sink) {
            this.progress = Objects.requireNonNull(sink, "progress");
            return this;
        }

        public Devstack start() {
            List<TopicSpec> specs = topics != null ? topics : KafkaTopicSetup.catalogue();
            Path kafkaDir = stateDir.resolve(kafkaSecure ? "kafka-secure" : "kafka");
            Path pgDir = stateDir.resolve("postgres");
            progress.accept("starting Kafka (KRaft, data in " + kafkaDir + ")");
            CompletableFuture<EmbeddedKafka> kafkaStart = CompletableFuture.supplyAsync(() -> {
                long t0 = System.nanoTime();
                EmbeddedKafka k = EmbeddedKafka.start(kafkaDir, kafkaPort, readyTimeout, kafkaSecure);
                progress.accept("Kafka ready on " + k.bootstrapServers() + " in " + millisSince(t0) + " ms");
                return k;
            }, Devstack::runOnNewThread);
            progress.accept("starting PostgreSQL (data in " + pgDir
                    + (Files.exists(pgDir.resolve("PG_VERSION")) ? ")" : "; first start: initdb, ~10 s)"));
            CompletableFuture<EmbeddedPostgres> pgStart = CompletableFuture.supplyAsync(() -> {
                long t0 = System.nanoTime();
                long orphan = EmbeddedPostgres.stopOrphan(pgDir.toAbsolutePath(), readyTimeout);
                if (orphan > 0) {
                    progress.accept("stopped PostgreSQL pid " + orphan
                            + ", left running by a devstack that was killed");
                }
                EmbeddedPostgres p = EmbeddedPostgres.start(pgDir, postgresPort, readyTimeout, postgresTemplate);
                progress.accept("PostgreSQL ready on port " + p.port() + " in " + millisSince(t0) + " ms");
                return p;
            }, Devstack::runOnNewThread);

            EmbeddedKafka k = join(kafkaStart);
            EmbeddedPostgres p = join(pgStart);
            if (k == null || p == null) {
                closeQuietly(k);
                closeQuietly(p);
                throw firstFailure(kafkaStart, pgStart);
            }
            try {
                List<String> created = createTopics(k, specs);
                progress.accept(specs.isEmpty() ? "no topic catalogue on the classpath: no topics created"
                        : "topics: " + specs.size() + " in the catalogue, created " + created.size()
                                + (created.isEmpty() ? "" : " " + created));
                return new Devstack(k, p, List.copyOf(created));
            } catch (RuntimeException e) {
                closeQuietly(k);
                closeQuietly(p);
                throw e;
            }
        }

        private static List<String> createTopics(EmbeddedKafka kafka, List<TopicSpec> specs) {
            if (specs.isEmpty()) {
                return List.of();
            }
            try (Admin admin = Admin.create(kafka.adminClientProperties())) {
                return KafkaTopicSetup.ensure(admin, specs);
            }
        }
    }

    // Threads named for the service so that a thread dump of a hung start says what hangs.
    private static void runOnNewThread(Runnable task) {
        Thread t = new Thread(task, "weft-devstack-start");
        t.setDaemon(true);
        t.start();
    }

    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            return null;
        }
    }

    private static DevstackException firstFailure(CompletableFuture<?>... futures) {
        for (CompletableFuture<?> f : futures) {
            try {
                f.join();
            } catch (CompletionException e) {
                Throwable cause = e.getCause();
                return cause instanceof DevstackException d ? d
                        : new DevstackException(String.valueOf(cause.getMessage()), cause);
            }
        }
        return new DevstackException("devstack start failed");
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception ignored) {
            // Already failing: the start error is the one worth reporting.
        }
    }

    private static long millisSince(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
