package io.weft.southbound.gnmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grpc.inprocess.InProcessChannelBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The provisioner against in-process gNMI servers (real grpc-java transport and stubs, fake switch
 * behind them): full push, diff-only re-plans, and each failure the issue names.
 */
class ProvisionerTest {
    private static final ChannelFactory IN_PROCESS = t -> InProcessChannelBuilder.forName(t.address()).build();
    private static int run;

    private final List<String> log = new CopyOnWriteArrayList<>();
    private final Map<String, FakeSwitch> fakes = new LinkedHashMap<>();
    private Map<String, ObjectNode> intents;
    private Map<String, GnmiTarget> targets;
    private Provisioner provisioner;

    @BeforeEach
    void setUp() throws Exception {
        run++;
        intents = Intents.leafSpine2x2();
        targets = new LinkedHashMap<>();
        for (String sw : intents.keySet()) {
            String name = "gnmi-test-" + run + "-" + sw;
            targets.put(sw, GnmiTarget.plaintext(sw, name, 9339));
            fakes.put(sw, new FakeSwitch(name));
        }
    }

    @AfterEach
    void tearDown() {
        if (provisioner != null) {
            provisioner.close();
        }
        fakes.values().forEach(FakeSwitch::close);
    }

    private Provisioner provisioner(long rpcTimeoutMs, int maxInFlight, long resyncMs) {
        provisioner = new Provisioner(new ProvisionerConfig(maxInFlight, rpcTimeoutMs, 20, 200, resyncMs),
                IN_PROCESS, log::add);
        return provisioner;
    }

    private void startAll() throws Exception {
        for (FakeSwitch f : fakes.values()) {
            f.start();
        }
    }

    private static void await(String what, long timeoutMs, java.util.function.BooleanSupplier cond) throws Exception {
        long end = System.currentTimeMillis() + timeoutMs;
        while (!cond.getAsBoolean()) {
            if (System.currentTimeMillis() > end) {
                throw new AssertionError("timed out after " + timeoutMs + " ms waiting for " + what);
            }
            Thread.sleep(5);
        }
    }

    private void awaitState(String sw, DeviceState state, long timeoutMs) throws Exception {
        await(sw + " " + state + " (now " + provisioner.device(sw) + ")", timeoutMs,
                () -> provisioner.device(sw) != null && provisioner.device(sw).state() == state);
    }

    /** The switch holds exactly the intent's ops, compared in canonical form (keyed lists in key order). */
    private void assertStoreMatches(String sw, JsonNode intent) {
        Map<String, String> expected = new LinkedHashMap<>();
        for (JsonNode op : intent.get("replace")) {
            expected.put(GnmiPaths.key(op.get("origin").asText(), op.get("path").asText()), canonical(op.get("value")));
        }
        Map<String, String> actual = new LinkedHashMap<>();
        fakes.get(sw).store.keySet().forEach(k -> actual.put(k, canonical(fakes.get(sw).value(k))));
        assertThat(actual).as("config on " + sw).isEqualTo(expected);
    }

    private static String canonical(JsonNode v) {
        return new String(CanonicalJson.bytes(v), java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void fullPushThenInSyncConfirmedByGet() throws Exception {
        startAll();
        provisioner(2000, 16, 60_000).provision(targets, intents);
        assertThat(provisioner.awaitIdle(5000)).isTrue();
        for (String sw : intents.keySet()) {
            DeviceStatus s = provisioner.device(sw);
            assertThat(s.state()).as(sw).isEqualTo(DeviceState.IN_SYNC);
            assertThat(s.lastSyncMs()).isPositive();
            FakeSwitch f = fakes.get(sw);
            assertThat(f.sets).as("one SetRequest per switch push").hasSize(1);
            assertThat(f.sets.get(0).getPrefix().getTarget()).isEqualTo(sw);
            assertThat(f.opsInSet(0)).isEqualTo(Intents.opCount(intents.get(sw)));
            assertThat(s.opsSent()).isEqualTo(Intents.opCount(intents.get(sw)));
            assertThat(f.sets.get(0).getReplace(0).getVal().getJsonIetfVal().toStringUtf8())
                    .as("compact JSON").doesNotContain("\n").startsWith("{");
            assertStoreMatches(sw, intents.get(sw));
        }
    }

    @Test
    void rePlanSendsOnlyTheOpsThatChanged() throws Exception {
        startAll();
        provisioner(2000, 16, 60_000).provision(targets, intents);
        assertThat(provisioner.awaitIdle(5000)).isTrue();

        // The same plan again: nothing is sent anywhere.
        provisioner.provision(targets, Intents.leafSpine2x2());
        assertThat(provisioner.awaitIdle(5000)).isTrue();
        fakes.values().forEach(f -> assertThat(f.sets).as(f.name).hasSize(1));

        // leaf1: one op changes value, one op (an interface) is no longer wanted.
        ObjectNode leaf1 = intents.get("leaf1");
        int last = Intents.opCount(leaf1) - 1;
        String removed = Intents.plainPath(leaf1, 3);
        ObjectNode next = Intents.withoutOp(Intents.withChangedOp(leaf1, last, "v2"), 3);
        Map<String, ObjectNode> replan = new LinkedHashMap<>(intents);
        replan.put("leaf1", next);
        provisioner.provision(targets, replan);
        assertThat(provisioner.awaitIdle(5000)).isTrue();

        FakeSwitch f = fakes.get("leaf1");
        assertThat(f.sets).hasSize(2);
        assertThat(f.sets.get(1).getReplaceCount()).as("replaced ops").isEqualTo(1);
        assertThat(f.sets.get(1).getDeleteCount()).as("deleted ops").isEqualTo(1);
        assertThat(GnmiPaths.format(f.sets.get(1).getDelete(0))).isEqualTo("openconfig:" + removed);
        assertThat(provisioner.device("leaf1").lastPushOps()).isEqualTo(2);
        assertStoreMatches("leaf1", next);
        for (String other : List.of("leaf2", "spine1", "spine2")) {
            assertThat(fakes.get(other).sets).as(other + " untouched").hasSize(1);
        }
    }

    /** The routes of protocol {@code protocol} in the network instance op named {@code instance}. */
    private static com.fasterxml.jackson.databind.node.ArrayNode routes(ObjectNode intent,
            String instance, String protocol) {
        for (JsonNode op : intent.get("replace")) {
            if (op.get("path").asText().endsWith("[name=" + instance + "]")) {
                for (JsonNode p : op.get("value").get("protocols").get("protocol")) {
                    if (p.get("name").asText().equals(protocol)) {
                        return (com.fasterxml.jackson.databind.node.ArrayNode) p.get("static-routes").get("static");
                    }
                }
            }
        }
        throw new AssertionError("no protocol " + protocol + " in " + instance);
    }

    private static String routePath(String instance, String protocol, String prefix) {
        return "openconfig:/network-instances/network-instance[name=" + instance
                + "]/protocols/protocol[identifier=STATIC][name="
                + protocol + "]/static-routes/static[prefix=" + prefix + "]";
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "switch answers in its own member order: {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void rePlanOfAFewRoutesSendsOnlyThoseRoutes(boolean reorder) throws Exception {
        startAll();
        fakes.values().forEach(f -> f.reorder = reorder);
        provisioner(2000, 16, 60_000).provision(targets, intents);
        assertThat(provisioner.awaitIdle(5000)).isTrue();

        // leaf1: one underlay route and one VRF route change next hop, an EV route goes, a VRF route comes.
        ObjectNode next = intents.get("leaf1").deepCopy();
        ObjectNode underlay = (ObjectNode) routes(next, "DEFAULT", "STATIC").get(0);
        ((ObjectNode) underlay.at("/next-hops/next-hop/0/config")).put("next-hop", "fe80::99");
        ObjectNode minimal = (ObjectNode) routes(next, "Vrf-default", "MINIMAL").get(0);
        ((ObjectNode) minimal.at("/next-hops/next-hop/0/config")).put("next-hop", "fe80::98");
        com.fasterxml.jackson.databind.node.ArrayNode ev1 = routes(next, "Vrf-default", "EV-STAGE1");
        String gone = ev1.get(0).get("prefix").asText();
        ev1.remove(0);
        ObjectNode added = minimal.deepCopy();
        added.put("prefix", "2001:db8:99::/64");
        ((ObjectNode) added.get("config")).put("prefix", "2001:db8:99::/64");
        routes(next, "Vrf-default", "MINIMAL").add(added);
        Map<String, ObjectNode> replan = new LinkedHashMap<>(intents);
        replan.put("leaf1", next);
        provisioner.provision(targets, replan);
        assertThat(provisioner.awaitIdle(5000)).isTrue();

        FakeSwitch f = fakes.get("leaf1");
        assertThat(f.sets).hasSize(2);
        List<String> replaced = new ArrayList<>();
        f.sets.get(1).getReplaceList().forEach(u -> replaced.add(GnmiPaths.format(u.getPath())));
        assertThat(replaced).as("single routes, no whole instance").containsExactlyInAnyOrder(
                routePath("DEFAULT", "STATIC", underlay.get("prefix").asText()),
                routePath("Vrf-default", "MINIMAL", minimal.get("prefix").asText()),
                routePath("Vrf-default", "MINIMAL", "2001:db8:99::/64"));
        assertThat(f.sets.get(1).getDeleteList()).singleElement()
                .satisfies(d -> assertThat(GnmiPaths.format(d)).isEqualTo(routePath("Vrf-default", "EV-STAGE1", gone)));
        assertThat(f.sets.get(1).getReplace(0).getVal().getJsonIetfVal().toStringUtf8())
                .as("a route entry's value is the entry itself").startsWith("{\"config\":{\"prefix\":");
        assertThat(provisioner.device("leaf1").state()).isEqualTo(DeviceState.IN_SYNC);
        assertThat(provisioner.device("leaf1").lastPushOps()).isEqualTo(4);
        assertStoreMatches("leaf1", next);
        for (String other : List.of("leaf2", "spine1", "spine2")) {
            assertThat(fakes.get(other).sets).as(other + " untouched").hasSize(1);
        }

        // A read-back of everything afterwards finds the switch as intended: nothing more is sent.
        provisioner.resyncAll();
        assertThat(provisioner.awaitIdle(5000)).isTrue();
        assertThat(f.sets).hasSize(2);
    }

    /**
     * Route-level changes (IntentChanges) of a link going down and coming back: each switch the changes
     * name gets one Set of single routes (and, at the link's ends, the port's interface deleted or
     * replaced), the others nothing; every switch then holds exactly the new plan's rendered intent,
     * and neither a read-back of everything nor a whole hand-over of the new plan sends anything more.
     */
    @Test
    void routeLevelChangesOfALinkDownAndUpMatchTheNewRenderExactly() throws Exception {
        startAll();
        io.weft.fabric.Fabric fabric =
                io.weft.fabric.FabricJson.parse(io.weft.contracts.Contracts.read("examples/leaf-spine-2x2.json"));
        io.weft.plan.FabricPlan a = io.weft.plan.Planner.plan(fabric, null);
        provisioner(2000, 16, 60_000).provision(targets, a, sw -> io.weft.plan.intent.DeviceIntent.render(a, sw));
        assertThat(provisioner.awaitIdle(5000)).isTrue();

        com.fasterxml.jackson.databind.node.ObjectNode tree = io.weft.fabric.FabricJson.toTree(fabric);
        com.fasterxml.jackson.databind.node.ArrayNode links =
                (com.fasterxml.jackson.databind.node.ArrayNode) tree.get("links");
        for (int i = links.size() - 1; i >= 0; i--) {
            if (links.get(i).get("id").asText().equals("leaf1-spine2")) {
                links.remove(i);
            }
        }
        io.weft.plan.FabricPlan b = io.weft.plan.Planner.plan(io.weft.fabric.FabricJson.fromTree(tree), a);
        io.weft.plan.FabricPlan c = io.weft.plan.Planner.plan(fabric, b);
        for (io.weft.plan.FabricPlan[] step : new io.weft.plan.FabricPlan[][] {{a, b}, {b, c}}) {
            io.weft.plan.FabricPlan from = step[0];
            io.weft.plan.FabricPlan to = step[1];
            Map<String, io.weft.plan.intent.IntentChanges.SwitchChange> changes =
                    io.weft.plan.intent.IntentChanges.between(from, to);
            java.util.Set<String> differ = new java.util.TreeSet<>();
            for (String sw : targets.keySet()) {
                if (!CanonicalJson.digest(io.weft.plan.intent.DeviceIntent.render(from, sw))
                        .equals(CanonicalJson.digest(io.weft.plan.intent.DeviceIntent.render(to, sw)))) {
                    differ.add(sw);
                }
            }
            assertThat(changes.keySet()).as("exactly the switches whose render differs")
                    .containsExactlyInAnyOrderElementsOf(differ).contains("leaf1", "leaf2", "spine2");
            Map<String, Integer> before = new LinkedHashMap<>();
            fakes.forEach((sw, f) -> before.put(sw, f.sets.size()));
            java.util.Set<String> rendered = java.util.concurrent.ConcurrentHashMap.newKeySet();
            assertThat(provisioner.provisionChanges(targets, from, to, changes, sw -> {
                rendered.add(sw);
                return io.weft.plan.intent.DeviceIntent.render(to, sw);
            })).isEmpty();
            assertThat(provisioner.awaitIdle(5000)).isTrue();
            // Only an end of the link may be rendered whole: on a 2x2 most of its few routes change, and
            // one instance value is smaller than many route paths.
            assertThat(rendered).as("switches rendered whole").isSubsetOf("leaf1", "spine2");
            for (String sw : targets.keySet()) {
                FakeSwitch f = fakes.get(sw);
                assertThat(provisioner.device(sw).state()).as(sw).isEqualTo(DeviceState.IN_SYNC);
                assertThat(f.sets).as(sw).hasSize(before.get(sw) + (changes.containsKey(sw) ? 1 : 0));
                assertStoreMatches(sw, io.weft.plan.intent.DeviceIntent.render(to, sw));
            }
            FakeSwitch leaf2 = fakes.get("leaf2");
            assertThat(leaf2.sets.get(leaf2.sets.size() - 1).getReplaceList())
                    .as("leaf2 is no end of the link: single routes only").isNotEmpty()
                    .allSatisfy(u -> assertThat(GnmiPaths.format(u.getPath()))
                            .contains("/static-routes/static[prefix="));

            provisioner.resyncAll();
            assertThat(provisioner.awaitIdle(5000)).isTrue();
            provisioner.provision(targets, to, sw -> io.weft.plan.intent.DeviceIntent.render(to, sw));
            assertThat(provisioner.awaitIdle(5000)).isTrue();
            for (String sw : targets.keySet()) {
                assertThat(fakes.get(sw).sets).as(sw + ": nothing more after read-back and whole hand-over")
                        .hasSize(before.get(sw) + (changes.containsKey(sw) ? 1 : 0));
            }
        }
    }

    @Test
    void changesFromAVersionTheProvisionerDoesNotHoldAreAWholeHandOver() throws Exception {
        startAll();
        io.weft.fabric.Fabric fabric =
                io.weft.fabric.FabricJson.parse(io.weft.contracts.Contracts.read("examples/leaf-spine-2x2.json"));
        io.weft.plan.FabricPlan a = io.weft.plan.Planner.plan(fabric, null);
        // no version
        provisioner(2000, 16, 60_000).provision(targets, sw -> io.weft.plan.intent.DeviceIntent.render(a, sw));
        assertThat(provisioner.awaitIdle(5000)).isTrue();
        com.fasterxml.jackson.databind.node.ObjectNode tree = io.weft.fabric.FabricJson.toTree(fabric);
        ((com.fasterxml.jackson.databind.node.ArrayNode) tree.get("links")).remove(0);
        io.weft.plan.FabricPlan b = io.weft.plan.Planner.plan(io.weft.fabric.FabricJson.fromTree(tree), a);
        java.util.Set<String> rendered = java.util.concurrent.ConcurrentHashMap.newKeySet();
        provisioner.provisionChanges(targets, a, b, io.weft.plan.intent.IntentChanges.between(a, b), sw -> {
            rendered.add(sw);
            return io.weft.plan.intent.DeviceIntent.render(b, sw);
        });
        assertThat(provisioner.awaitIdle(5000)).isTrue();
        assertThat(rendered).as("every switch rendered: the changes were not applied blindly")
                .isEqualTo(targets.keySet());
        for (String sw : targets.keySet()) {
            assertStoreMatches(sw, io.weft.plan.intent.DeviceIntent.render(b, sw));
        }
    }

    /** contracts/gnmi/vectors/single-routes.json: what the controller sends for each re-plan there, exactly. */
    @Test
    void singleRouteVectorsAreExactlyWhatIsSent() throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        java.nio.file.Path repo = java.nio.file.Path.of("../..");
        JsonNode vectors = json.readTree(repo.resolve("contracts/gnmi/vectors/single-routes.json").toFile());
        provisioner(2000, 16, 60_000);
        int i = 0;
        for (JsonNode c : vectors.get("cases")) {
            ObjectNode before = (ObjectNode) json.readTree(repo.resolve(c.get("before").asText()).toFile());
            String sw = before.get("target").asText();
            FakeSwitch f = new FakeSwitch("gnmi-vector-" + run + "-" + i++).start();
            fakes.put("vector-" + i, f);
            Map<String, GnmiTarget> target = Map.of(sw, GnmiTarget.plaintext(sw, f.name, 9339));
            provisioner.provision(target, Map.of(sw, before));
            assertThat(provisioner.awaitIdle(5000)).isTrue();

            ObjectNode after = before.deepCopy();
            for (JsonNode op : after.get("replace")) {
                String key = GnmiPaths.key(op.get("origin").asText(), op.get("path").asText());
                if (c.get("after").has(key)) {
                    ((ObjectNode) op).set("value", c.get("after").get(key));
                }
            }
            provisioner.provision(target, Map.of(sw, after));
            assertThat(provisioner.awaitIdle(5000)).isTrue();
            assertThat(provisioner.device(sw).state()).as(c.get("name").asText()).isEqualTo(DeviceState.IN_SYNC);
            assertThat(f.sets).hasSize(2);
            Map<String, JsonNode> sent = new LinkedHashMap<>();
            for (com.github.gnmi.proto.Update u : f.sets.get(1).getReplaceList()) {
                sent.put(GnmiPaths.format(u.getPath()), json.readTree(u.getVal().getJsonIetfVal().toByteArray()));
            }
            Map<String, JsonNode> expected = new LinkedHashMap<>();
            c.get("set").get("replace").forEach(r -> expected.put(r.get("path").asText(), r.get("value")));
            assertThat(sent).as(c.get("name").asText() + ": replaced").isEqualTo(expected);
            List<String> deleted = new ArrayList<>();
            f.sets.get(1).getDeleteList().forEach(d -> deleted.add(GnmiPaths.format(d)));
            List<String> expectedDeletes = new ArrayList<>();
            c.get("set").get("delete").forEach(d -> expectedDeletes.add(d.asText()));
            assertThat(deleted).as(c.get("name").asText() + ": deleted")
                    .containsExactlyInAnyOrderElementsOf(expectedDeletes);
            c.get("after").fields().forEachRemaining(e -> assertThat(canonical(f.value(e.getKey())))
                    .as(e.getKey()).isEqualTo(canonical(e.getValue())));
        }
    }

    @Test
    void aRouteLostBehindWeftsBackIsPutBackAlone() throws Exception {
        startAll();
        provisioner(2000, 16, 60_000).provision(targets, intents);
        assertThat(provisioner.awaitIdle(5000)).isTrue();
        String prefix = routes(intents.get("leaf1"), "Vrf-default", "MINIMAL").get(1).get("prefix").asText();
        fakes.get("leaf1").dropRoute("openconfig:/network-instances/network-instance[name=Vrf-default]", "MINIMAL",
                prefix);
        provisioner.resyncAll();
        assertThat(provisioner.awaitIdle(5000)).isTrue();
        FakeSwitch f = fakes.get("leaf1");
        assertThat(f.sets).hasSize(2);
        assertThat(f.sets.get(1).getReplaceList()).singleElement()
                .satisfies(u -> assertThat(GnmiPaths.format(u.getPath()))
                        .isEqualTo(routePath("Vrf-default", "MINIMAL", prefix)));
        assertThat(f.sets.get(1).getDeleteList()).isEmpty();
        assertStoreMatches("leaf1", intents.get("leaf1"));
    }

    @Test
    void unreachableUntilTheServerAppearsThenInSync() throws Exception {
        provisioner(500, 16, 60_000).provision(targets, intents);
        awaitState("leaf1", DeviceState.UNREACHABLE, 3000);
        // UNAVAILABLE (nobody listens); on a machine loaded enough that the first call starts after its
        // 500 ms deadline, DEADLINE_EXCEEDED: either way the switch is unreachable, which is what counts.
        assertThat(provisioner.device("leaf1").lastError()).contains("leaf1")
                .containsAnyOf("UNAVAILABLE", "DEADLINE_EXCEEDED");
        assertThat(log).anyMatch(l -> l.contains("leaf1") && l.contains("unreachable"));

        startAll();
        for (String sw : intents.keySet()) {
            awaitState(sw, DeviceState.IN_SYNC, 3000);
            assertStoreMatches(sw, intents.get(sw));
        }
        assertThat(provisioner.device("leaf1").lastError()).isNull();
    }

    @Test
    void rejectedSetKeepsTheSwitchTextAndNamesThePath() throws Exception {
        startAll();
        String bad = Intents.plainPath(intents.get("leaf1"), 3); // an interface
        fakes.get("leaf1").rejectPath = bad;
        provisioner(2000, 16, 60_000).provision(targets, intents);
        awaitState("leaf1", DeviceState.REJECTED, 3000);
        String err = provisioner.device("leaf1").lastError();
        assertThat(err).contains("leaf1").contains(bad).contains("INVALID_ARGUMENT").contains("config.mtu");
        assertThat(log).anyMatch(l -> l.contains("leaf1") && l.contains(bad) && l.contains("config.mtu"));
        assertThat(fakes.get("leaf1").store).as("all or nothing").isEmpty();
        awaitState("leaf2", DeviceState.IN_SYNC, 3000);

        // The operator fixes the switch; the next changed intent goes through.
        fakes.get("leaf1").rejectPath = null;
        Map<String, ObjectNode> replan = new LinkedHashMap<>(intents);
        replan.put("leaf1", Intents.withChangedOp(intents.get("leaf1"), 0, "fixed"));
        provisioner.provision(targets, replan);
        awaitState("leaf1", DeviceState.IN_SYNC, 3000);
        assertStoreMatches("leaf1", replan.get("leaf1"));
    }

    @Test
    void switchWithoutTheModelsIsRejectedWithTheReason() throws Exception {
        startAll();
        fakes.get("spine1").models = List.of("openconfig-interfaces");
        provisioner(2000, 16, 60_000).provision(targets, intents);
        awaitState("spine1", DeviceState.REJECTED, 3000);
        assertThat(provisioner.device("spine1").lastError())
                .contains("spine1").contains("model sonic-db").contains("model openconfig-network-instance");
        assertThat(fakes.get("spine1").sets).isEmpty();
        awaitState("spine2", DeviceState.IN_SYNC, 3000);
    }

    @Test
    void slowSwitchHitsItsDeadlineAndNobodyElseWaits() throws Exception {
        startAll();
        fakes.get("spine1").delayMs = 3000;
        long t0 = System.currentTimeMillis();
        // Two workers: the slow switch holds one for a deadline, the other serves the three others.
        provisioner(300, 2, 60_000).provision(targets, intents);
        for (String sw : List.of("leaf1", "leaf2", "spine2")) {
            awaitState(sw, DeviceState.IN_SYNC, 2000);
        }
        long othersMs = System.currentTimeMillis() - t0;
        awaitState("spine1", DeviceState.UNREACHABLE, 2000);
        assertThat(provisioner.device("spine1").lastError()).contains("DEADLINE_EXCEEDED");
        assertThat(othersMs).as("others in sync long before the slow switch's 3 s").isLessThan(2000);

        fakes.get("spine1").delayMs = 0;
        awaitState("spine1", DeviceState.IN_SYNC, 5000);
    }

    @Test
    void connectionDroppedInTheMiddleOfAPushIsRetried() throws Exception {
        startAll();
        FakeSwitch leaf2 = fakes.get("leaf2");
        leaf2.dropNextSet = true;
        provisioner(1000, 16, 60_000).provision(targets, intents);
        awaitState("leaf2", DeviceState.UNREACHABLE, 3000);
        assertThat(leaf2.sets).isEmpty();
        leaf2.start(); // the agent comes back
        awaitState("leaf2", DeviceState.IN_SYNC, 3000);
        assertThat(leaf2.sets).hasSize(1);
        assertStoreMatches("leaf2", intents.get("leaf2"));
    }

    @Test
    void rePlansDuringAnOutageCoalesceIntoOnePush() throws Exception {
        for (String sw : List.of("leaf2", "spine1", "spine2")) {
            fakes.get(sw).start();
        }
        provisioner(300, 16, 60_000).provision(targets, intents);
        awaitState("leaf1", DeviceState.UNREACHABLE, 3000);
        ObjectNode latest = null;
        for (int i = 1; i <= 5; i++) {
            latest = Intents.withChangedOp(intents.get("leaf1"), 0, "replan-" + i);
            Map<String, ObjectNode> replan = new LinkedHashMap<>(intents);
            replan.put("leaf1", latest);
            provisioner.provision(targets, replan);
            Thread.sleep(20);
        }
        fakes.get("leaf1").start();
        awaitState("leaf1", DeviceState.IN_SYNC, 3000);
        assertThat(fakes.get("leaf1").sets).as("one push after the outage").hasSize(1);
        assertStoreMatches("leaf1", latest);
    }

    @Test
    void switchRestartedWithAnEmptyKernelIsResyncedWithoutAManualStep() throws Exception {
        startAll();
        provisioner(500, 16, 200).provision(targets, intents);
        assertThat(provisioner.awaitIdle(5000)).isTrue();
        awaitState("spine2", DeviceState.IN_SYNC, 3000);
        fakes.get("spine2").restartEmpty();
        await("spine2 re-pushed after its restart", 5000, () -> fakes.get("spine2").sets.size() >= 2);
        awaitState("spine2", DeviceState.IN_SYNC, 3000);
        assertStoreMatches("spine2", intents.get("spine2"));
        assertThat(fakes.get("leaf1").sets).as("healthy switches are read back, not re-pushed").hasSize(1);
    }

    @Test
    void readBackInAnotherMemberOrderCountsAsConfirmed() throws Exception {
        startAll();
        fakes.values().forEach(f -> f.reorder = true);
        provisioner(2000, 16, 60_000).provision(targets, intents);
        assertThat(provisioner.awaitIdle(5000)).isTrue();
        for (String sw : intents.keySet()) {
            assertThat(provisioner.device(sw).state()).as(sw).isEqualTo(DeviceState.IN_SYNC);
        }
        provisioner.resyncAll();
        assertThat(provisioner.awaitIdle(5000)).isTrue();
        fakes.values().forEach(f -> assertThat(f.sets).as(f.name + ": nothing re-sent").hasSize(1));
    }

    @Test
    void onDemandIntentsAreRenderedAgainWhenASwitchLosesThem() throws Exception {
        startAll();
        java.util.concurrent.atomic.AtomicInteger renders = new java.util.concurrent.atomic.AtomicInteger();
        provisioner(500, 16, 60_000).provision(targets, sw -> {
            renders.incrementAndGet();
            return intents.get(sw);
        });
        assertThat(provisioner.awaitIdle(5000)).isTrue();
        assertThat(renders.get()).isEqualTo(4);
        fakes.get("leaf1").store.clear(); // lost behind Weft's back
        provisioner.resyncAll();
        assertThat(provisioner.awaitIdle(5000)).isTrue();
        assertThat(renders.get()).as("leaf1 rendered again to re-send").isEqualTo(5);
        assertThat(fakes.get("leaf1").sets).hasSize(2);
        assertStoreMatches("leaf1", intents.get("leaf1"));
    }

    @Test
    void switchesNoLongerInTheFabricAreForgotten() throws Exception {
        startAll();
        provisioner(2000, 16, 60_000).provision(targets, intents);
        assertThat(provisioner.awaitIdle(5000)).isTrue();
        Map<String, GnmiTarget> fewer = new LinkedHashMap<>(targets);
        fewer.remove("spine2");
        provisioner.provision(fewer, intents);
        List<String> ids = new ArrayList<>();
        provisioner.devices().forEach(d -> ids.add(d.device()));
        assertThat(ids).containsExactly("leaf1", "leaf2", "spine1");
    }

    @Test
    void malformedIntentIsReportedNamingTheField() throws Exception {
        startAll();
        Map<String, ObjectNode> bad = new LinkedHashMap<>(intents);
        ObjectNode leaf1 = intents.get("leaf1").deepCopy();
        ((ObjectNode) leaf1.get("replace").get(2)).put("path", "interfaces/no-slash");
        bad.put("leaf1", leaf1);
        List<String> problems = provisioner(2000, 16, 60_000).provision(targets, bad);
        assertThat(problems).singleElement().asString().contains("leaf1").contains("replace[2].path");
        assertThat(provisioner.awaitIdle(5000)).isTrue();
        assertThat(provisioner.device("leaf2").state()).isEqualTo(DeviceState.IN_SYNC);
        assertThat(provisioner.device("leaf1").state()).as("no valid intent is not in sync")
                .isEqualTo(DeviceState.PENDING);
        assertThat(provisioner.device("leaf1").lastError()).contains("no valid intent");
        assertThat(fakes.get("leaf1").sets).isEmpty();
    }
}
