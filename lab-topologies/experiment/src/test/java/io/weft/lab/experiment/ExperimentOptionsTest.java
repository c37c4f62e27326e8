package io.weft.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

class ExperimentOptionsTest {
    private static final Path OUT = Path.of("out");

    private static ExperimentOptions parse(String... args) {
        return ExperimentOptions.parse(List.of(args), OUT);
    }

    @Test
    void defaultsAreThePapersShape() {
        ExperimentOptions o = parse("reroute");
        assertThat(o.durationS()).isEqualTo(30);
        assertThat(o.throttleAtS()).isEqualTo(5);
        assertThat(o.intervalMs()).isEqualTo(100);
        // 5 s at the full rate + 25 s at the throttle = 70 % of 30 s at the full rate.
        assertThat(5 + 25 * o.throttleShare()).isCloseTo(0.70 * 30, within(1e-9));
    }

    @Test
    void optionsAreRead() {
        ExperimentOptions o = parse("reroute", "--duration", "12", "--throttle-at", "4", "--rate", "200", "--json",
                "--samples", "3", "--no-baseline", "--tag", "x1", "--out", "/tmp/e", "--runs", "5", "--noise");
        assertThat(o.durationS()).isEqualTo(12);
        assertThat(o.throttleAtS()).isEqualTo(4);
        assertThat(o.offeredMbit()).isEqualTo(200);
        assertThat(o.json()).isTrue();
        assertThat(o.baseline()).isFalse();
        assertThat(o.samplesToEnter()).isEqualTo(3);
        assertThat(o.out()).isEqualTo(Path.of("/tmp/e"));
        assertThat(o.runs()).isEqualTo(5);
        assertThat(o.noise()).isTrue();
        assertThat(parse("reroute").runs()).isEqualTo(1);
        assertThat(parse("reroute").noise()).isFalse();
    }

    @Test
    void badInputNamesTheOption() {
        assertThatThrownBy(() -> parse()).hasMessageContaining("reroute");
        assertThatThrownBy(() -> parse("rerouted")).hasMessageStartingWith("experiment: unknown experiment");
        assertThatThrownBy(() -> parse("reroute", "--bogus")).hasMessage("Unknown option: '--bogus'");
        assertThatThrownBy(() -> parse("reroute", "--duration"))
                .hasMessage("Missing required parameter for option '--duration' (S)");
        assertThatThrownBy(() -> parse("reroute", "--duration", "x"))
                .hasMessage("Invalid value for option '--duration': 'x' is not an int");
        assertThatThrownBy(() -> parse("reroute", "--duration", "2")).hasMessageStartingWith("--duration:");
        assertThatThrownBy(() -> parse("reroute", "--throttle-at", "29")).hasMessageStartingWith("--throttle-at:");
        assertThatThrownBy(() -> parse("reroute", "--fabric", "ft8"))
                .hasMessageStartingWith("--fabric: unknown fabric");
        assertThat(parse("reroute", "--fabric", "ft4").fabric()).isEqualTo("ft4");
        assertThat(parse("reroute", "--encoding", "ev").encoding()).isEqualTo("ev");
        assertThatThrownBy(() -> parse("reroute", "--encoding", "mpls")).hasMessageStartingWith("--encoding: unknown");
        assertThatThrownBy(() -> parse("reroute", "--fault", "melt")).hasMessageStartingWith("--fault: unknown fault");
        assertThat(parse("reroute", "--fault", "link-down").fault()).isEqualTo("link-down");
        assertThatThrownBy(() -> parse("reroute", "--tag", "Bad!")).hasMessageStartingWith("--tag:");
        assertThatThrownBy(() -> parse("reroute", "--runs", "0")).hasMessageStartingWith("--runs: must be 1..50");
        assertThatThrownBy(() -> parse("reroute", "--target-off", "0.1")).hasMessageStartingWith("--target-off:");
        assertThatThrownBy(() -> parse("reroute", "--at-once", "0.04")).hasMessageStartingWith("--at-once: must be 0");
        assertThatThrownBy(() -> parse("reroute", "--at-once", "1")).hasMessageStartingWith("--at-once: must be 0");
        assertThat(parse("reroute", "--at-once", "0").atOnceDropFraction()).isZero();
        assertThat(parse("reroute").atOnceDropFraction()).isEqualTo(0.25);
    }

    @Test
    void theCiVariantIsShort() {
        ExperimentOptions o = ExperimentOptions.ci(OUT, "ci1");
        assertThat(o.durationS()).isEqualTo(10);
        assertThat(o.baseline()).isFalse();
    }
}
