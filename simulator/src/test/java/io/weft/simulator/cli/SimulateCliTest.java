package io.weft.simulator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;

import org.junit.jupiter.api.Test;

/** The command line itself: a bad flag is one line naming it and exit 2; --help lists the flags. */
class SimulateCliTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void aBadFlagIsOneLineNamingIt() {
        assertThat(SimulateCliAccess.run(new String[] {"s.json", "--colour"}, out, err)).isEqualTo(2);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString().lines()).singleElement().asString().startsWith("simulate: ").contains("'--colour'");
    }

    @Test
    void aMissingFileIsNamed() {
        assertThat(SimulateCliAccess.run(new String[] {"--json"}, out, err)).isEqualTo(2);
        assertThat(err.toString().lines()).singleElement().asString().contains("scenario.json");
    }

    @Test
    void helpListsTheFlags() {
        assertThat(SimulateCliAccess.run(new String[] {"--help"}, out, err)).isZero();
        assertThat(out.toString()).contains("scenario.json", "--json");
    }
}
