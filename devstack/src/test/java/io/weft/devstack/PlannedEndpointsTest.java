package io.weft.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;

import io.weft.devstack.junit.WeftDevstackTest;
import org.junit.jupiter.api.Test;

/** The endpoints the demo's services are started with before the devstack answers are the ones it then has. */
@WeftDevstackTest
class PlannedEndpointsTest {

    @Test
    void theEndpointsPlannedForARunningDevstacksPortsAreItsOwn(DevstackEndpoints running) {
        int kafkaPort = Integer.parseInt(running.kafkaBootstrapServers().substring(
                running.kafkaBootstrapServers().lastIndexOf(':') + 1));
        int postgresPort = URI.create(running.jdbcUrl().substring("jdbc:".length())).getPort();

        assertThat(DevstackEndpoints.planned(kafkaPort, postgresPort)).isEqualTo(running);
    }

    @Test
    void freePortsCannotBePlanned() {
        assertThatThrownBy(() -> DevstackEndpoints.planned(0, 15432)).isInstanceOf(IllegalArgumentException.class);
        assertThat(DevstackEndpoints.planned(19092, 15432).asEnv()).containsEntry("WEFT_KAFKA_BOOTSTRAP",
                "127.0.0.1:19092").containsEntry("WEFT_JDBC_URL", "jdbc:postgresql://127.0.0.1:15432/weft");
    }
}
