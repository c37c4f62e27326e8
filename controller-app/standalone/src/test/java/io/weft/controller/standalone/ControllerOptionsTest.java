package io.weft.controller.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParameterException;

class ControllerOptionsTest {

    @Test
    void defaultsServeOn8181AndTakeKafkaFromTheEnvironment() {
        ControllerOptions o = ControllerOptions.parse(new String[] {"--fabric", "f.json"}, "127.0.0.1:19092");

        assertThat(o.fabricFile()).isEqualTo(Path.of("f.json"));
        assertThat(o.kafkaBootstrap()).isEqualTo("127.0.0.1:19092");
        assertThat(o.httpHost()).isEqualTo("127.0.0.1");
        assertThat(o.httpPort()).isEqualTo(8181);
        assertThat(o.pollMs()).isEqualTo(1000);
        assertThat(o.gnmiTimeoutMs()).isEqualTo(5000);
        assertThat(o.gnmiResyncMs()).isEqualTo(30_000);
    }

    @Test
    void gnmiTimingsAreFlagsWithLimits() {
        ControllerOptions o = ControllerOptions.parse(new String[] {"--fabric", "f", "--gnmi-timeout-ms", "800",
                "--gnmi-resync-ms", "2000"}, null);
        assertThat(o.gnmiTimeoutMs()).isEqualTo(800);
        assertThat(o.gnmiResyncMs()).isEqualTo(2000);
        assertThatThrownBy(() -> ControllerOptions.parse(new String[] {"--fabric", "f", "--gnmi-resync-ms", "5"}, null))
                .hasMessage("--gnmi-resync-ms: must be >= 100, got 5");
        assertThatThrownBy(() -> ControllerOptions.parse(new String[] {"--fabric", "f", "--gnmi-timeout-ms", "0"},
                null))
                .hasMessage("--gnmi-timeout-ms: must be >= 1, got 0");
    }

    @Test
    void withoutKafkaItIsHttpOnlyAndFlagsWin() {
        ControllerOptions o = ControllerOptions.parse(new String[] {"--fabric", "f.json", "--kafka", "h:9092",
                "--http-port", "0", "--state-dir", "/s", "--state-dir", "/t", "--poll-ms", "50"}, null);

        assertThat(o.kafkaBootstrap()).isEqualTo("h:9092");
        assertThat(o.httpPort()).isZero();
        assertThat(o.stateDir()).isEqualTo(Path.of("/t"));
        assertThat(o.pollMs()).isEqualTo(50);
        assertThat(ControllerOptions.parse(new String[] {"--fabric", "f"}, " ").kafkaBootstrap()).isNull();
    }

    @Test
    void helpIsNull() {
        assertThat(ControllerOptions.parse(new String[] {"--help"}, null)).isNull();
    }

    @Test
    void badCommandLinesNameTheFlag() {
        assertThatThrownBy(() -> ControllerOptions.parse(new String[0], null))
                .isInstanceOf(ParameterException.class).hasMessage("Missing required option: '--fabric=FILE'");
        assertThatThrownBy(() -> ControllerOptions.parse(new String[] {"--fabric"}, null))
                .hasMessage("Missing required parameter for option '--fabric' (FILE)");
        assertThatThrownBy(() -> ControllerOptions.parse(new String[] {"--fabric", "f", "--http-port", "x"}, null))
                .hasMessage("Invalid value for option '--http-port': 'x' is not an int");
        assertThatThrownBy(() -> ControllerOptions.parse(new String[] {"--fabric", "f", "--http-port", "70000"}, null))
                .hasMessage("--http-port: must be 0..65535, got 70000");
        assertThatThrownBy(() -> ControllerOptions.parse(new String[] {"--fabric", "f", "--kafka", "nohost"}, null))
                .hasMessage("--kafka: must be host:port[,host:port...], got 'nohost'");
        assertThatThrownBy(() -> ControllerOptions.parse(new String[] {"--fabric", "f", "--poll-ms", "1"}, null))
                .hasMessage("--poll-ms: must be >= 10, got 1");
        assertThatThrownBy(() -> ControllerOptions.parse(new String[] {"--fabric", "f", "--watch"}, null))
                .hasMessage("Unknown option: '--watch'");
    }
}
