package io.weft.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.contracts.KafkaAccess.Grant;
import io.weft.contracts.KafkaAccess.Operation;
import io.weft.contracts.KafkaAccess.Resource;
import org.junit.jupiter.api.Test;

class KafkaAccessTest {
    private final KafkaAccess access = KafkaAccess.catalogue();

    @Test
    void everyServiceIsAPrincipalAndAgentsAreNone() {
        assertThat(access.principals()).containsExactly("weft-controller", "weft-scheduler-api",
                "weft-telemetry-collector", "weft-gnmic", "weft-telemetry", "weft-live-fabric");
        assertThat(access.principals()).noneMatch(p -> p.contains("agent"));
    }

    @Test
    void onlyTheControllerWritesTheFabric() {
        assertThat(writers(Topics.FABRIC)).containsExactly("weft-controller");
        assertThat(access.grantsOf("weft-telemetry-collector"))
                .doesNotContain(new Grant("weft-telemetry-collector", Resource.TOPIC, Topics.FABRIC, false,
                        Operation.WRITE))
                .contains(new Grant("weft-telemetry-collector", Resource.TOPIC, Topics.FABRIC, false, Operation.READ));
    }

    @Test
    void schedulerApiWritesOnlyTheFlowReportsAndReadsFabricAndHotspots() {
        List<String> grants = access.grantsOf("weft-scheduler-api").stream().map(Grant::toString)
                .collect(Collectors.toList());
        assertThat(grants).containsExactlyInAnyOrder(
                "weft-scheduler-api READ GROUP weft-scheduler-*",
                "weft-scheduler-api WRITE TOPIC weft.telemetry.flows",
                "weft-scheduler-api READ TOPIC weft.fabric",
                "weft-scheduler-api READ TOPIC weft.hotspots");
    }

    @Test
    void gnmicOnlyWritesTheCountersAndTheLabPublisherAlsoReadsTheFabric() {
        assertThat(access.grantsOf("weft-gnmic").stream().map(Grant::toString))
                .containsExactly("weft-gnmic WRITE TOPIC weft.telemetry.interfaces");
        // weft-telemetry picks its switches from the fabric snapshots; it needs no consumer group.
        assertThat(access.grantsOf("weft-telemetry").stream().map(Grant::toString)).containsExactlyInAnyOrder(
                "weft-telemetry WRITE TOPIC weft.telemetry.interfaces",
                "weft-telemetry READ TOPIC weft.fabric");
    }

    @Test
    void theCollectorOwnsItsStreamsTopicsByPrefix() {
        assertThat(access.grantsOf("weft-telemetry-collector")).contains(
                new Grant("weft-telemetry-collector", Resource.TOPIC, "weft-telemetry-collector-", true, Operation.ALL),
                new Grant("weft-telemetry-collector", Resource.GROUP, "weft-telemetry-collector", true,
                        Operation.READ));
    }

    @Test
    void anUndeclaredPrincipalIsRefusedNamingTheField() {
        ObjectNode catalogue = (ObjectNode) SchemaSupport.json("topics.json").deepCopy();
        ((ObjectNode) catalogue.get("topics").get(1)).putArray("readers").add("weft-nic-agent");
        assertThatThrownBy(() -> KafkaAccess.of(catalogue)).isInstanceOf(ContractException.class)
                .hasMessageStartingWith("topics[1].readers[0]: \"weft-nic-agent\" is not one of the declared");
    }

    private List<String> writers(String topic) {
        return access.grants().stream()
                .filter(g -> g.resource() == Resource.TOPIC && g.name().equals(topic)
                        && g.operation() == Operation.WRITE)
                .map(Grant::principal).collect(Collectors.toList());
    }
}
