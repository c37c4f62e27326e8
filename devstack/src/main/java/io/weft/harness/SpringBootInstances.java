package io.weft.harness;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs one Spring Boot application several times in one JVM, each instance with its own arguments,
 * all started at once: {@code <application-class> <args of the first> -- <args of the second> ...}.
 * The instances share the JVM's loaded classes and its compiled code, so on a busy 2-core machine two
 * of them start in little more than the time of one (two JVMs each load and compile everything).
 * Each instance is configured by its arguments only: properties, or the environment variable names
 * an {@code application.yml} reads ({@code --WEFT_SCHEDULER_PORT=...}), which Spring resolves from the
 * arguments first. Needs Spring Boot on the classpath; uses it by reflection so that this module does
 * not depend on it. Exits 1 when an instance fails to start.
 */
public final class SpringBootInstances {
    private SpringBootInstances() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: SpringBootInstances <application-class> [args] [-- args]...");
            System.exit(2);
        }
        Class<?> app = Class.forName(args[0]);
        Class<?> spring = Class.forName("org.springframework.boot.SpringApplication");
        var run = spring.getMethod("run", Class.class, String[].class);
        List<String[]> instances = split(Arrays.asList(args).subList(1, args.length));
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < instances.size(); i++) {
            String[] own = instances.get(i);
            Thread t = new Thread(() -> {
                try {
                    run.invoke(null, app, (Object) own);
                } catch (IllegalAccessException | InvocationTargetException e) {
                    Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
                    System.err.println("instance " + String.join(" ", own) + " failed to start: " + cause);
                    cause.printStackTrace();
                    System.exit(1);
                }
            }, "instance-" + (i + 1));
            threads.add(t);
            t.start();
            if (i == 0 && instances.size() > 1) {
                awaitLoggingInitialised();
            }
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    /**
     * Waits (at most a minute) until the first instance has set up logging: instances that set it up
     * at the same moment each add their appenders, and every line is then written twice. Spring Boot
     * marks Logback's context once it configured it; later instances see the mark and leave it be.
     */
    private static void awaitLoggingInitialised() throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        try {
            Object context = Class.forName("org.slf4j.LoggerFactory").getMethod("getILoggerFactory").invoke(null);
            var getObject = context.getClass().getMethod("getObject", String.class);
            while (getObject.invoke(context, "org.springframework.boot.logging.LoggingSystem") == null
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        } catch (ReflectiveOperationException notLogback) {
            // Not Logback: nothing to wait for.
        }
    }

    static List<String[]> split(List<String> args) {
        List<String[]> out = new ArrayList<>();
        List<String> current = new ArrayList<>();
        for (String a : args) {
            if (a.equals("--")) {
                out.add(current.toArray(String[]::new));
                current = new ArrayList<>();
            } else {
                current.add(a);
            }
        }
        out.add(current.toArray(String[]::new));
        return out;
    }
}
