package io.weft.devstack;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code ./weft demo}'s devstack process: starts Kafka and PostgreSQL, prints where they answer, writes
 * {@code <state-dir>/devstack.env} for other processes, then runs until SIGINT/SIGTERM and stops cleanly.
 */
public final class DevstackMain {
    static final String USAGE = String.join("\n",
            "usage: DevstackMain [--state-dir DIR] [--kafka-port N] [--postgres-port N]",
            "  --state-dir DIR      data of Kafka and PostgreSQL; reused by the next start (default .weft)",
            "  --kafka-port N       Kafka client port on 127.0.0.1 (default " + Devstack.DEFAULT_KAFKA_PORT + ", 0 = free)",
            "  --postgres-port N    PostgreSQL port on 127.0.0.1 (default " + Devstack.DEFAULT_POSTGRES_PORT + ", 0 = free)");

    private DevstackMain() {
    }

    public static void main(String[] args) {
        PrintStream out = System.out;
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("devstack: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        if (options.help) {
            out.println(USAGE);
            return;
        }
        Path logFile = options.stateDir.resolve("devstack.log");
        logToFile(logFile);

        AtomicReference<Devstack> running = new AtomicReference<>();
        CountDownLatch stopped = new CountDownLatch(1);
        Path envFile = options.stateDir.resolve("devstack.env");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            Devstack stack = running.getAndSet(null);
            if (stack != null) {
                out.println("devstack: stopping Kafka and PostgreSQL ...");
                try {
                    Files.deleteIfExists(envFile);
                    stack.close();
                    out.println("devstack: stopped");
                } catch (IOException | RuntimeException e) {
                    System.err.println("devstack: stop failed: " + e.getMessage());
                }
            }
            stopped.countDown();
        }, "weft-devstack-stop"));

        try {
            Devstack stack = Devstack.builder()
                    .stateDir(options.stateDir)
                    .kafkaPort(options.kafkaPort)
                    .postgresPort(options.postgresPort)
                    .progress(line -> out.println("devstack: " + line))
                    .start();
            running.set(stack);
            DevstackEndpoints e = stack.endpoints();
            e.writeEnvFile(envFile);
            out.println();
            out.println("  Kafka        " + e.kafkaBootstrapServers() + "   (bootstrap servers)");
            out.println("  PostgreSQL   " + e.jdbcUrl() + "   user " + e.jdbcUser() + ", password " + e.jdbcPassword());
            out.println("  state        " + options.stateDir.toAbsolutePath());
            out.println("  env file     " + envFile + "   (source it to reach the devstack from a shell)");
            out.println("  log          " + logFile);
            out.println();
        } catch (DevstackException | IOException e) {
            System.err.println("devstack: " + e.getMessage());
            Devstack stack = running.getAndSet(null);
            if (stack != null) {
                stack.close();
            }
            System.exit(1);
            return;
        }
        try {
            stopped.await(); // the shutdown hook releases it; until then the services run
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Broker and database chatter goes to a file, not the demo's terminal (slf4j-simple reads these
     * properties when the first logger is made, so this must run before anything logs).
     */
    private static void logToFile(Path logFile) {
        try {
            Files.createDirectories(logFile.toAbsolutePath().getParent());
        } catch (IOException e) {
            return; // slf4j-simple then logs to stderr, which is still better than nothing
        }
        System.setProperty("org.slf4j.simpleLogger.logFile", logFile.toString());
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "info");
        }
        System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
        System.setProperty("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSS");
    }

    /** Command-line options; rejects unknown flags and bad numbers naming the flag. */
    static final class Options {
        Path stateDir = Path.of(".weft");
        int kafkaPort = Devstack.DEFAULT_KAFKA_PORT;
        int postgresPort = Devstack.DEFAULT_POSTGRES_PORT;
        boolean help;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String flag = args[i];
                switch (flag) {
                    case "-h", "--help" -> o.help = true;
                    case "--state-dir" -> o.stateDir = Path.of(value(args, ++i, flag));
                    case "--kafka-port" -> o.kafkaPort = port(value(args, ++i, flag), flag);
                    case "--postgres-port" -> o.postgresPort = port(value(args, ++i, flag), flag);
                    default -> throw new IllegalArgumentException("unknown option '" + flag + "'");
                }
            }
            return o;
        }

        private static String value(String[] args, int i, String flag) {
            if (i >= args.length) {
                throw new IllegalArgumentException(flag + ": needs a value");
            }
            return args[i];
        }

        private static int port(String text, String flag) {
            try {
                int port = Integer.parseInt(text);
                if (port >= 0 && port <= 65535) {
                    return port;
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            throw new IllegalArgumentException(flag + ": must be a port number 0..65535, got '" + text + "'");
        }
    }
}
