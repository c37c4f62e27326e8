package io.weft.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import io.weft.fabric.Arc;
import io.weft.fabric.Endpoint;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Role;
import io.weft.plan.ev.Ev;
import io.weft.plan.intent.DeviceIntent;
import io.weft.plan.srv6.Usid;
import io.weft.plan.walk.ForwardingWalk;
import io.weft.plan.walk.WalkException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * For random (src, dst, path among every candidate the DFS finds), the encoding walks back to the
 * same path: always for the uSID carriers, and for the EV whenever the encoder returns one. Every
 * minimal path must be EV-reachable on these fabrics (no parallel links past stage 2).
 */
class ForwardingWalkTest {

    static Stream<Arguments> fabrics() {
        return Stream.of(
                Arguments.of("2-tier with parallel links", TestFabrics.leafSpine(4, 3, 2, 2)),
                Arguments.of("3-tier Clos", TestFabrics.clos3(3, 2, 2, 2)),
                Arguments.of("tiny Dragonfly(1,2,1)", TestFabrics.dragonfly(1, 2, 1)),
                Arguments.of("Dragonfly(2,4,2)", TestFabrics.dragonfly(2, 4, 2)),
                Arguments.of("Petersen (Slim-Fly-like)", TestFabrics.petersen()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fabrics")
    void everyEncodedPathWalksBack(String name, Fabric fabric) throws Exception {
        FabricPlan plan = Planner.plan(fabric, null);
        List<String> nics = plan.nics();
        Random rnd = new Random(42);
        int checked = 0;
        int withEv = 0;
        for (int round = 0; round < 300; round++) {
            String src = nics.get(rnd.nextInt(nics.size()));
            String dst = nics.get(rnd.nextInt(nics.size()));
            if (src.equals(dst)) {
                continue;
            }
            List<List<Arc>> candidates = Paths.candidates(plan, src, dst, 2, 5000);
            assertThat(candidates).as(src + "->" + dst).isNotEmpty();
            List<Arc> path = candidates.get(rnd.nextInt(candidates.size()));
            PathEncoding enc = PathEncoder.encode(plan, path, "default");
            assertThat(ForwardingWalk.walkCarriers(plan, src, dst, enc.carriers(), "default")).isEqualTo(path);
            assertThat(ForwardingWalk.walkCarriers(plan, src, enc.carriers(), "default"))
                    .isEqualTo(path.subList(0, path.size() - 1));
            assertThat(Usid.parse(plan.block(), enc.carriers())).containsExactly(enc.usids());
            checked++;
            if (enc.ev() != null) {
                withEv++;
                assertThat(ForwardingWalk.walkEv(plan, src, dst, enc.ev(), "default")).isEqualTo(path);
            }
            // Minimal paths are always EV-reachable on these fabrics.
            int switchHops = path.size() - 2;
            if (switchHops == plan.distance(path.get(0).to(), path.get(path.size() - 1).from())) {
                assertThat(enc.ev()).as("EV for minimal path " + path).isNotNull();
            }
        }
        assertThat(checked).isGreaterThan(200);
        assertThat(withEv).isGreaterThan(0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fabrics")
    void everyMinimalPathOfOnePairHasItsOwnEv(String name, Fabric fabric) throws Exception {
        FabricPlan plan = Planner.plan(fabric, null);
        String src = plan.nics().get(0);
        String dst = plan.nics().get(plan.nics().size() - 1);
        List<List<Arc>> minimal = Paths.candidates(plan, src, dst, 0, 10_000);
        List<Integer> evs = new ArrayList<>();
        for (List<Arc> p : minimal) {
            PathEncoding enc = PathEncoder.encode(plan, p, "default");
            assertThat(enc.ev()).as(p.toString()).isNotNull();
            evs.add(enc.ev());
        }
        // Distinct paths need distinct EVs, else EV routing could not tell them apart.
        assertThat(evs).doesNotHaveDuplicates();
    }

    @Test
    void clos3InterPodPathUsesEv1ForTheSpineAndEv2ForTheSuperspine() throws Exception {
        FabricPlan plan = Planner.plan(TestFabrics.clos3(2, 2, 2, 2), null);
        // Source leaf p1l1: uplinks to p1s1, p1s2 -> pick p1s2 (index 1). p1s2 uplinks ss2-1, ss2-2 -> index 1.
        int ev = Ev.encode(2, 1, 2, 1);
        List<Arc> walked = ForwardingWalk.walkEv(plan, "h1-1", "h2-2", ev, "default");
        assertThat(walked).extracting(Arc::to).containsExactly("p1l1", "p1s2", "ss2-2", "p2s2", "p2l2", "h2-2");
        PathEncoding enc = PathEncoder.encode(plan, walked, "default");
        assertThat(enc.ev()).isEqualTo(ev);
        // leaf, spine, superspine, spine, leaf + decap = 6 uSIDs: exactly one carrier.
        assertThat(enc.carriers()).hasSize(1);
        assertThat(enc.usids()).containsExactly(plan.nodeId("p1l1"), plan.nodeId("p1s2"), plan.nodeId("ss2-2"),
                plan.nodeId("p2s2"), plan.nodeId("p2l2"), 0xE000);
    }

    @Test
    void aPathOverALinkTheFabricLacksIsRefusedNamingTheLink() throws Exception {
        FabricPlan plan = Planner.plan(TestFabrics.leafSpine(2, 2, 1, 1), null);
        // leaf1 -> spine1 over a link that is not in the fabric (same ends as a real one, another id).
        Link foreign = new Link("leaf1-spine1-extra", new Endpoint("leaf1", "x1"), new Endpoint("spine1", "x1"),
                400, 100);
        List<Arc> path = List.of(plan.attachment("h1-1"), new Arc(foreign, "leaf1"),
                arc(plan, "leaf2-spine1", "spine1"), arc(plan, "h2-1-leaf2", "leaf2"));
        assertThatThrownBy(() -> PathEncoder.encode(plan, path, "default")).isInstanceOf(PlanException.class)
                .hasMessageContaining("link leaf1-spine1-extra is not in fabric");
    }

    @Test
    void parallelLinkHopsCarryUaAndSevenUsidsSpillIntoASecondCarrier() throws Exception {
        FabricPlan plan = Planner.plan(TestFabrics.leafSpine(2, 2, 1, 2), null);
        List<Arc> path = List.of(plan.attachment("h1-1"), arc(plan, "leaf1-spine2.2", "leaf1"),
                arc(plan, "leaf2-spine2.2", "spine2"), arc(plan, "h2-1-leaf2", "leaf2"));
        PathEncoding enc = PathEncoder.encode(plan, path, "default");
        assertThat(enc.usids()).containsExactly(1, 0xE103, 4, 0xE103, 2, 0xE000);
        assertThat(enc.carriers()).containsExactly("fcbb:bb00:1:e103:4:e103:2:e000");
        // The spine's down group to leaf2 is indexed by EV2 (two parallel links, the second one).
        assertThat(Ev.ev2(enc.ev()) % 2).isEqualTo(1);

        Fabric fat = TestFabrics.clos3(2, 1, 1, 1);
        Fabric doubled = fat.with(fat.nodes(), withParallel(fat, "p1l1-p1s1"));
        FabricPlan p2 = Planner.plan(doubled, null);
        List<Arc> longPath = List.of(p2.attachment("h1-1"), arc(p2, "p1l1-p1s1.2", "p1l1"),
                arc(p2, "p1s1-ss1-1", "p1s1"), arc(p2, "p2s1-ss1-1", "ss1-1"), arc(p2, "p2l1-p2s1", "p2s1"),
                arc(p2, "h2-1-p2l1", "p2l1"));
        PathEncoding e2 = PathEncoder.encode(p2, longPath, "default");
        assertThat(e2.usids()).hasSize(7);
        assertThat(e2.carriers()).hasSize(2);
        assertThat(ForwardingWalk.walkCarriers(p2, "h1-1", "h2-1", e2.carriers(), "default")).isEqualTo(longPath);
    }

    @Test
    void sameLeafPairsAndNonMinimalDetoursEncodeButOnlyEvReachablePathsGetAnEv() throws Exception {
        FabricPlan plan = Planner.plan(TestFabrics.leafSpine(3, 2, 2, 1), null);
        List<Arc> local = List.of(plan.attachment("h1-1"), arc(plan, "h1-2-leaf1", "leaf1"));
        PathEncoding near = PathEncoder.encode(plan, local, "default");
        assertThat(near.carriers()).containsExactly("fcbb:bb00:1:e000::");
        assertThat(near.ev()).isEqualTo(0xC000);
        assertThat(ForwardingWalk.walkEv(plan, "h1-1", "h1-2", 0xC000, "default")).isEqualTo(local);

        // leaf1 -> spine1 -> leaf3 -> spine2 -> leaf2: the carriers pin every hop, EV routing cannot.
        List<Arc> detour = List.of(plan.attachment("h1-1"), arc(plan, "leaf1-spine1", "leaf1"),
                arc(plan, "leaf3-spine1", "spine1"), arc(plan, "leaf3-spine2", "leaf3"),
                arc(plan, "leaf2-spine2", "spine2"), arc(plan, "h2-1-leaf2", "leaf2"));
        PathEncoding far = PathEncoder.encode(plan, detour, "default");
        assertThat(far.ev()).isNull();
        assertThat(far.usids()).containsExactly(1, 4, 3, 5, 2, 0xE000);
        assertThat(ForwardingWalk.walkCarriers(plan, "h1-1", "h2-1", far.carriers(), "default")).isEqualTo(detour);
    }

    @Test
    void evWalkReportsAnEcmpChoiceTheTablesDoNotPin() throws Exception {
        // A superspine with two links into pod 2 (to both of its spines): stage 3 is ambiguous.
        Fabric f = TestFabrics.named("amb", "fat-tree").node("l1", Role.LEAF).node("l2", Role.LEAF)
                .node("s1", Role.SPINE).node("s2", Role.SPINE).node("s3", Role.SPINE).node("ss", Role.SUPERSPINE)
                .node("n1", Role.NIC).node("n2", Role.NIC)
                .link("n1", "l1").link("n2", "l2").link("l1", "s1").link("l2", "s2").link("l2", "s3")
                .link("s1", "ss").link("s2", "ss").link("s3", "ss").build();
        FabricPlan plan = Planner.plan(f, null);
        assertThatThrownBy(() -> ForwardingWalk.walkEv(plan, "n1", "n2", 0xC000, "default"))
                .isInstanceOfSatisfying(WalkException.class, e -> {
                    assertThat(e.kind()).isEqualTo(WalkException.Kind.AMBIGUOUS);
                    assertThat(e.switchId()).isEqualTo("ss");
                    assertThat(e.hop()).isEqualTo(3);
                });
        List<Arc> path = List.of(plan.attachment("n1"), arc(plan, "l1-s1", "l1"), arc(plan, "s1-ss", "s1"),
                arc(plan, "s3-ss", "ss"), arc(plan, "l2-s3", "s3"), arc(plan, "n2-l2", "l2"));
        PathEncoding enc = PathEncoder.encode(plan, path, "default");
        assertThat(enc.ev()).isNull();
        assertThat(ForwardingWalk.walkCarriers(plan, "n1", "n2", enc.carriers(), "default")).isEqualTo(path);
    }

    @Test
    void walkReportsAmbiguityDeadEndsLoopsAndBadInputWithThePosition() throws Exception {
        FabricPlan plan = Planner.plan(TestFabrics.leafSpine(2, 2, 1, 1), null);
        String leaf1 = "fcbb:bb00:1:2:e000::";
        assertThatThrownBy(() -> ForwardingWalk.walkCarriers(plan, "h1-1", "h2-1", List.of(leaf1), "default"))
                .isInstanceOfSatisfying(WalkException.class, e -> {
                    assertThat(e.kind()).isEqualTo(WalkException.Kind.AMBIGUOUS);
                    assertThat(e.switchId()).isEqualTo("leaf1");
                    assertThat(e.hop()).isEqualTo(1);
                })
                .hasMessage("ambiguous at leaf1 (hop 1): 2 ECMP next hops towards leaf2's locator");
        assertThat(ForwardingWalk.walkCarriers(plan, "h1-1", "h2-1", List.of("fcbb:bb00:1:3:2:e000::"), "default"))
                .extracting(Arc::to).containsExactly("leaf1", "spine1", "leaf2", "h2-1");
        assertThatThrownBy(() -> ForwardingWalk.walkCarriers(plan, "h1-1", "h2-1",
                List.of("fcbb:bb00:1:3:2::"), "default"))
                .hasMessage("dead end at leaf2 (hop 3): uSIDs used up without a decap function");
        assertThatThrownBy(() -> ForwardingWalk.walkCarriers(plan, "h1-1", "h1-1",
                List.of("fcbb:bb00:1:3:2:e000::"), "default"))
                .hasMessage("dead end at leaf2 (hop 3): decapsulated, but h1-1 is not linked to this switch");
        assertThatThrownBy(() -> ForwardingWalk.walkCarriers(plan, "h1-1", "h2-1",
                List.of("fcbb:bb00:1:3:2:e001::"), "default"))
                .hasMessage("dead end at leaf2 (hop 3): no local function 0xe001");
        assertThatThrownBy(() -> ForwardingWalk.walkCarriers(plan, "h1-1", "h2-1",
                List.of("fcbb:bb00:e000::"), "default"))
                .hasMessageContaining("is not preceded by this switch's uN");
        assertThatThrownBy(() -> ForwardingWalk.walkCarriers(plan, "h1-1", "h2-1",
                List.of("fcbb:bb00:1:3:2:e000::", "fcbb:bb00::"), "default"))
                .hasMessage("bad input: carriers[1]: \"fcbb:bb00::\" holds no uSID");
        int[] bounce = new int[70];
        for (int i = 0; i < bounce.length; i++) {
            bounce[i] = i % 2 == 0 ? 1 : 3;
        }
        assertThatThrownBy(() -> ForwardingWalk.walkCarriers(plan, "h1-1", "h2-1",
                Usid.carriers(plan.block(), bounce), "default"))
                .isInstanceOfSatisfying(WalkException.class,
                        e -> assertThat(e.kind()).isEqualTo(WalkException.Kind.LOOP));
        assertThatThrownBy(() -> ForwardingWalk.walkEv(plan, "h1-1", "h2-1", 0xC000, "blue"))
                .hasMessage("bad input: tenant: \"blue\" is not a tenant of fabric ls-2x2");
        assertThatThrownBy(() -> ForwardingWalk.walkEv(plan, "h1-1", "leaf2", 0xC000, "default"))
                .hasMessageContaining("dstNic: \"leaf2\" is not a NIC");
    }

    @Test
    void encoderRejectsBrokenPathsAndPathsTheWalkCannotReproduce() throws Exception {
        FabricPlan plan = Planner.plan(TestFabrics.leafSpine(2, 2, 1, 1), null);
        List<Arc> gap = List.of(plan.attachment("h1-1"), arc(plan, "leaf2-spine1", "spine1"),
                arc(plan, "h2-1-leaf2", "leaf2"));
        assertThatThrownBy(() -> PathEncoder.encode(plan, gap, "default"))
                .isInstanceOf(PlanException.class)
                .hasMessage("path[1]: starts at spine1 but path[0] ends at leaf1");
        // A NIC with two links to its leaf: delivery uses the home link, so the other is unprovable.
        Fabric twice = TestFabrics.named("twice", "custom").node("leaf1", Role.LEAF).node("leaf2", Role.LEAF)
                .node("n1", Role.NIC).node("n2", Role.NIC)
                .link("n1", "leaf1").link("n2", "leaf2").link("n2", "leaf2").link("leaf1", "leaf2").build();
        FabricPlan p2 = Planner.plan(twice, null);
        assertThat(p2.evReachesEveryPort()).as("n2's second link to leaf2 never receives").isFalse();
        assertThat(plan.evReachesEveryPort()).as("single-homed NICs").isTrue();
        List<Arc> viaSecond = List.of(p2.attachment("n1"), arc(p2, "leaf1-leaf2", "leaf1"),
                arc(p2, "n2-leaf2.2", "leaf2"));
        assertThatThrownBy(() -> PathEncoder.encode(p2, viaSecond, "default"))
                .isInstanceOf(PlanException.class)
                .hasMessageContaining("not the requested");
    }

    @Test
    void multiHomedNicReachesItsSecondPlaneByUsidAndByEv() throws Exception {
        Fabric twoPlanes = TestFabrics.named("planes", "rail").node("a1", Role.LEAF).node("b1", Role.LEAF)
                .node("a2", Role.LEAF).node("b2", Role.LEAF).node("sa", Role.SPINE).node("sb", Role.SPINE)
                .node("sb2", Role.SPINE).node("n1", Role.NIC).node("n2", Role.NIC)
                .link("n1", "a1").link("n1", "b1").link("n2", "a2").link("n2", "b2")
                .link("a1", "sa").link("a2", "sa").link("b1", "sb").link("b2", "sb")
                .link("b1", "sb2").link("b2", "sb2").build();
        FabricPlan plan = Planner.plan(twoPlanes, null);
        assertThat(plan.evReachesEveryPort()).isTrue();
        assertThat(plan.deliverySwitch("n2", "b1")).isEqualTo("b2");
        assertThat(plan.deliverySwitch("n2", "a1")).isEqualTo("a2");
        for (String spine : List.of("sb", "sb2")) {
            List<Arc> planeB = List.of(arc(plan, "n1-b1", "n1"), arc(plan, "b1-" + spine, "b1"),
                    arc(plan, "b2-" + spine, spine), arc(plan, "n2-b2", "b2"));
            PathEncoding enc = PathEncoder.encode(plan, planeB, "default");
            assertThat(ForwardingWalk.walkCarriers(plan, "n1", "n2", enc.carriers(), "default")).isEqualTo(planeB);
            // Plane B's switches route n2's address to b2, so the EV sent out n1's b1 port walks there ...
            assertThat(enc.ev()).isNotNull();
            assertThat(ForwardingWalk.walkEv(plan, "n1", "n2", enc.ev(), "default", "n1-b1")).isEqualTo(planeB);
            // ... while the same source port out the home port stays on plane A.
            assertThat(ForwardingWalk.walkEv(plan, "n1", "n2", enc.ev(), "default").get(1).to()).isEqualTo("sa");
            // Its EV1 comes from the second port's window: no plane-A path to n2 has that source port.
            assertThat(Ev.ev1(enc.ev())).isBetween(0x80, 0xBF);
        }
        List<Arc> planeA = List.of(plan.attachment("n1"), arc(plan, "a1-sa", "a1"), arc(plan, "a2-sa", "sa"),
                arc(plan, "n2-a2", "a2"));
        assertThat(Ev.ev1(PathEncoder.encode(plan, planeA, "default").ev())).isBetween(0xC0, 0xFF);
        for (int rank = 0; rank < 6; rank++) {
            int ev = Ev.encodeForPort(3, 1, 4, 2, rank);
            assertThat(Ev.index(Ev.ev1(ev), 3)).isEqualTo(1);
            assertThat(Ev.index(Ev.ev2(ev), 4)).isEqualTo(2);
            if (rank == 0 || rank > 3) {
                assertThat(ev).isEqualTo(Ev.encode(3, 1, 4, 2));
            }
        }
        String route = plan.nicAddress("n2") + "/128";
        assertThat(DeviceIntent.render(plan, "sb").toString()).contains(route);
        assertThat(DeviceIntent.render(plan, "b1").toString()).contains(route);
        assertThat(DeviceIntent.render(plan, "sa").toString()).doesNotContain(route);
        assertThatThrownBy(() -> ForwardingWalk.walkEv(plan, "n1", "n2", 0xC000, "default", "n2-b2"))
                .isInstanceOf(WalkException.class).hasMessageContaining("firstLinkId: \"n2-b2\"");
    }

    static Arc arc(FabricPlan plan, String linkId, String from) {
        return new Arc(plan.fabric().link(linkId), from);
    }

    private static List<io.weft.fabric.Link> withParallel(Fabric f, String linkId) {
        List<io.weft.fabric.Link> links = new ArrayList<>(f.links());
        io.weft.fabric.Link l = f.link(linkId);
        links.add(new io.weft.fabric.Link(linkId + ".2", new io.weft.fabric.Endpoint(l.a().node(), "x1"),
                new io.weft.fabric.Endpoint(l.b().node(), "x2"), 400, 0));
        return links;
    }
}
