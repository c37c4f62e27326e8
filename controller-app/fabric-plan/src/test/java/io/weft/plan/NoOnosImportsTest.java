package io.weft.plan;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core runs inside ONOS and standalone: it must not import ONOS, OSGi or Spring. (Java 11
 * bytecode is enforced by the compiler's release setting.)
 */
class NoOnosImportsTest {
    @Test
    void mainSourcesImportNoContainerTypes() throws IOException {
        List<String> offenders;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            offenders = files.filter(p -> p.toString().endsWith(".java")).flatMap(p -> {
                try {
                    return Files.readAllLines(p).stream()
                            .filter(l -> l.matches("^import (static )?(org\\.onosproject|org\\.osgi|org\\.springframework)\\..*"))
                            .map(l -> p + ": " + l);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).collect(Collectors.toList());
        }
        assertThat(offenders).isEmpty();
    }
}
