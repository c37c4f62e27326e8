package io.weft.lab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.weft.fabric.Fabric;
import io.weft.fabric.FabricFormatException;
import io.weft.fabric.FabricJson;
import io.weft.fabric.FabricValidator;

/** Reading a fabric file for a verb, and writing a verb's output to stdout or -o FILE. */
final class FabricFiles {
    private FabricFiles() {
    }

    /**
     * Reads and validates; on failure returns null after printing each problem as one line on
     * {@code err} (the read error, or every validator problem).
     */
    static Fabric readValid(String file, PrintStream err) {
        Fabric f;
        try {
            f = FabricJson.read(Path.of(file));
        } catch (FabricFormatException e) {
            err.println(e.getMessage());
            return null;
        } catch (java.nio.file.InvalidPathException e) {
            err.println(file + ": not a valid path");
            return null;
        }
        List<String> problems = FabricValidator.validate(f);
        if (!problems.isEmpty()) {
            problems.forEach(err::println);
            return null;
        }
        return f;
    }

    static void write(String text, String output, PrintStream out) throws UsageException {
        if (output == null || output.equals("-")) {
            out.print(text);
            out.flush();
            return;
        }
        try {
            Files.writeString(Path.of(output), text, StandardCharsets.UTF_8);
        } catch (IOException | java.nio.file.InvalidPathException e) {
            throw new UsageException(output + ": cannot write (" + e.getClass().getSimpleName() + ": "
                    + e.getMessage() + ")");
        }
    }
}
