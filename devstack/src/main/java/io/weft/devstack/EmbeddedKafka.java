package io.weft.devstack;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

/**
 * A single-node KRaft Kafka broker (broker and controller in one) running in this JVM on loopback.
 *
 * <p>The data directory is formatted only on first use; later starts on the same directory reuse its
 * cluster id (kept by Kafka in {@code meta.properties}) and every topic and record in it.
 * The broker needs at least 256 MB of heap. Plaintext on loopback by default; with the secure listener
 * ({@link KafkaSecureListener}) its one client listener is SASL/SCRAM over TLS with the catalogue's ACLs.
 */
public final class EmbeddedKafka implements AutoCloseable {
    private static final String NODE_ID = "1";

    private final KafkaRaftServer server;
    private final int port;
    private final String clusterId;
    private final KafkaSecureListener secure;
    private boolean closed;

    private EmbeddedKafka(KafkaRaftServer server, int port, String clusterId, KafkaSecureListener secure) {
        this.server = server;
        this.port = port;
        this.clusterId = clusterId;
        this.secure = secure;
    }

    /**
     * Starts a broker with data under {@code dataDir} listening on 127.0.0.1:{@code port} (0 = a free
     * port) and returns once an admin client sees the cluster, or fails after {@code readyTimeout}.
     */
    public static EmbeddedKafka start(Path dataDir, int port, Duration readyTimeout) {
        return start(dataDir, port, readyTimeout, false);
    }

    /**
     * As {@link #start(Path, int, Duration)}; {@code secure}: the client listener is SASL_SSL with
     * SCRAM users and ACLs for every principal of contracts/topics.json (see {@link KafkaSecureListener}).
     */
    public static EmbeddedKafka start(Path dataDir, int port, Duration readyTimeout, boolean secure) {
        int brokerPort = Ports.claim("Kafka", port);
        // The controller listener is internal: any free port will do, on every start.
        int controllerPort = Ports.free();
        Path logDir = dataDir.resolve("logs");
        Properties props = brokerProperties(logDir, brokerPort, controllerPort);
        KafkaSecureListener listener = secure
                ? KafkaSecureListener.prepare(dataDir, Files.exists(logDir.resolve("meta.properties"))) : null;
        if (listener != null) {
            listener.configure(props, brokerPort, controllerPort);
        }
        try {
            Files.createDirectories(logDir);
            String clusterId = formatIfNeeded(dataDir, logDir, props,
                    listener == null ? List.of() : listener.formatArguments());
            KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
            EmbeddedKafka kafka = new EmbeddedKafka(server, brokerPort, clusterId, listener);
            try {
                server.startup();
                kafka.awaitReady(readyTimeout);
                if (listener != null) {
                    try (Admin admin = Admin.create(kafka.adminClientProperties())) {
                        listener.apply(admin, readyTimeout.toMillis());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                kafka.close();
                throw new DevstackException("Kafka: interrupted while setting up users and ACLs");
            } catch (Exception e) {
                kafka.close();
                throw e instanceof DevstackException d ? d
                        : new DevstackException("Kafka: secure set-up failed: " + e.getMessage(), e);
            }
            return kafka;
        } catch (IOException e) {
            throw new DevstackException("Kafka: cannot prepare data directory " + dataDir + ": " + e.getMessage(), e);
        }
    }

    /** {@code 127.0.0.1:port}, the value for a client's {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return bootstrapServers(port);
    }

    /** The bootstrap servers of a broker on loopback port {@code port}. */
    static String bootstrapServers(int port) {
        return Ports.LOOPBACK + ":" + port;
    }

    public int port() {
        return port;
    }

    public String clusterId() {
        return clusterId;
    }

    /** The secure listener's users, passwords and CA file; empty when the broker is plaintext. */
    public Optional<KafkaSecureListener> secureListener() {
        return Optional.ofNullable(secure);
    }

    /** Settings for an admin client of this broker: the bootstrap servers, and the super user's login when secure. */
    public Properties adminClientProperties() {
        Properties p = secure == null ? new Properties() : secure.adminClientProperties();
        p.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return p;
    }

    /** Stops the broker and waits until its threads are gone. Safe to call twice. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        server.shutdown();
        server.awaitShutdown();
    }

    private static Properties brokerProperties(Path logDir, int brokerPort, int controllerPort) {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", NODE_ID);
        p.setProperty("controller.quorum.voters", NODE_ID + "@" + Ports.LOOPBACK + ":" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://" + Ports.LOOPBACK + ":" + brokerPort
                + ",CONTROLLER://" + Ports.LOOPBACK + ":" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://" + Ports.LOOPBACK + ":" + brokerPort);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("log.dirs", logDir.toAbsolutePath().toString());
        // One node: every internal topic has a single replica.
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        // Small and quick: the machine has two cores shared with everything else.
        p.setProperty("offsets.topic.num.partitions", "4");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        // Consumer groups may time a silent member out after 500 ms (stock minimum 6 s): the collector's
        // instances run 1 s so that a killed one's partitions move within about a second.
        p.setProperty("group.min.session.timeout.ms", "500");
        // The same for groups on the streams rebalance protocol (KIP-1071), whose session and heartbeat are
        // the broker's (stock: 45 s and 5 s, minimum as much); the first assignment is not delayed either.
        p.setProperty("group.streams.min.session.timeout.ms", "500");
        p.setProperty("group.streams.session.timeout.ms", "1000");
        p.setProperty("group.streams.min.heartbeat.interval.ms", "100");
        p.setProperty("group.streams.heartbeat.interval.ms", "250");
        p.setProperty("group.streams.initial.rebalance.delay.ms", "0");
        p.setProperty("num.network.threads", "2");
        p.setProperty("num.io.threads", "2");
        p.setProperty("background.threads", "2");
        p.setProperty("num.partitions", "1");
        // The cleaner's default 128 MB dedupe buffer would take half of a 256 MB heap; compaction of
        // a dev-sized weft.fabric topic needs far less.
        p.setProperty("log.cleaner.dedupe.buffer.size", String.valueOf(8 * 1024 * 1024));
        p.setProperty("log.cleaner.threads", "1");
        return p;
    }

    /** Formats the log directory unless a previous start did; returns the cluster id either way. */
    private static String formatIfNeeded(Path dataDir, Path logDir, Properties props, List<String> extraArguments)
            throws IOException {
        Path meta = logDir.resolve("meta.properties");
        if (Files.exists(meta)) {
            Properties existing = new Properties();
            try (InputStream in = Files.newInputStream(meta)) {
                existing.load(in);
            }
            String id = existing.getProperty("cluster.id");
            if (id == null || id.isBlank()) {
                throw new DevstackException("Kafka: " + meta + " has no cluster.id; delete "
                        + dataDir + " to start afresh");
            }
            return id;
        }
        String clusterId = Uuid.randomUuid().toString();
        Path configFile = dataDir.resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(configFile)) {
            props.store(out, "written by weft devstack for kafka-storage format; regenerated on every start");
        }
        // With the secure listener it holds the key store's and the super user's passwords.
        Files.setPosixFilePermissions(configFile, PosixFilePermissions.fromString("rw-------"));
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        int rc;
        try (PrintStream print = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            List<String> args = new ArrayList<>(List.of("format", "-t", clusterId, "-c", configFile.toString()));
            args.addAll(extraArguments);
            rc = StorageTool.execute(args.toArray(new String[0]), print);
        } catch (RuntimeException e) {
            throw new DevstackException("Kafka: formatting " + logDir + " failed: " + e.getMessage(), e);
        }
        if (rc != 0) {
            throw new DevstackException("Kafka: formatting " + logDir + " failed (" + rc + "): "
                    + output.toString(StandardCharsets.UTF_8).trim());
        }
        return clusterId;
    }

    private void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Properties props = adminClientProperties();
        props.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        props.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000");
        String lastError = "no answer";
        try (Admin admin = Admin.create(props)) {
            while (System.nanoTime() < deadline) {
                try {
                    if (!admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new DevstackException("Kafka: interrupted while waiting for the broker");
                } catch (Exception e) {
                    lastError = String.valueOf(e.getMessage());
                }
                sleep(200);
            }
        }
        throw new DevstackException("Kafka on " + bootstrapServers() + " not ready after "
                + timeout.toSeconds() + " s: " + lastError);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DevstackException("interrupted");
        }
    }
}
