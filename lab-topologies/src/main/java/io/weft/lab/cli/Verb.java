package io.weft.lab.cli;

import java.io.PrintStream;

/** One verb of {@code ./weft fabric}, its arguments bound by picocli before {@link #run} is called. */
interface Verb {
    int run(PrintStream out, PrintStream err) throws UsageException;
}
