package io.weft.scheduler.api;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.weft.controller.standalone.ControllerOptions;
import io.weft.controller.standalone.StandaloneController;
import io.weft.devstack.DevstackEndpoints;
import org.springframework.util.FileSystemUtils;

/**
 * The real standalone controller in the test JVM, once, on the devstack's Kafka: it owns link states,
 * so the drain tests go through it and see its snapshots arrive on {@code weft.fabric}. Stopped
 * (its folder removed) when the JVM exits.
 */
public final class TestController {
    private static StandaloneController running;

    private TestController() {
    }

    /** The operator token scheduler-api forwards drains with; the controller knows it. */
    public static final String TOKEN = "sched-to-controller-0123456789";

    /** Starts the controller on the first call (planning the 2x2 example of {@link ApiTestSupport}); its HTTP port. */
    public static synchronized int port(DevstackEndpoints e) {
        Path fabric = ApiTestSupport.FABRIC;
        String tokens = "sched-api:operator=" + TOKEN;
        if (running == null) {
            Path dir; // the controller's fabric file and state, removed at exit
            try {
                dir = Files.createTempDirectory("weft-test-controller");
                Path file = dir.resolve("fabric.json");
                Files.copy(fabric, file);
                ControllerOptions o = new ControllerOptions(file, e.kafkaBootstrapServers(), "127.0.0.1", 0,
                        dir.resolve("state"), 200);
                running = StandaloneController.start(o, tokens, new PrintStream(new ByteArrayOutputStream()),
                        System.err);
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            } catch (Exception ex) {
                throw new IllegalStateException("the test controller did not start: " + ex.getMessage(), ex);
            }
            StandaloneController c = running;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                c.close();
                try {
                    FileSystemUtils.deleteRecursively(dir);
                } catch (IOException ex) {
                    System.err.println("test controller: cannot remove " + dir + ": " + ex);
                }
            }, "test-controller-stop"));
        }
        return running.httpPort();
    }
}
