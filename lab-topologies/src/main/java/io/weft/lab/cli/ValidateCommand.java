package io.weft.lab.cli;

import java.io.PrintStream;

import io.weft.fabric.Fabric;
import io.weft.lab.fabric.FabricStats;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code validate <file>}: "ok: ..." and exit 0, or one line per problem on stderr and exit 2. */
@Command(name = "validate")
final class ValidateCommand implements Verb {
    static final String USAGE = "fabric validate <file>";

    @Parameters(index = "0", paramLabel = "file")
    private String file;

    @Override
    public int run(PrintStream out, PrintStream err) {
        Fabric f = FabricFiles.readValid(file, err);
        if (f == null) {
            return 2;
        }
        FabricStats s = FabricStats.of(f);
        out.println("ok: " + f.id() + ": " + f.nodes().size() + " nodes (" + s.roleSummary() + "), "
                + f.links().size() + " links");
        return 0;
    }
}
