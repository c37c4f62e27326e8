package io.weft.controller.standalone;

import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.weft.auth.KafkaClientSecurity;
import io.weft.auth.TokenStore;
import io.weft.southbound.gnmi.NettyChannels;
import io.weft.southbound.gnmi.Provisioner;
import io.weft.southbound.gnmi.ProvisionerConfig;
import picocli.CommandLine.ParameterException;

/**
 * The Weft controller without ONOS: {@code ./weft controller --fabric f.json [--kafka host:port]
 * [--http-port 8181]}. Plans the fabric file, publishes the snapshot to Kafka ({@code weft.fabric}) and
 * serves it at {@code GET /fabric}; polls the file and re-plans on every change. Switches with a {@code gnmi}
 * endpoint in the fabric file are configured over gNMI on every plan ({@code GET /devices}, {@code GET /metrics}). Link
 * states come from
 * {@code PUT /links/<id>/state} (drain) and, with Kafka, link-down/link-up events on {@code weft.hotspots}.
 *
 * <p>Exit codes: 0 after SIGINT/SIGTERM, 2 for a bad command line or an unusable fabric file at start,
 * 1 when Kafka or the HTTP port cannot be used.
 */
public final class StandaloneController implements AutoCloseable {
    private final ControllerOptions options;
    private final SnapshotKeeper controller;
    private final SnapshotSink sink;
    private final FabricHttpServer http;
    private final ScheduledExecutorService watcher;
    private final LinkEventListener hotspots; // null without Kafka
    private final DeviceProvisioning devices;

    private StandaloneController(ControllerOptions options, SnapshotKeeper controller, SnapshotSink sink,
                                 FabricHttpServer http, ScheduledExecutorService watcher, LinkEventListener hotspots,
                                 DeviceProvisioning devices) {
        this.devices = devices;
        this.options = options;
        this.controller = controller;
        this.sink = sink;
        this.http = http;
        this.watcher = watcher;
        this.hotspots = hotspots;
    }

    /**
     * Plans, publishes the first snapshot, then serves and watches.
     *
     * @throws FabricFileException the fabric file cannot be used (exit 2)
     * @throws StartException      Kafka or the HTTP port cannot be used (exit 1)
     */
    static StandaloneController start(ControllerOptions options, PrintStream out, PrintStream err)
            throws FabricFileException, StartException {
        return start(options, null, out, err);
    }

    /**
     * @param inlineTokens bearer tokens in the WEFT_TOKENS format, merged with the options' tokens file; null for none
     */
    public static StandaloneController start(ControllerOptions options, String inlineTokens, PrintStream out,
                                             PrintStream err) throws FabricFileException, StartException {
        TokenStore tokens;
        try {
            tokens = TokenStore.of(inlineTokens, options.tokensFile());
        } catch (IllegalArgumentException e) {
            throw new FabricFileException("tokens: " + e.getMessage());
        }
        javax.net.ssl.SSLContext tls;
        try {
            tls = options.tls() == null ? null : TlsContexts.serverContext(options.tls());
        } catch (IllegalArgumentException e) {
            throw new StartException(e.getMessage());
        }
        KafkaClientSecurity kafkaLogin;
        try {
            // Principal weft-controller of contracts/topics.json: WEFT_KAFKA_* from the environment.
            kafkaLogin = KafkaClientSecurity.fromEnvironment();
        } catch (IllegalArgumentException e) {
            throw new StartException(e.getMessage());
        }
        KafkaSnapshotSink kafka = null;
        if (options.kafkaBootstrap() != null) {
            kafka = new KafkaSnapshotSink(options.kafkaBootstrap(), kafkaLogin);
            try {
                kafka.ensureTopic();
            } catch (Exception e) {
                kafka.close();
                throw new StartException("Kafka at " + options.kafkaBootstrap() + " is not usable: " + rootMessage(e));
            }
        }
        DeviceProvisioning devices = new DeviceProvisioning(
                new Provisioner(new ProvisionerConfig(ProvisionerConfig.DEFAULT_MAX_IN_FLIGHT, options.gnmiTimeoutMs(),
                        ProvisionerConfig.DEFAULT_BACKOFF_INITIAL_MS, ProvisionerConfig.DEFAULT_BACKOFF_MAX_MS,
                        options.gnmiResyncMs()), new NettyChannels(), line -> err.println("controller: " + line)),
                System::getenv, line -> err.println("controller: " + line));
        SnapshotKeeper controller = new SnapshotKeeper(options.fabricFile(), new SnapshotStore(options.stateDir()),
                kafka, line -> out.println("controller: " + line), line -> err.println("controller: " + line), devices);
        FileWatcher files = new FileWatcher(options.fabricFile());
        // The port first: a controller that cannot serve must not publish a version before it exits.
        FabricHttpServer http;
        try {
            http = new FabricHttpServer(options.httpHost(), options.httpPort(), controller, devices, tokens,
                    options.reads(), tls);
        } catch (IOException e) {
            devices.close();
            closeSink(kafka);
            throw new StartException("HTTP port " + options.httpHost() + ":" + options.httpPort() + " is not usable: "
                    + e.getMessage());
        }
        try {
            controller.start();
        } catch (FabricFileException | RuntimeException e) {
            http.close();
            devices.close();
            closeSink(kafka);
            throw e;
        }
        // After the fabric loaded: a controller that cannot start says so in one line, nothing else.
        if (tokens.size() == 0) {
            err.println("controller: no bearer tokens (WEFT_TOKENS, --tokens-file): PUT /links/<id>/state is refused");
        }
        ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "weft-fabric-watch");
            t.setDaemon(true);
            return t;
        });
        watcher.scheduleWithFixedDelay(() -> {
            // Each tick catches everything: an exception would cancel all later ticks silently.
            try {
                if (files.changed()) {
                    controller.onFileChanged();
                } else {
                    controller.retryPublish();
                }
            } catch (RuntimeException e) {
                err.println("controller: watcher: " + e);
            }
        }, options.pollMs(), options.pollMs(), TimeUnit.MILLISECONDS);
        LinkEventListener hotspots = kafka == null ? null
                : new LinkEventListener(options.kafkaBootstrap(), kafkaLogin, controller.current().fabricId(),
                        controller, line -> err.println("controller: " + line)).start();
        return new StandaloneController(options, controller, kafka, http, watcher, hotspots, devices);
    }

    public int httpPort() {
        return http.port();
    }

    SnapshotKeeper controller() {
        return controller;
    }

    String describe() {
        return "serving " + (options.tls() == null ? "http" : "https") + "://" + options.httpHost() + ":" + httpPort()
                + "/fabric (and /healthz, /devices, /metrics; "
                + "reads " + options.reads().jsonName() + ", writes need an operator token), "
                + (sink == null ? "no Kafka (HTTP only)" : "publishing to " + sink.describe()
                        + ", link-down/up from " + LinkEventListener.TOPIC)
                + ", watching " + options.fabricFile();
    }

    /** Stops watching, serving and publishing; waits for a re-plan in progress to finish. */
    @Override
    public void close() {
        if (hotspots != null) {
            hotspots.close();
        }
        watcher.shutdown();
        try {
            watcher.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        http.close();
        devices.close();
        closeSink(sink);
    }

    public static void main(String[] args) {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            // Kafka client INFO lines (configs, connections) would drown the controller's own output.
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        ControllerOptions options;
        try {
            options = ControllerOptions.parse(args, System.getenv("WEFT_KAFKA_BOOTSTRAP"));
        } catch (ParameterException | IllegalArgumentException e) {
            System.err.println("controller: " + e.getMessage() + " (see --help)");
            System.exit(2);
            return;
        }
        if (options == null) {
            System.out.print(ControllerOptions.usage());
            return;
        }
        StandaloneController running;
        try {
            running = start(options, System.getenv("WEFT_TOKENS"), System.out, System.err);
        } catch (FabricFileException e) {
            System.err.println("controller: " + e.getMessage());
            System.exit(2);
            return;
        } catch (StartException e) {
            System.err.println("controller: " + e.getMessage());
            System.exit(1);
            return;
        }
        System.out.println("controller: " + running.describe());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            running.close();
            System.out.println("controller: stopped");
        }, "weft-controller-stop"));
        // main returns; the non-daemon HTTP dispatcher thread keeps the process alive until a signal.
    }

    private static void closeSink(SnapshotSink sink) {
        if (sink != null) {
            sink.close();
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }

    /** Kafka or the HTTP port cannot be used; the message is one line. */
    static final class StartException extends Exception {
        private static final long serialVersionUID = 1L;

        StartException(String message) {
            super(message);
        }
    }
}
