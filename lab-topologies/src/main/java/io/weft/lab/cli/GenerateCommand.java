package io.weft.lab.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.lab.fabric.FabricGenerators;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Unmatched;

/**
 * {@code generate <family> [--param value ...] [-o file]}: a fabric file from a generator. Each family
 * has its own parameters (FabricCli's help lists them), so they are not picocli options: picocli leaves
 * them unmatched, {@link Args#params} reads them and the generator checks them.
 */
@Command(name = "generate")
final class GenerateCommand implements Verb {
    static final String USAGE = "fabric generate <" + String.join("|", FabricGenerators.FAMILIES)
            + "> [--param value ...] [-o file]";

    @Parameters(index = "0", paramLabel = "family")
    private String family;

    @Option(names = {"-o", "--output"}, paramLabel = "file")
    private String output;

    @Unmatched
    private List<String> params = new ArrayList<>();

    @Override
    public int run(PrintStream out, PrintStream err) throws UsageException {
        Fabric f;
        try {
            f = FabricGenerators.generate(family, Args.params(params));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        FabricFiles.write(FabricJson.write(f), output, out);
        return 0;
    }
}
