package io.weft.simulator.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ./weft eval rewrites its own tables and keeps what other tools appended after the marker. */
class KeptSectionsTest {
    @Test
    void keepsEverythingFromTheMarkerOnAndNothingBefore(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("EVALUATION.md");
        assertThat(EvalRun.keptSections(report)).isEmpty();
        Files.writeString(report, "# old tables\n\n" + EvalRun.KEPT_MARKER + "\n\n## Reroute\nmeasured\n");
        assertThat(EvalRun.keptSections(report))
                .startsWith("\n" + EvalRun.KEPT_MARKER)
                .endsWith("## Reroute\nmeasured\n")
                .doesNotContain("old tables");
        Files.writeString(report, "# tables only\n");
        assertThat(EvalRun.keptSections(report)).isEmpty();
    }
}
