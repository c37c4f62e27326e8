package io.weft.lab.cli;

import java.io.PrintStream;

import io.weft.fabric.Fabric;
import io.weft.lab.fabric.FabricStats;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code stats <file>}: counts by role, switch radix and switch diameter. */
@Command(name = "stats")
final class StatsCommand implements Verb {
    static final String USAGE = "fabric stats <file>";

    @Parameters(index = "0", paramLabel = "file")
    private String file;

    @Override
    public int run(PrintStream out, PrintStream err) {
        Fabric f = FabricFiles.readValid(file, err);
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
