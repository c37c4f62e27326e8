package io.weft.controller.standalone;

import java.nio.file.Path;

/**
 * What {@code ./weft controller} was asked to do.
 *
 * @param fabricFile     the fabric file to plan and watch
 * @param kafkaBootstrap Kafka bootstrap servers, or null to serve over HTTP only
 * @param httpHost       address the HTTP server binds (loopback by default)
 * @param httpPort       HTTP port (0 = any free port)
 * @param stateDir       where the last published snapshot is kept between runs
 * @param pollMs         how often the fabric file's modification time and size are checked
 */
public record ControllerOptions(Path fabricFile, String kafkaBootstrap, String httpHost, int httpPort, Path stateDir,
                                long pollMs) {
    public static final int DEFAULT_HTTP_PORT = 8181;
    public static final long DEFAULT_POLL_MS = 1000;

    static final String USAGE = String.join("\n",
            "usage: ./weft controller --fabric FILE [--kafka HOST:PORT] [--http-port N] [--http-host ADDR]",
            "                         [--state-dir DIR] [--poll-ms N]",
            "  --fabric FILE      fabric file (contracts/fabric.schema.json); re-planned whenever it changes",
            "  --kafka HOST:PORT  publish snapshots to topic weft.fabric (default: $WEFT_KAFKA_BOOTSTRAP;",
            "                     none = HTTP only)",
            "  --http-port N      port of GET /fabric and GET /healthz (default " + DEFAULT_HTTP_PORT + ", 0 = free)",
            "  --http-host ADDR   address to listen on (default 127.0.0.1)",
            "  --state-dir DIR    keeps the last snapshot so ids and versions survive restarts (default .weft)",
            "  --poll-ms N        how often the file is checked for changes (default " + DEFAULT_POLL_MS + ")",
            "HTTP: GET /fabric (the snapshot), GET /healthz, GET /devices, GET /metrics,",
            "      PUT /links/<id>/state {\"state\":\"drained\"|\"up\"}.",
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
                default -> throw new IllegalArgumentException("unknown option '" + flag + "'");
            }
        }
        return new ControllerOptions(fabric, kafka, host, port, state, pollMs);
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
