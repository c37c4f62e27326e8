package io.weft.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import io.weft.contracts.boundary.ImportBoundary;
import org.junit.jupiter.api.Test;

/**
 * The fabric plan (fabric model, planner, forwarding walk, encoder) runs embedded in the ONOS 2.7
 * bundle, in the standalone controller, in scheduler-api, the collector, the simulator and the lab,
 * so its main sources reference no framework ({@link ImportBoundary#noFrameworks()}).
 *
 * <p>The one exception is Jackson 2's core and databind: the fabric file, the snapshot and the
 * device intents are JSON trees, and ONOS 2.7 exports Jackson 2.11, which the bundle imports rather
 * than embeds. Jackson's add-on modules (datatype, dataformat, module) are neither exported nor
 * embedded, and stay forbidden, as does Jackson 3 ({@code tools.jackson}).
 */
class FrameworkImportTest {
    static final ImportBoundary BOUNDARY = ImportBoundary.noFrameworks()
            .allow("com.fasterxml.jackson.core.", "com.fasterxml.jackson.databind.");

    @Test
    void mainSourcesReferenceNoFramework() {
        assertThat(BOUNDARY.violations(Path.of("src", "main", "java"))).isEmpty();
    }
}
