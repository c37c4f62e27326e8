package io.weft.scheduler.recovery;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The child services and NIC agents one recovery test starts: stopped after the test class (a JUnit
 * extension: register it with {@code @RegisterExtension}), and on a failure each service's log tail
 * and each agent's state printed before the failure is rethrown.
 */
final class RecoveryChildren implements AfterAllCallback {
    final List<ServiceProcess> services = new CopyOnWriteArrayList<>();
    final List<Agent> agents = new CopyOnWriteArrayList<>();

    /** The test's body, given the (emptied) service logs. */
    interface Body {
        void run(Path[] logs) throws Exception;
    }

    /**
     * Empties {@code target/<name>} for each log name and runs {@code body}; on a failure prints what
     * the children left, then rethrows.
     */
    void run(Body body, String... logNames) throws Exception {
        Path target = ServiceProcess.targetDir();
        Path[] logs = new Path[logNames.length];
        for (int i = 0; i < logNames.length; i++) {
            logs[i] = target.resolve(logNames[i]);
            Files.deleteIfExists(logs[i]);
        }
        try {
            body.run(logs);
        } catch (Throwable t) {
            for (ServiceProcess p : services) {
                System.err.println("---- last 60 lines of " + p.log() + " ----\n" + p.logTail(60));
            }
            agents.forEach(a -> System.err.println("agent " + a.nic() + ": " + a.received().size() + " profiles, "
                    + a.connectionErrors() + " connection errors, violations " + a.violations()));
            throw t;
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        stopAll();
    }

    /** Stops every agent, then SIGKILLs every service still running. */
    void stopAll() throws InterruptedException {
        agents.forEach(Agent::stop);
        for (ServiceProcess p : services) {
            p.close();
        }
    }
}
