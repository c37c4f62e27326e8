package io.weft.lab.cli;

import java.io.PrintStream;
import java.util.List;

import io.weft.fabric.Fabric;
import io.weft.lab.clab.ContainerlabTopology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code clab <file> [-o file] [--switch-image I] [--nic-image I]}: a containerlab topology. */
@Command(name = "clab")
final class ClabCommand implements Verb {
    static final String USAGE = "fabric clab <file> [-o file] [--switch-image image] [--nic-image image]";

    @Parameters(index = "0", paramLabel = "file")
    private String file;

    @Option(names = {"-o", "--output"}, paramLabel = "file")
    private String output;

    @Option(names = "--switch-image", paramLabel = "image")
    private String switchImage = ContainerlabTopology.DEFAULT_SWITCH_IMAGE;

    @Option(names = "--nic-image", paramLabel = "image")
    private String nicImage = ContainerlabTopology.DEFAULT_NIC_IMAGE;

    @Override
    public int run(PrintStream out, PrintStream err) throws UsageException {
        Fabric f = FabricFiles.readValid(file, err);
        if (f == null) {
            return 2;
        }
        List<String> problems = ContainerlabTopology.problems(f);
        if (!problems.isEmpty()) {
            problems.forEach(err::println);
            return 2;
        }
        FabricFiles.write(ContainerlabTopology.render(f, switchImage, nicImage), output, out);
        return 0;
    }
}
