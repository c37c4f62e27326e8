package io.weft.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Link;
import io.weft.plan.intent.DeviceIntent;
import io.weft.plan.intent.IntentChanges;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential test of {@link IntentChanges} against {@link DeviceIntent#render}: for every link of
 * each fabric, removed and then restored, applying the route-level changes to the old plan's rendered
 * intent gives the new plan's rendered intent on every switch (static-route lists compared by
 * prefix, since their order carries nothing), and a switch left out of the changes renders the same.
 */
class IntentChangesTest {
    static Stream<Fabric> fabrics() {
        return Stream.of(
                TestFabrics.leafSpine(2, 2, 1, 1),
                TestFabrics.leafSpine(3, 2, 2, 2),
                TestFabrics.clos3(2, 2, 2, 1),
                TestFabrics.dragonfly(1, 2, 1));
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void applyingTheChangesGivesTheNewIntentForEveryLinkRemovedAndRestored(Fabric fabric) throws Exception {
        FabricPlan base = Planner.plan(fabric, null);
        int changedSomewhere = 0;
        for (Link l : fabric.links()) {
            if (!fabric.node(l.a().node()).role().isSwitch() || !fabric.node(l.b().node()).role().isSwitch()) {
                continue; // a NIC's only link: the NIC leaves the plan, a global change
            }
            FabricPlan down = Planner.plan(without(fabric, l), base);
            changedSomewhere += check(base, down, "-" + l.id());
            FabricPlan up = Planner.plan(fabric, down);
            check(down, up, "+" + l.id());
        }
        assertThat(changedSomewhere).isPositive();
    }

    @Test
    void aTenantAddedIsGlobalAndAsksForFullRendering() throws Exception {
        Fabric one = TestFabrics.leafSpine(2, 2, 1, 1);
        ObjectNode tree = FabricJson.toTree(one);
        ((ArrayNode) tree.get("tenants")).add("blue");
        FabricPlan a = Planner.plan(one, null);
        FabricPlan b = Planner.plan(FabricJson.fromTree(tree), a);
        assertThat(IntentChanges.between(a, b)).isNull();
    }

    @Test
    void theSamePlanHasNoChanges() throws Exception {
        Fabric f = TestFabrics.clos3(2, 2, 2, 1);
        FabricPlan a = Planner.plan(f, null);
        assertThat(IntentChanges.between(a, Planner.plan(f, a))).isEmpty();
    }

    @Test
    void anUplinkRemovedChangesOnlyRoutesOnSwitchesAwayFromIt() throws Exception {
        Fabric f = TestFabrics.leafSpine(3, 2, 1, 1);
        FabricPlan a = Planner.plan(f, null);
        Link l = f.links().stream().filter(x -> x.id().equals("leaf1-spine1")).findFirst().orElseThrow();
        Map<String, IntentChanges.SwitchChange> c = IntentChanges.between(a, Planner.plan(without(f, l), a));
        // Its ends lose the port (an interface delete); leaf2 and leaf3 only re-route towards leaf1.
        assertThat(c.get("leaf1").delete()).extracting(d -> d.get("path").asText())
                .containsExactly("/interfaces/interface[name=" + l.endOf("leaf1").port() + "]");
        assertThat(c.get("leaf2").replace()).isEmpty();
        assertThat(c.get("leaf2").routes()).isNotEmpty()
                .allSatisfy(r -> assertThat(r.value() == null || r.value().get("next-hops").get("next-hop").size() == 1)
                        .isTrue());
    }

    /** Checks one step; returns the number of switches that changed. */
    private static int check(FabricPlan prev, FabricPlan next, String step) {
        Map<String, IntentChanges.SwitchChange> changes = IntentChanges.between(prev, next);
        assertThat(changes).as(step).isNotNull();
        for (String sw : next.switches()) {
            Map<String, JsonNode> expected = ops(DeviceIntent.render(next, sw));
            Map<String, JsonNode> applied = ops(DeviceIntent.render(prev, sw));
            IntentChanges.SwitchChange c = changes.get(sw);
            if (c != null) {
                apply(applied, c);
            }
            assertThat(normalised(applied)).as(step + " at " + sw).isEqualTo(normalised(expected));
        }
        return changes.size();
    }

    private static Map<String, JsonNode> ops(ObjectNode intent) {
        Map<String, JsonNode> m = new LinkedHashMap<>();
        for (JsonNode op : intent.get("replace")) {
            m.put(op.get("origin").asText() + ":" + op.get("path").asText(), op.get("value").deepCopy());
        }
        return m;
    }

    private static void apply(Map<String, JsonNode> ops, IntentChanges.SwitchChange c) {
        for (ObjectNode op : c.replace()) {
            ops.put(op.get("origin").asText() + ":" + op.get("path").asText(), op.get("value"));
        }
        for (ObjectNode op : c.delete()) {
            assertThat(ops.remove(op.get("origin").asText() + ":" + op.get("path").asText())).isNotNull();
        }
        for (IntentChanges.RouteChange r : c.routes()) {
            JsonNode instance = ops.get(r.origin() + ":" + r.instancePath());
            assertThat(instance).as(r.toString()).isNotNull();
            ArrayNode routes = null;
            for (JsonNode p : instance.get("protocols").get("protocol")) {
                if (p.get("identifier").asText().equals(r.protocolIdentifier())
                        && p.get("name").asText().equals(r.protocolName())) {
                    routes = (ArrayNode) p.get("static-routes").get("static");
                }
            }
            assertThat(routes).as(r.toString()).isNotNull();
            int at = -1;
            for (int i = 0; i < routes.size(); i++) {
                if (routes.get(i).get("prefix").asText().equals(r.prefix())) {
                    at = i;
                }
            }
            if (r.value() == null) {
                assertThat(at).as("deleted route exists: " + r).isNotNegative();
                routes.remove(at);
            } else if (at >= 0) {
                routes.set(at, r.value());
            } else {
                routes.add(r.value());
            }
        }
    }

    /** Static-route lists sorted by prefix: their order carries nothing (contracts/gnmi/README.md). */
    private static Map<String, JsonNode> normalised(Map<String, JsonNode> ops) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        ops.forEach((k, v) -> out.put(k, sortStatics(v.deepCopy())));
        return out;
    }

    private static JsonNode sortStatics(JsonNode n) {
        if (n.isObject()) {
            ObjectNode o = (ObjectNode) n;
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                JsonNode v = sortStatics(o.get(name));
                if (name.equals("static") && v.isArray()) {
                    List<JsonNode> elems = new ArrayList<>();
                    v.forEach(elems::add);
                    elems.sort(Comparator.comparing(e -> e.get("prefix").asText()));
                    ArrayNode sorted = FabricJson.mapper().createArrayNode();
                    elems.forEach(sorted::add);
                    v = sorted;
                }
                o.set(name, v);
            }
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                ((ArrayNode) n).set(i, sortStatics(n.get(i)));
            }
        }
        return n;
    }

    private static Fabric without(Fabric fabric, Link removed) throws Exception {
        ObjectNode tree = FabricJson.toTree(fabric);
        ArrayNode links = (ArrayNode) tree.get("links");
        for (int i = links.size() - 1; i >= 0; i--) {
            if (links.get(i).get("id").asText().equals(removed.id())) {
                links.remove(i);
            }
        }
        return FabricJson.fromTree(tree);
    }
}
