package io.weft.lab.cli;

import io.weft.fabric.Fabric;
import io.weft.lab.fabric.FabricStats;

import java.io.PrintStream;

/** {@code validate <file>}: "ok: ..." and exit 0, or one line per problem on stderr and exit 2. */
final class ValidateCommand {
    static final String USAGE = "fabric validate <file>";

    private ValidateCommand() {
    }

    static int run(Args a, PrintStream out, PrintStream err) throws UsageException {
        a.expectPositional(1, USAGE);
        a.expectNoOptions(USAGE);
        Fabric f = FabricFiles.readValid(a.positional.get(0), err);
        if (f == null) {
            return 2;
        }
        FabricStats s = FabricStats.of(f);
        out.println("ok: " + f.id() + ": " + f.nodes().size() + " nodes (" + s.roleSummary() + "), "
                + f.links().size() + " links");
        return 0;
    }
}
