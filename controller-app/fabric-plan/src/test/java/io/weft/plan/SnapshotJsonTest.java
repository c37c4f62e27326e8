package io.weft.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.weft.contracts.Contracts;
import io.weft.contracts.LinkState;
import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SnapshotJsonTest {
    private static final JsonSchema SNAPSHOT_SCHEMA = schema("schemas/fabric-snapshot.schema.json");

    static Stream<Arguments> fabrics() {
        return Stream.of(
                Arguments.of(TestFabrics.leafSpine(3, 2, 2, 2)),
                Arguments.of(TestFabrics.clos3(2, 2, 2, 2)),
                Arguments.of(TestFabrics.dragonfly(1, 2, 1)),
                Arguments.of(TestFabrics.petersen()));
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void roundTripRebuildsTheSamePlanAndTheSameEncodings(Fabric fabric) throws Exception {
        FabricPlan plan = Planner.plan(fabric, null);
        Map<String, LinkState> states = Map.of(fabric.links().get(0).id(), LinkState.DOWN,
                fabric.links().get(1).id(), LinkState.DRAINED);
        ObjectNode tree = SnapshotJson.toTree(plan, states, 7, Instant.parse("2026-01-02T03:04:05Z"));

        Set<ValidationMessage> errors = SNAPSHOT_SCHEMA.validate(tree);
        assertThat(errors).as("schema errors").isEmpty();
        assertThat(tree.get("version").asLong()).isEqualTo(7);
        assertThat(tree.get("generatedAt").asText()).isEqualTo("2026-01-02T03:04:05Z");

        // Through text, as a Kafka consumer sees it.
        JsonNode read = FabricJson.mapper().readTree(FabricJson.mapper().writeValueAsString(tree));
        FabricPlan rebuilt = SnapshotJson.planFromTree(read);
        assertThat(SnapshotJson.planTree(rebuilt)).isEqualTo(SnapshotJson.planTree(plan));
        assertThat(tree.get("linkStates").get(fabric.links().get(1).id()).asText()).isEqualTo("drained");
        assertThat(SnapshotJson.linkStatesFromTree(read)).containsEntry(fabric.links().get(0).id(), LinkState.DOWN)
                .containsEntry(fabric.links().get(1).id(), LinkState.DRAINED).hasSize(fabric.links().size());
        for (String s : plan.switches()) {
            assertThat(rebuilt.evTable(s, 1)).isEqualTo(plan.evTable(s, 1));
            assertThat(rebuilt.evTable(s, 2)).isEqualTo(plan.evTable(s, 2));
        }
        String src = plan.nics().get(0);
        String dst = plan.nics().get(plan.nics().size() - 1);
        for (List<Arc> path : Paths.candidates(plan, src, dst, 1, 50)) {
            assertThat(PathEncoder.encode(rebuilt, path, "default"))
                    .isEqualTo(PathEncoder.encode(plan, path, "default"));
        }
        // A rebuilt plan serves as the previous plan of a re-plan: nothing moves.
        assertThat(SnapshotJson.planTree(Planner.plan(fabric, rebuilt))).isEqualTo(SnapshotJson.planTree(plan));
    }

    @Test
    void snapshotOfAFabricWithAllocatedValuesMatchesThePublishedShape() throws Exception {
        FabricPlan plan = Planner.plan(TestFabrics.leafSpine(2, 2, 1, 1), null);
        JsonNode p = SnapshotJson.planTree(plan);
        assertThat(p.get("tenants").get(0).toString()).isEqualTo(
                "{\"name\":\"default\",\"index\":0,\"vrf\":\"Vrf-default\",\"table\":100,\"decapFunction\":57344}");
        assertThat(p.get("switches").get(0).toString()).isEqualTo("{\"id\":\"leaf1\",\"nodeId\":1,"
                + "\"locator\":\"fcbb:bb00:1::/48\",\"loopback\":\"fd00:ef8::1\",\"nicPrefix\":\"fd00:ef7:1::/64\","
                + "\"decap\":[{\"tenant\":\"default\",\"function\":57344,\"sid\":\"fcbb:bb00:1:e000::/64\"}],"
                + "\"ev\":{\"stage1\":[\"leaf1-spine1>spine1\",\"leaf1-spine2>spine2\"],\"stage2\":[]}}");
        assertThat(p.get("nics").get(0).toString()).isEqualTo(
                "{\"id\":\"h1-1\",\"address\":\"fd00:ef7:1::1\",\"attachment\":\"h1-1-leaf1>leaf1\"}");
    }

    @Test
    void snapshotWithGnmiEndpointsAndDeviceStatesMeetsTheSchemaAndReadsBack() throws Exception {
        Fabric base = TestFabrics.leafSpine(2, 2, 1, 1);
        java.util.List<io.weft.fabric.Node> nodes = new java.util.ArrayList<>();
        for (io.weft.fabric.Node n : base.nodes()) {
            nodes.add(n.id().equals("leaf1") ? n.toBuilder().gnmi(new io.weft.fabric.GnmiEndpoint("127.0.0.1", 50001,
                    false, null, null, null, "GNMI_USER", null)).build() : n);
        }
        ObjectNode withGnmi = FabricJson.toTree(new Fabric(base.id(), base.name(), base.family(), base.srv6Block(),
                base.tenants(), nodes, base.links(), base.params()));
        Fabric fabric = FabricJson.fromTree(withGnmi);
        FabricPlan plan = Planner.plan(fabric, null);
        ObjectNode tree = SnapshotJson.toTree(plan, Map.of(), 3);
        // What the standalone controller adds when it provisions switches over gNMI.
        tree.putObject("deviceStates").putObject("leaf1").put("state", "unreachable")
                .put("lastError", "switch leaf1 at 127.0.0.1:50001 unreachable: UNAVAILABLE");
        assertThat(SNAPSHOT_SCHEMA.validate(tree)).as("schema errors").isEmpty();
        ((ObjectNode) tree.get("deviceStates").get("leaf1")).put("state", "confused");
        assertThat(SNAPSHOT_SCHEMA.validate(tree)).as("unknown device state").isNotEmpty();
        ((ObjectNode) tree.get("deviceStates").get("leaf1")).put("state", "in-sync");

        JsonNode read = FabricJson.mapper().readTree(FabricJson.mapper().writeValueAsString(tree));
        FabricPlan rebuilt = SnapshotJson.planFromTree(read);
        assertThat(rebuilt.fabric().node("leaf1").gnmi().port()).isEqualTo(50001);
        assertThat(SnapshotJson.planTree(rebuilt)).isEqualTo(SnapshotJson.planTree(plan));
    }

    @Test
    void badSnapshotsAndLinkStatesAreRejectedNamingThePlace() throws Exception {
        FabricPlan plan = Planner.plan(TestFabrics.leafSpine(2, 2, 1, 1), null);
        assertThatThrownBy(() -> SnapshotJson.toTree(plan, Map.of("nope", LinkState.UP), 1))
                .hasMessage("linkStates: unknown link \"nope\"");
        ObjectNode flapping = SnapshotJson.toTree(plan, Map.of(), 1);
        ((ObjectNode) flapping.get("linkStates")).put("leaf1-spine1", "flapping");
        assertThatThrownBy(() -> SnapshotJson.linkStatesFromTree(flapping))
                .hasMessage("$.linkStates.leaf1-spine1: must be up, down or drained");
        ObjectNode tree = SnapshotJson.toTree(plan, Map.of(), 1);
        ((ObjectNode) tree.get("plan").get("switches").get(1)).put("nodeId", "two");
        assertThatThrownBy(() -> SnapshotJson.planFromTree(tree))
                .isInstanceOf(PlanException.class).hasMessage("$.plan.switches[1].nodeId: must be an integer");
        ObjectNode t2 = SnapshotJson.toTree(plan, Map.of(), 1);
        ((com.fasterxml.jackson.databind.node.ArrayNode) t2.get("plan").get("switches").get(2).get("ev")
                .get("stage2")).add("leaf1-spine1>leaf2");
        assertThatThrownBy(() -> SnapshotJson.planFromTree(t2))
                .hasMessage("$.plan.switches[2].ev.stage2[0]: \"leaf1-spine1>leaf2\" is not an arc (linkId>toNode)"
                        + " of fabric ls-2x2");
        ObjectNode t3 = SnapshotJson.toTree(plan, Map.of(), 1);
        ((ObjectNode) t3.get("fabric").get("links").get(0)).put("capacityGbps", "fast");
        assertThatThrownBy(() -> SnapshotJson.planFromTree(t3))
                .hasMessage("$.fabric.links[0].capacityGbps: must be a number (Gbit/s)");
    }

    private static JsonSchema schema(String path) {
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
                b -> b.schemaMappers(m -> m.mapPrefix(Contracts.ID_PREFIX, "classpath:" + Contracts.ROOT)));
        SchemaValidatorsConfig config = SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build();
        JsonSchema s = factory.getSchema(SchemaLocation.of(Contracts.ID_PREFIX + path), config);
        s.initializeValidators();
        return s;
    }
}
