package io.weft.lab.netns;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** Argument handling of ./weft lab (nothing here touches namespaces). */
class LabCliTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return LabCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void helpGoesToStdoutAndNoArgumentsIsAUsageError() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("./weft lab up <fabric.json>");
        assertThat(run()).isEqualTo(2);
        assertThat(err()).contains("usage:");
    }

    @Test
    void badTagUnknownVerbAndUnknownOptionExitTwoWithOneClearLine() {
        assertThat(run("down", "--tag", "My-Lab")).isEqualTo(2);
        assertThat(err()).startsWith("tag: \"My-Lab\" must be 1-8 lowercase letters or digits");
        err.reset();
        assertThat(run("launch")).isEqualTo(2);
        assertThat(err()).isEqualTo("unknown command \"launch\" (see ./weft lab --help)\n");
        err.reset();
        assertThat(run("ping", "a")).isEqualTo(2);
        assertThat(err()).startsWith("Missing required parameter: 'dstNic'");
        err.reset();
        assertThat(run("up", "f.json", "--workers", "99")).isEqualTo(2);
        assertThat(err()).startsWith("--workers: must be a whole number in 1..64");
        err.reset();
        assertThat(run("ping", "a", "b", "--fast")).isEqualTo(2);
        assertThat(err()).isEqualTo("Unknown option: '--fast' (see ./weft lab --help)\n");
        err.reset();
        assertThat(run("status", "--tag")).isEqualTo(2);
        assertThat(err()).isEqualTo("Missing required parameter for option '--tag' (T) (see ./weft lab --help)\n");
    }
}
