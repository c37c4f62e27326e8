package io.weft.simulator.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Lets tests in other packages run the CLI without System.exit. */
public final class SimulateCliAccess {
    private SimulateCliAccess() {
    }

    public static int run(String[] args, OutputStream out, OutputStream err) {
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        return SimulateCli.run(args, o, e);
    }
}
