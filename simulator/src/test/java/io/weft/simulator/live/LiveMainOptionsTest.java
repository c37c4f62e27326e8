package io.weft.simulator.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Arrays;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Live mode's command line: a bad option is one message naming it (main prints it and exits 2). */
class LiveMainOptionsTest {
    private static final String[] BASE = {"--kafka", "127.0.0.1:9092", "--agent-token", "a", "--scheduler-token", "s"};

    @Test
    void defaultsAndTheBuiltInIncident() throws Exception {
        LiveMain.Options o = LiveMain.parse(BASE);
        assertThat(o.tickMs()).isEqualTo(100);
        assertThat(o.scheduler().toString()).isEqualTo("http://127.0.0.1:8082");
        assertThat(o.incident().steps()).hasSize(4);
        assertThat(LiveMain.parse(new String[] {"--kafka", "k:1", "--agent-token", "a", "--no-incident"}).incident())
                .as("no incident needs no scheduler token").isNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--tick-ms 5|--tick-ms: 5 is not in 10..60000",
        "--tick-ms soon|Invalid value for option '--tick-ms': 'soon' is not a long",
        "--bogus|Unknown option: '--bogus'",
        "--scenario|Missing required parameter for option '--scenario' (FILE)",
        "--scenario /nonexistent/incident.json|/nonexistent/incident.json: no such file",
        "--launched-at-ms soon|--launched-at-ms: 'soon' is not epoch milliseconds",
    })
    void aBadOptionIsNamed(String extra, String start) {
        String[] args = Stream.concat(Arrays.stream(BASE), Arrays.stream(extra.split(" "))).toArray(String[]::new);
        assertThatThrownBy(() -> LiveMain.parse(args)).hasMessageStartingWith(start);
    }

    @Test
    void helpIsNullAndTheHelpNamesEveryFlag() throws Exception {
        assertThat(LiveMain.parse(new String[] {"--help"})).isNull();
        assertThat(LiveMain.usage()).contains("--kafka", "--scheduler", "--agent-token", "--scheduler-token",
                "--fabric-id", "--tick-ms", "--scenario", "--no-incident", "--launched-at-ms");
    }

    @Test
    void theDemosLaunchTimeIsKept() throws Exception {
        String[] args = Stream.concat(Arrays.stream(BASE), Stream.of("--launched-at-ms", "1795000000000"))
                .toArray(String[]::new);
        assertThat(LiveMain.parse(args).launchedAt()).isEqualTo(Instant.ofEpochMilli(1_795_000_000_000L));
    }

    @Test
    void theIncidentNeedsTheSchedulerToken() {
        assertThatThrownBy(() -> LiveMain.parse(new String[] {"--kafka", "k:1", "--agent-token", "a"}))
                .hasMessageStartingWith("--scheduler-token: missing");
        assertThatThrownBy(() -> LiveMain.parse(new String[] {"--kafka", "k:1"}))
                .hasMessageStartingWith("--agent-token: missing");
    }
}
