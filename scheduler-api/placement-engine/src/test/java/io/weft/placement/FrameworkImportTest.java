package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import io.weft.contracts.boundary.ImportBoundary;
import org.junit.jupiter.api.Test;

/**
 * The placement engine runs inside scheduler-api (Spring), in the simulator's evaluation and from
 * the command line, so its main sources reference no framework ({@link ImportBoundary#noFrameworks()}):
 * the service owns transactions, messaging and HTTP, the engine only computes.
 *
 * <p>The one exception is Jackson 2's core and databind, for the job file (JobSpecJson) and the JSON
 * that {@code ./weft place} prints: the same JSON library, at the same level, as the fabric plan's
 * file reader the engine builds on. Jackson's add-on modules and Jackson 3 stay forbidden.
 */
class FrameworkImportTest {
    static final ImportBoundary BOUNDARY = ImportBoundary.noFrameworks()
            .allow("com.fasterxml.jackson.core.", "com.fasterxml.jackson.databind.");

    @Test
    void mainSourcesReferenceNoFramework() {
        assertThat(BOUNDARY.violations(Path.of("src", "main", "java"))).isEmpty();
    }
}
