package io.weft.controller.standalone;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;

import io.weft.auth.ReadAccess;

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

    static final String USAGE = String.join("\n",
            "usage: ./weft controller --fabric FILE [--kafka HOST:PORT] [--http-port N] [--http-host ADDR]",
            "                         [--state-dir DIR] [--poll-ms N] [--gnmi-timeout-ms N] [--gnmi-resync-ms N]",
            "  --fabric FILE      fabric file (contracts/fabric.schema.json); re-planned whenever it changes",
            "  --kafka HOST:PORT  publish snapshots to topic weft.fabric (default: $WEFT_KAFKA_BOOTSTRAP;",
            "                     none = HTTP only)",
            "  --http-port N      port of GET /fabric and GET /healthz (default " + DEFAULT_HTTP_PORT + ", 0 = free)",
            "  --http-host ADDR   address to listen on (default 127.0.0.1)",
            "  --state-dir DIR    keeps the last snapshot so ids and versions survive restarts (default .weft)",
            "  --poll-ms N        how often the file is checked for changes (default " + DEFAULT_POLL_MS + ")",
            "  --gnmi-timeout-ms N  deadline of each gNMI call to a switch (default " + DEFAULT_GNMI_TIMEOUT_MS + ")",
            "  --gnmi-resync-ms N   every switch is read back this often; drift is re-pushed (default "
                    + DEFAULT_GNMI_RESYNC_MS + ")",
            "  --tokens-file F    bearer tokens (contracts/auth.md), merged with $WEFT_TOKENS",
            "  --reads open|token whether GET /fabric and /devices need a token (default: open on a loopback",
            "                     --http-host, token otherwise)",
            "  --tls-keystore F   serve HTTPS with this PKCS#12 key store (default: plain HTTP)",
            "  --tls-keystore-password-file F   the key store's password (required with --tls-keystore)",
            "HTTP: GET /fabric (the snapshot), GET /healthz, GET /devices, GET /metrics,",
            "      PUT /links/<id>/state {\"state\":\"drained\"|\"up\"} (an operator token; none configured: refused).",
            "Switches with a \"gnmi\" object in the fabric file are configured over gNMI on every plan.",
            "With Kafka, link-down/link-up events on weft.hotspots set links down and up again.");

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
            throw new IllegalArgumentException("--kafka: must be host:port[,host:port...], got '" + kafkaBootstrap + "'");
        }
    }

    /** Parses the command line; {@code envKafka} (WEFT_KAFKA_BOOTSTRAP) is the Kafka default. Null means --help. */
    static ControllerOptions parse(String[] args, String envKafka) {
        Path fabric = null;
        String kafka = envKafka == null || envKafka.isBlank() ? null : envKafka.trim();
        String host = "127.0.0.1";
        int port = DEFAULT_HTTP_PORT;
        Path state = Path.of(".weft");
        long pollMs = DEFAULT_POLL_MS;
        long gnmiTimeoutMs = DEFAULT_GNMI_TIMEOUT_MS;
        long gnmiResyncMs = DEFAULT_GNMI_RESYNC_MS;
        Path tokensFile = null;
        ReadAccess reads = null;
        Path tlsKeyStore = null;
        Path tlsPassword = null;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            switch (flag) {
                case "-h", "--help" -> {
                    return null;
                }
                case "--fabric" -> fabric = Path.of(value(args, ++i, flag));
                case "--kafka" -> kafka = value(args, ++i, flag);
                case "--http-host" -> host = value(args, ++i, flag);
                case "--http-port" -> port = (int) number(value(args, ++i, flag), flag);
                case "--state-dir" -> state = Path.of(value(args, ++i, flag));
                case "--poll-ms" -> pollMs = number(value(args, ++i, flag), flag);
                case "--gnmi-timeout-ms" -> gnmiTimeoutMs = number(value(args, ++i, flag), flag);
                case "--gnmi-resync-ms" -> gnmiResyncMs = number(value(args, ++i, flag), flag);
                case "--tokens-file" -> tokensFile = Path.of(value(args, ++i, flag));
                case "--reads" -> reads = ReadAccess.parse(value(args, ++i, flag));
                case "--tls-keystore" -> tlsKeyStore = Path.of(value(args, ++i, flag));
                case "--tls-keystore-password-file" -> tlsPassword = Path.of(value(args, ++i, flag));
                default -> throw new IllegalArgumentException("unknown option '" + flag + "'");
            }
        }
        Tls tls = tlsKeyStore == null && tlsPassword == null ? null : new Tls(tlsKeyStore, tlsPassword);
        return new ControllerOptions(fabric, kafka, host, port, state, pollMs, gnmiTimeoutMs, gnmiResyncMs, tokensFile,
                reads, tls);
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

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new IllegalArgumentException(flag + ": needs a value");
        }
        return args[i];
    }

    private static long number(String text, String flag) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + ": must be a whole number, got '" + text + "'");
        }
    }
}
