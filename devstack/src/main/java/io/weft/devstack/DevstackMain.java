package io.weft.devstack;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code ./weft demo}'s devstack process: starts Kafka and PostgreSQL, prints where they answer, writes
 * {@code <state-dir>/devstack.env} for other processes, then runs until SIGINT/SIGTERM and stops cleanly.
 */
public final class DevstackMain {
    private DevstackMain() {
    }

    public static void main(String[] args) {
        PrintStream out = System.out;
        Options options;
        try {
            options = Options.parse(args);
        } catch (ParameterException | IllegalArgumentException e) {
            System.err.println("devstack: " + e.getMessage() + " (see --help)");
            System.exit(2);
            return;
        }
        if (options.help) {
            out.print(new CommandLine(new Options()).getUsageMessage(CommandLine.Help.Ansi.OFF));
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
                    .kafkaSecure(options.kafkaSecure)
                    .progress(line -> out.println("devstack: " + line))
                    .start();
            running.set(stack);
            DevstackEndpoints e = stack.endpoints();
            Map<String, String> kafkaLogin = stack.kafka().secureListener().map(KafkaSecureListener::sharedEnv)
                    .orElse(Map.of());
            e.writeEnvFile(envFile, kafkaLogin);
            out.println();
            out.println("  Kafka        " + e.kafkaBootstrapServers() + "   (bootstrap servers"
                    + (kafkaLogin.isEmpty() ? ", plaintext)" : "; SASL_SSL, a SCRAM user per service, passwords in "
                            + kafkaLogin.get("WEFT_KAFKA_CREDENTIALS_DIR") + ")"));
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

    /** Command-line options; unknown flags and bad numbers are rejected naming the flag. */
    @Command(name = "devstack", sortOptions = false,
            description = "Kafka (KRaft) and PostgreSQL in-process on 127.0.0.1, for the demo and the tests.")
    static final class Options {
        @Option(names = "--state-dir", paramLabel = "DIR",
                description = "data of Kafka and PostgreSQL; reused by the next start (default ${DEFAULT-VALUE})")
        Path stateDir = Path.of(".weft");

        @Option(names = "--kafka-port", paramLabel = "N",
                description = "Kafka client port on 127.0.0.1 (default ${DEFAULT-VALUE}, 0 = free)")
        int kafkaPort = Devstack.DEFAULT_KAFKA_PORT;

        @Option(names = "--postgres-port", paramLabel = "N",
                description = "PostgreSQL port on 127.0.0.1 (default ${DEFAULT-VALUE}, 0 = free)")
        int postgresPort = Devstack.DEFAULT_POSTGRES_PORT;

        @Option(names = "--kafka-secure",
                description = "Kafka's listener speaks SASL/SCRAM over TLS with the ACLs of contracts/topics.json"
                        + " (data in <state-dir>/kafka-secure)")
        boolean kafkaSecure;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
        boolean help;

        static Options parse(String[] args) {
            Options o = new Options();
            new CommandLine(o).setOverwrittenOptionsAllowed(true).parseArgs(args); // a later flag wins
            port(o.kafkaPort, "--kafka-port");
            port(o.postgresPort, "--postgres-port");
            return o;
        }

        private static void port(int port, String flag) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException(flag + ": must be a port number 0..65535, got '" + port + "'");
            }
        }
    }
}
