package io.weft.lab.cli;

import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.lab.fabric.FabricGenerators;

import java.io.PrintStream;

/** {@code generate <family> [--param value ...] [-o file]}: a fabric file from a generator. */
final class GenerateCommand {
    static final String USAGE = "fabric generate <" + String.join("|", FabricGenerators.FAMILIES)
            + "> [--param value ...] [-o file]";

    private GenerateCommand() {
    }

    static int run(Args a, PrintStream out) throws UsageException {
        a.expectPositional(1, USAGE);
        Fabric f;
        try {
            f = FabricGenerators.generate(a.positional.get(0), a.options);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        FabricFiles.write(FabricJson.write(f), a.output, out);
        return 0;
    }
}
