package io.weft.systemtests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the repository and this module's build folder are (surefire passes both; defaults for an IDE run). */
final class SystemTestPaths {
    private SystemTestPaths() {
    }

    /** The repository root: the services' jars are under {@code <root>/<module>/target}. */
    static Path root() {
        return Path.of(System.getProperty("weft.root", "..")).toAbsolutePath().normalize();
    }

    /** {@code system-tests/target}: child logs and state directories. */
    static Path target() {
        Path t = Path.of(System.getProperty("weft.systemtests.target", "target")).toAbsolutePath().normalize();
        try {
            return Files.createDirectories(t);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + t, e);
        }
    }
}
