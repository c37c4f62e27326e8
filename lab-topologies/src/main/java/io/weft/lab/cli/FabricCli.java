package io.weft.lab.cli;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * {@code ./weft fabric}: generate, validate, export (containerlab) and describe fabric files.
 *
 * <p>Exit codes: 0 done; 2 bad command line or bad fabric file (each problem one line on stderr);
 * 1 internal error (a bug: one line, never a stack trace, so scripts can still parse stderr).
 */
@Command(name = "fabric", subcommands = {GenerateCommand.class, ValidateCommand.class, ClabCommand.class,
    StatsCommand.class})
public final class FabricCli {
    static final String HELP = String.join("\n",
            "usage: ./weft " + GenerateCommand.USAGE,
            "       ./weft " + ValidateCommand.USAGE,
            "       ./weft " + ClabCommand.USAGE,
            "       ./weft " + StatsCommand.USAGE,
            "",
            "generate parameters (--name value; kebab-case works too, e.g. --nics-per-leaf 4;"
                    + " every family takes --id):",
            "  leaf-spine  leaves spines nicsPerLeaf parallelLinks nicGbps uplinkGbps nicLatencyNs uplinkLatencyNs",
            "  fat-tree    k  | pods leavesPerPod spinesPerPod superspines nicsPerLeaf;",
            "              nicGbps uplinkGbps spineGbps nicLatencyNs uplinkLatencyNs spineLatencyNs",
            "  rail        servers railsPerServer serversPerGroup spines planes nicGbps uplinkGbps",
            "              nicLatencyNs uplinkLatencyNs",
            "  dragonfly   p a h g (g <= a*h+1, default a*h+1) nicGbps localGbps globalGbps",
            "              nicLatencyNs localLatencyNs globalLatencyNs",
            "  slimfly     q (prime power, 3..64) nicGbps linkGbps nicLatencyNs linkLatencyNs",
            "",
            "exit codes: 0 ok, 2 bad arguments or bad fabric file, 1 internal error") + "\n";

    private FabricCli() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one command; never throws. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            return dispatch(Arrays.asList(args), out, err);
        } catch (UsageException e) {
            err.println(e.getMessage());
            return 2;
        } catch (OutOfMemoryError e) {
            err.println("internal error: out of memory (raise -Xmx via WEFT_JAVA_OPTS)");
            return 1;
        } catch (RuntimeException | StackOverflowError e) {
            err.println("internal error: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage().replace('\n', ' ')));
            return 1;
        }
    }

    private static int dispatch(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        if (args.isEmpty()) {
            err.print(HELP);
            return 2;
        }
        String verb = args.get(0);
        if (verb.equals("help") || args.contains("-h") || args.contains("--help")) {
            out.print(HELP);
            return 0;
        }
        CommandLine line = new CommandLine(new FabricCli());
        if (!line.getSubcommands().containsKey(verb)) {
            throw new UsageException("unknown command \"" + verb + "\" (expected generate, validate, clab or stats)");
        }
        ParseResult parsed;
        try {
            parsed = line.parseArgs(args.toArray(String[]::new));
        } catch (ParameterException e) {
            throw new UsageException(e.getMessage() + " (usage: " + usage(verb) + ")");
        }
        return ((Verb) parsed.subcommand().commandSpec().userObject()).run(out, err);
    }

    private static String usage(String verb) {
        switch (verb) {
            case "generate":
                return GenerateCommand.USAGE;
            case "validate":
                return ValidateCommand.USAGE;
            case "clab":
                return ClabCommand.USAGE;
            default:
                return StatsCommand.USAGE;
        }
    }
}
