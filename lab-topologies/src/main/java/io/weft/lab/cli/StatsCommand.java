package io.weft.lab.cli;

import io.weft.fabric.Fabric;
import io.weft.lab.fabric.FabricStats;

import java.io.PrintStream;

/** {@code stats <file>}: counts by role, switch radix and switch diameter. */
final class StatsCommand {
    static final String USAGE = "fabric stats <file>";

    private StatsCommand() {
    }

    static int run(Args a, PrintStream out, PrintStream err) throws UsageException {
        a.expectPositional(1, USAGE);
        a.expectNoOptions(USAGE);
        Fabric f = FabricFiles.readValid(a.positional.get(0), err);
        if (f == null) {
            return 2;
        }
        FabricStats s = FabricStats.of(f);
        out.println("fabric    " + f.id() + " (" + f.family() + ")");
        out.println("nodes     " + f.nodes().size() + ": " + s.roleSummary());
        out.println("links     " + f.links().size());
        out.println("radix     " + s.minRadix() + ".." + s.maxRadix() + " ports per switch (NIC ports included)");
        out.println("diameter  " + (s.diameter() < 0 ? "switch graph disconnected (separate planes?)"
                : s.diameter() + " switch-to-switch hops"));
        return 0;
    }
}
