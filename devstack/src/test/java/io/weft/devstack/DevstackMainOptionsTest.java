package io.weft.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

class DevstackMainOptionsTest {

    @Test
    void defaultsAreTheDemoPorts() {
        DevstackMain.Options o = DevstackMain.Options.parse(new String[0]);

        assertThat(o.kafkaPort).isEqualTo(19092);
        assertThat(o.postgresPort).isEqualTo(15432);
        assertThat(o.stateDir).isEqualTo(Path.of(".weft"));
        assertThat(o.kafkaSecure).as("the demo's Kafka is plaintext on loopback unless asked").isFalse();
    }

    @Test
    void flagsOverrideTheDefaults() {
        DevstackMain.Options o = DevstackMain.Options.parse(
                new String[] {"--state-dir", "/tmp/x", "--kafka-port", "0", "--postgres-port", "25432",
                    "--kafka-secure"});

        assertThat(o.stateDir).isEqualTo(Path.of("/tmp/x"));
        assertThat(o.kafkaPort).isZero();
        assertThat(o.postgresPort).isEqualTo(25432);
        assertThat(o.kafkaSecure).isTrue();
    }

    @Test
    void badFlagsAreNamed() {
        assertThatThrownBy(() -> DevstackMain.Options.parse(new String[] {"--kafka-port", "99999"}))
                .hasMessage("--kafka-port: must be a port number 0..65535, got '99999'");
        assertThatThrownBy(() -> DevstackMain.Options.parse(new String[] {"--postgres-port"}))
                .hasMessage("Missing required parameter for option '--postgres-port' (N)");
        assertThatThrownBy(() -> DevstackMain.Options.parse(new String[] {"--verbose"}))
                .hasMessage("Unknown option: '--verbose'");
    }
}
