package io.weft.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import io.weft.lab.netns.NetnsLab;
import io.weft.lab.netns.Shell;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The reroute experiment's CI variant on the kernel's real data plane: 2x2 lab, every service and
 * agent real, 10 s of iperf3 UDP per run, the throttle at 3 s, loop off then on. Asserts what the
 * loop must achieve whatever the machine's load: the loop-on run delivers more than 1.15 x the
 * loop-off run, the hit flow moved off the throttled link (and did not with the loop off), and the
 * job's other flow kept its path in both runs. Timings are printed, never asserted (shared machine).
 */
@Tag("lab")
class RerouteExperimentLabTest {
    /** This JVM's lab tag: two runs at once (CI and a developer) never share namespaces. */
    private static final String TAG = "ci" + Long.toString(ProcessHandle.current().pid() % (36L * 36 * 36), 36);

    @Test
    void theLoopMovesTheThrottledFlowAndDeliversMore() throws Exception {
        String problem = HostCheck.problem();
        if (problem != null) {
            if ("true".equals(System.getenv("CI"))) {
                fail("reroute lab test cannot run under CI=true: " + problem);
            }
            assumeTrue(false, () -> "reroute lab test skipped: " + problem);
        }
        Path root = Path.of(System.getProperty("weft.root", "../..")).toAbsolutePath().normalize();
        Path out = Path.of("target", "reroute-ci").toAbsolutePath();
        LabStack.deleteTree(out);
        Files.createDirectories(out);
        ExperimentOptions o = ExperimentOptions.ci(out, TAG);
        RerouteExperiment.Report report;
        try (LabStack stack = new LabStack(o, root, line -> System.out.println("reroute ci: " + line))) {
            try {
                stack.start();
                report = new RerouteExperiment(stack, line -> { }).run();
            } catch (Exception | AssertionError e) {
                throw new AssertionError(e.getMessage() + "\n" + stack.tails(40), e);
            }
        }
        assertThat(NetnsLab.namespaces(new Shell())).as("namespaces left behind")
                .noneMatch(ns -> ns.startsWith("wl-" + TAG + "-"));
        System.out.print(RerouteExperiment.text(report));
        ThroughputPlot.write(report.plotted(), o.fault(), o.throttleAtS(), out.resolve("reroute.png"));

        RunResult off = report.run("loop-off");
        RunResult on = report.run("loop-on");
        assertThat(off.hitFlowMoved()).as("with the loop off nothing moves the hit flow").isFalse();
        assertThat(on.hitFlowMoved()).as("with the loop on the hit flow moves").isTrue();
        assertThat(on.endsOnThrottledLink()).as("the hit flow ends off %s", on.throttleLink()).isFalse();
        assertThat(on.affected()).as("flows crossing the throttled direction").containsExactly(on.hitFlow());
        assertThat(on.untouched()).isEqualTo(1);
        assertThat(on.untouchedMoved() + off.untouchedMoved()).as("the job's other flow kept its path").isZero();
        assertThat(on.stagesMs()).as("timing chain").containsKeys("hotspot", "committed", "route installed");
        assertThat(report.ratio()).as("delivered loop-on / loop-off").isGreaterThan(1.15);
    }
}
