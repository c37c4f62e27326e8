package io.weft.lab.experiment;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

import io.weft.lab.netns.NetnsLab;

/** Whether this machine can run the experiment, checked before anything is built. */
public final class HostCheck {
    private HostCheck() {
    }

    /**
     * Null when it can, else one line saying what is missing: what the lab needs (root, iproute2, SEG6,
     * nftables, ping, python3, the switch agent), plus iperf3 (the traffic), tc (the throttle) and Go
     * (the nic-agent and weft-telemetry are built here unless WEFT_NIC_AGENT / WEFT_TELEMETRY name them).
     */
    public static String problem() {
        String lab = NetnsLab.hostProblem();
        if (lab != null) {
            return lab;
        }
        if (onPath("iperf3") == null) {
            return "iperf3 is missing (apt-get install -y iperf3; the experiment's traffic is iperf3 UDP)";
        }
        if (onPath("tc") == null) {
            return "tc is missing (apt-get install -y iproute2; the throttle is a TBF qdisc)";
        }
        boolean prebuilt = executable(System.getenv(GoBinaries.NIC_AGENT_ENV))
                && executable(System.getenv(GoBinaries.TELEMETRY_ENV));
        if (!prebuilt && onPath("go") == null) {
            return "the Go toolchain (go) is not on PATH: the experiment builds the nic-agent and weft-telemetry"
                    + " (apt-get install -y golang-go, or set " + GoBinaries.NIC_AGENT_ENV + " and "
                    + GoBinaries.TELEMETRY_ENV + ")";
        }
        return null;
    }

    private static boolean executable(String f) {
        return f != null && !f.isBlank() && Files.isExecutable(Path.of(f));
    }

    static Path onPath(String exe) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(d, exe);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        for (String d : new String[] {"/usr/sbin", "/sbin", "/usr/bin"}) {
            Path p = Path.of(d, exe);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
