package io.weft.controller.standalone;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;

import io.weft.auth.ReadAccess;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * What {@code ./weft controller} was asked to do.
 *
 * @param fabricFile     the fabric file to plan and watch
 * @param kafkaBootstrap Kafka bootstrap servers, or null to serve over HTTP only
 * @param httpHost       address the HTTP server binds (loopback by default)
 * @param httpPort       HTTP port (0 = any free port)
 * @param stateDir       where the last published snapshot is kept between runs
 * @param pollMs         how often the fabric file's modification time and size are checked
 * @param gnmiTimeoutMs  deadline of every gNMI RPC to a switch
 * @param gnmiResyncMs   how often every gNMI switch is read back (a restarted switch is re-pushed)
 * @param tokensFile     a tokens file (contracts/auth.md) merged with $WEFT_TOKENS, or null
 * @param reads          whether GET /fabric and /devices need a token; null: open on a loopback address,
 *                       else token
 * @param tls            serve HTTPS with this PKCS#12 key store and the password in a file; null: plain HTTP
 */
public record ControllerOptions(Path fabricFile, String kafkaBootstrap, String httpHost, int httpPort, Path stateDir,
                                long pollMs, long gnmiTimeoutMs, long gnmiResyncMs, Path tokensFile,
                                ReadAccess reads, Tls tls) {
    /** A PKCS#12 key store (certificate chain + key) and the file holding its password. */
    public record Tls(Path keyStore, Path passwordFile) {
    }

    /** Plain HTTP. */
    public ControllerOptions(Path fabricFile, String kafkaBootstrap, String httpHost, int httpPort, Path stateDir,
                             long pollMs, long gnmiTimeoutMs, long gnmiResyncMs, Path tokensFile, ReadAccess reads) {
        this(fabricFile, kafkaBootstrap, httpHost, httpPort, stateDir, pollMs, gnmiTimeoutMs, gnmiResyncMs, tokensFile,
                reads, null);
    }

    public static final int DEFAULT_HTTP_PORT = 8181;
    public static final long DEFAULT_POLL_MS = 1000;
    public static final long DEFAULT_GNMI_TIMEOUT_MS = 5000;
    public static final long DEFAULT_GNMI_RESYNC_MS = 30_000;

    /** No tokens file; reads by address. */
    public ControllerOptions(Path fabricFile, String kafkaBootstrap, String httpHost, int httpPort, Path stateDir,
                             long pollMs, long gnmiTimeoutMs, long gnmiResyncMs) {
        this(fabricFile, kafkaBootstrap, httpHost, httpPort, stateDir, pollMs, gnmiTimeoutMs, gnmiResyncMs, null, null,
                null);
    }

    /** Default gNMI timings. */
    public ControllerOptions(Path fabricFile, String kafkaBootstrap, String httpHost, int httpPort, Path stateDir,
                             long pollMs) {
        this(fabricFile, kafkaBootstrap, httpHost, httpPort, stateDir, pollMs, DEFAULT_GNMI_TIMEOUT_MS,
                DEFAULT_GNMI_RESYNC_MS);
    }

    public ControllerOptions {
        if (fabricFile == null) {
            throw new IllegalArgumentException("--fabric: required");
        }
        if (httpPort < 0 || httpPort > 65535) {
            throw new IllegalArgumentException("--http-port: must be 0..65535, got " + httpPort);
        }
        if (pollMs < 10) {
            throw new IllegalArgumentException("--poll-ms: must be >= 10, got " + pollMs);
        }
        if (gnmiTimeoutMs < 1) {
            throw new IllegalArgumentException("--gnmi-timeout-ms: must be >= 1, got " + gnmiTimeoutMs);
        }
        if (gnmiResyncMs < 100) {
            throw new IllegalArgumentException("--gnmi-resync-ms: must be >= 100, got " + gnmiResyncMs);
        }
        if (tls != null && (tls.keyStore() == null || tls.passwordFile() == null)) {
            throw new IllegalArgumentException("--tls-keystore and --tls-keystore-password-file go together");
        }
        if (reads == null) {
            reads = isLoopback(httpHost) ? ReadAccess.OPEN : ReadAccess.TOKEN;
        }
        if (kafkaBootstrap != null && !kafkaBootstrap.matches("[^\\s,:]+:\\d{1,5}(,[^\\s,:]+:\\d{1,5})*")) {
            throw new IllegalArgumentException("--kafka: must be host:port[,host:port...], got '" + kafkaBootstrap
                    + "'");
        }
    }

    /** Parses the command line; {@code envKafka} (WEFT_KAFKA_BOOTSTRAP) is the Kafka default. Null means --help. */
    static ControllerOptions parse(String[] args, String envKafka) {
        Flags f = new Flags();
        // A later flag wins: ./weft controller passes --state-dir before the caller's own flags.
        CommandLine line = new CommandLine(f).setOverwrittenOptionsAllowed(true);
        line.parseArgs(args);
        if (line.isUsageHelpRequested()) {
            return null;
        }
        String kafka = f.kafka != null ? f.kafka : envKafka == null || envKafka.isBlank() ? null : envKafka.trim();
        ReadAccess reads = f.reads == null ? null : ReadAccess.parse(f.reads);
        Tls tls = f.tlsKeyStore == null && f.tlsPassword == null ? null : new Tls(f.tlsKeyStore, f.tlsPassword);
        return new ControllerOptions(f.fabric, kafka, f.httpHost, f.httpPort, f.stateDir, f.pollMs, f.gnmiTimeoutMs,
                f.gnmiResyncMs, f.tokensFile, reads, tls);
    }

    /** Literal loopback addresses and localhost; no lookup of other names (they may resolve anywhere). */
    static boolean isLoopback(String host) {
        if (host == null || host.equals("localhost")) {
            return true;
        }
        if (!host.matches("[0-9.]+|[0-9a-fA-F:]+")) {
            return false;
        }
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** The help text of {@code ./weft controller --help}. */
    static String usage() {
        return new CommandLine(new Flags()).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    /** The flags as picocli binds them; the record's constructor checks their values. */
    @Command(name = "./weft controller", sortOptions = false, usageHelpWidth = 110,
            description = "The standalone controller: plans a fabric file, publishes it, serves it over HTTP.",
            footer = {
                "HTTP: GET /fabric (the snapshot), GET /healthz, GET /devices, GET /metrics,",
                "      PUT /links/<id>/state {\"state\":\"drained\"|\"up\"} (an operator token; none configured: "
                        + "refused).",
                "Switches with a \"gnmi\" object in the fabric file are configured over gNMI on every plan.",
                "With Kafka, link-down/link-up events on weft.hotspots set links down and up again."})
    static final class Flags {
        @Option(names = "--fabric", required = true, paramLabel = "FILE",
                description = "fabric file (contracts/fabric.schema.json); re-planned whenever it changes")
        Path fabric;

        @Option(names = "--kafka", paramLabel = "HOST:PORT",
                description = "publish snapshots to topic weft.fabric "
                        + "(default: $WEFT_KAFKA_BOOTSTRAP; none = HTTP only)")
        String kafka;

        @Option(names = "--http-port", paramLabel = "N", defaultValue = "" + DEFAULT_HTTP_PORT,
                description = "port of GET /fabric and GET /healthz (default ${DEFAULT-VALUE}, 0 = free)")
        int httpPort;

        @Option(names = "--http-host", paramLabel = "ADDR", defaultValue = "127.0.0.1",
                description = "address to listen on (default ${DEFAULT-VALUE})")
        String httpHost;

        @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = ".weft",
                description = "keeps the last snapshot so ids and versions survive restarts (default ${DEFAULT-VALUE})")
        Path stateDir;

        @Option(names = "--poll-ms", paramLabel = "N", defaultValue = "" + DEFAULT_POLL_MS,
                description = "how often the file is checked for changes (default ${DEFAULT-VALUE})")
        long pollMs;

        @Option(names = "--gnmi-timeout-ms", paramLabel = "N", defaultValue = "" + DEFAULT_GNMI_TIMEOUT_MS,
                description = "deadline of each gNMI call to a switch (default ${DEFAULT-VALUE})")
        long gnmiTimeoutMs;

        @Option(names = "--gnmi-resync-ms", paramLabel = "N", defaultValue = "" + DEFAULT_GNMI_RESYNC_MS,
                description = "every switch is read back this often; drift is re-pushed (default ${DEFAULT-VALUE})")
        long gnmiResyncMs;

        @Option(names = "--tokens-file", paramLabel = "F",
                description = "bearer tokens (contracts/auth.md), merged with $WEFT_TOKENS")
        Path tokensFile;

        @Option(names = "--reads", paramLabel = "open|token",
                description = "whether GET /fabric and /devices need a token (default: open on a loopback "
                        + "--http-host, token otherwise)")
        String reads;

        @Option(names = "--tls-keystore", paramLabel = "F",
                description = "serve HTTPS with this PKCS#12 key store (default: plain HTTP)")
        Path tlsKeyStore;

        @Option(names = "--tls-keystore-password-file", paramLabel = "F",
                description = "the key store's password (required with --tls-keystore)")
        Path tlsPassword;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
        boolean help;
    }
}
