package io.weft.lab.cli;

import io.weft.fabric.Fabric;
import io.weft.lab.clab.ContainerlabTopology;

import java.io.PrintStream;
import java.util.List;

/** {@code clab <file> [-o file] [--switch-image I] [--nic-image I]}: a containerlab topology. */
final class ClabCommand {
    static final String USAGE = "fabric clab <file> [-o file] [--switch-image image] [--nic-image image]";

    private ClabCommand() {
    }

    static int run(Args a, PrintStream out, PrintStream err) throws UsageException {
        a.expectPositional(1, USAGE);
        String switchImage = a.options.getOrDefault("switchImage", ContainerlabTopology.DEFAULT_SWITCH_IMAGE);
        String nicImage = a.options.getOrDefault("nicImage", ContainerlabTopology.DEFAULT_NIC_IMAGE);
        for (String name : a.options.keySet()) {
            if (!name.equals("switchImage") && !name.equals("nicImage")) {
                throw new UsageException("unknown option --" + name + " (usage: " + USAGE + ")");
            }
        }
        Fabric f = FabricFiles.readValid(a.positional.get(0), err);
        if (f == null) {
            return 2;
        }
        List<String> problems = ContainerlabTopology.problems(f);
        if (!problems.isEmpty()) {
            problems.forEach(err::println);
            return 2;
        }
        FabricFiles.write(ContainerlabTopology.render(f, switchImage, nicImage), a.output, out);
        return 0;
    }
}
