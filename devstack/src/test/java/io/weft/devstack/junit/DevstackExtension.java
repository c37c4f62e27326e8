package io.weft.devstack.junit;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

import io.weft.devstack.Devstack;
import io.weft.devstack.DevstackEndpoints;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Shares ONE devstack (Kafka + PostgreSQL on free loopback ports, data in a temporary directory) among
 * all test classes of a JVM. It starts lazily on first use and stops when the test plan ends (JUnit
 * root store) or, when only {@link #endpoints()} was used, when the JVM exits. The topic catalogue of
 * the weft-contracts jar is created.
 */
public final class DevstackExtension implements BeforeAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(DevstackExtension.class);

    private static Devstack devstack;
    private static Path stateDir;
    private static int starts;
    private static boolean hookRegistered;

    /** The shared devstack's endpoints; starts it if nobody has yet. */
    public static synchronized DevstackEndpoints endpoints() {
        if (devstack == null) {
            start();
        }
        return devstack.endpoints();
    }

    /** How many times this JVM started a devstack (1 when every class shared it). */
    public static synchronized int startCount() {
        return starts;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        endpoints();
        // Stop at the end of the whole test plan, not of this class: later classes reuse it.
        context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Stopper.class, k -> new Stopper(), Stopper.class);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == DevstackEndpoints.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return endpoints();
    }

    private static void start() {
        try {
            stateDir = Files.createTempDirectory("weft-devstack-");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a temporary devstack directory: " + e.getMessage(), e);
        }
        devstack = Devstack.builder().stateDir(stateDir).kafkaPort(0).postgresPort(0)
                .postgresFromTemplate(true).start();
        starts++;
        if (!hookRegistered) {
            hookRegistered = true;
            Runtime.getRuntime().addShutdownHook(new Thread(DevstackExtension::stop, "weft-devstack-test-stop"));
        }
    }

    private static synchronized void stop() {
        if (devstack == null) {
            return;
        }
        try {
            devstack.close();
        } finally {
            devstack = null;
            deleteTree(stateDir);
        }
    }

    private static void deleteTree(Path root) {
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            System.err.println("devstack: could not delete " + root + ": " + e.getMessage());
        }
    }

    /** Stops the shared devstack when JUnit closes the root store at the end of the test plan. */
    private static final class Stopper implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            stop();
        }
    }
}
