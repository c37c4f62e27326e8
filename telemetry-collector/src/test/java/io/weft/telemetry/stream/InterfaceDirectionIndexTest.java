package io.weft.telemetry.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class InterfaceDirectionIndexTest {
    private final InterfaceDirectionIndex index = InterfaceDirectionIndex.of(TopologyFixture.example(), 7);

    @Test
    void aSwitchToSwitchPortMeasuresTheDirectionItSends() {
        assertThat(index.lookup("spine1", "eth1")).singleElement().satisfies(a -> {
            assertThat(a.arcKey()).isEqualTo("leaf1-spine1>leaf1");
            assertThat(a.side()).isEqualTo(MeasuredArc.Side.SENDER);
            assertThat(a.capacityGbps()).isEqualTo(400);
        });
    }

    @Test
    void aNicFacingPortMeasuresBothDirectionsAndNicsAreNotTargets() {
        assertThat(index.lookup("leaf1", "eth3")).extracting(a -> a.arcKey() + " " + a.side())
                .containsExactlyInAnyOrder("nic1-leaf1>nic1 SENDER", "nic1-leaf1>leaf1 RECEIVER");
        assertThat(index.lookup("nic1", "eth1")).isEmpty();
        assertThat(index.arcCount()).isEqualTo(2 * 8);
        assertThat(index.version()).isEqualTo(7);
    }

    @Test
    void aSnapshotWithoutVersionOrFabricIsRejectedNamingTheField() throws Exception {
        assertThatThrownBy(() -> InterfaceDirectionIndex.fromSnapshot(Json.MAPPER.readTree("{\"fabric\":{}}")))
                .hasMessageStartingWith("$.version:");
        assertThatThrownBy(() -> InterfaceDirectionIndex.fromSnapshot(
                Json.MAPPER.readTree("{\"version\":1,\"fabric\":{\"id\":1}}")))
                .hasMessageStartingWith("$.fabric:");
    }

    @Test
    void theStoreKeepsTheLastGoodSnapshotAndForgetsATombstonedFabric() {
        InterfaceDirectionIndexStore store = InterfaceDirectionIndexStore.builder("s").build();
        store.apply("ls-2x2", ("{\"version\":1,\"fabric\":" + io.weft.fabric.FabricJson.write(TopologyFixture.example())
                + "}").getBytes(StandardCharsets.UTF_8));
        store.apply("ls-2x2", "{broken".getBytes(StandardCharsets.UTF_8));
        assertThat(store.lookup("leaf1", "eth1")).hasSize(1);
        store.apply("ls-2x2", null);
        assertThat(store.lookup("leaf1", "eth1")).isEmpty();
        assertThat(store.fabrics()).isEmpty();
    }
}
