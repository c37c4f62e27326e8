package io.weft.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Role;
import io.weft.plan.srv6.Usid;
import io.weft.plan.walk.CompiledWalk;
import io.weft.plan.walk.ForwardingWalk;
import io.weft.plan.walk.WalkException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The compiled walk (arc numbers) against the reference {@link ForwardingWalk} (ids): the same arcs
 * or the same kind of refusal, and the same encodings, on every fabric shape the walk knows
 * (parallel links and uA, three tiers, Dragonfly, a Slim-Fly-like graph, failed links that make
 * routes ambiguous or dead, multi-homed NICs, two tenants). Three levels:
 * every path up to two hops longer than minimal between one NIC of every pair of switches;
 * seeded random paths, broken ones included; seeded random uSID lists and EVs walked directly.
 */
class CompiledWalkDifferentialTest {

    static Stream<Arguments> fabrics() {
        return Stream.of(
                Arguments.of("2-tier with parallel links", TestFabrics.leafSpine(4, 3, 2, 2)),
                Arguments.of("3-tier Clos", TestFabrics.clos3(3, 2, 2, 2)),
                Arguments.of("Dragonfly(2,4,2)", TestFabrics.dragonfly(2, 4, 2)),
                Arguments.of("Petersen (Slim-Fly-like)", TestFabrics.petersen()),
                Arguments.of("3-tier Clos, failed links", withoutSomeSwitchLinks(TestFabrics.clos3(3, 3, 3, 2), 7)),
                Arguments.of("Dragonfly, failed links", withoutSomeSwitchLinks(TestFabrics.dragonfly(1, 4, 2), 9)),
                Arguments.of("multi-homed NICs, two tenants", planes()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fabrics")
    void everyPathBetweenEverySwitchPairEncodesAsTheReferenceDoes(String name, Fabric fabric) throws Exception {
        FabricPlan plan = Planner.plan(fabric, null);
        List<String> nics = oneNicPerSwitch(plan);
        int[] seen = new int[3];
        for (String src : nics) {
            for (String dst : nics) {
                if (src.equals(dst)) {
                    continue;
                }
                for (List<Arc> path : paths(plan, src, dst, 2, 60)) {
                    for (String tenant : plan.tenants()) {
                        seen[same(plan, path, tenant)]++;
                    }
                }
            }
        }
        assertThat(seen[PROVEN_WITH_EV]).as("paths proven with an EV").isGreaterThan(20);
        if (!name.startsWith("Petersen")) { // every router link is in both EV tables there
            assertThat(seen[PROVEN]).as("paths proven, EV routing cannot reach them").isGreaterThan(20);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fabrics")
    void seededRandomPathsEncodeAsTheReferenceDoes(String name, Fabric fabric) throws Exception {
        FabricPlan plan = Planner.plan(fabric, null);
        CompiledWalk w = plan.compiledWalk();
        Random rnd = new Random(name.hashCode());
        List<String> nics = plan.nics();
        List<String> tenants = new ArrayList<>(plan.tenants());
        tenants.add("nobody");
        int compiled = 0;
        for (int round = 0; round < 3000; round++) {
            String src = nics.get(rnd.nextInt(nics.size()));
            List<Arc> out = plan.fabric().arcsFrom(src);
            List<Arc> path = new ArrayList<>();
            path.add(out.get(rnd.nextInt(out.size())));
            int hops = rnd.nextInt(7);
            for (int h = 0; h < hops; h++) {
                List<Arc> next = plan.switchArcs(path.get(path.size() - 1).to());
                if (next.isEmpty()) {
                    break;
                }
                path.add(next.get(rnd.nextInt(next.size())));
            }
            List<Arc> down = new ArrayList<>();
            for (Arc a : plan.fabric().arcsFrom(path.get(path.size() - 1).to())) {
                if (!plan.fabric().node(a.to()).role().isSwitch()) {
                    down.add(a);
                }
            }
            if (down.isEmpty() || rnd.nextInt(10) == 0) {
                path.add(w.arc(rnd.nextInt(w.arcCount())));
            } else {
                path.add(down.get(rnd.nextInt(down.size())));
            }
            if (rnd.nextInt(10) == 0) {
                path.set(rnd.nextInt(path.size()), w.arc(rnd.nextInt(w.arcCount())));
            }
            if (same(plan, path, tenants.get(rnd.nextInt(tenants.size()))) != REFUSED) {
                compiled++;
            }
        }
        assertThat(compiled).as("random paths the compiled walk proved").isGreaterThan(100);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fabrics")
    void seededRandomUsidListsAndEvsWalkAsTheReferenceDoes(String name, Fabric fabric) throws Exception {
        FabricPlan plan = Planner.plan(fabric, null);
        CompiledWalk w = plan.compiledWalk();
        Random rnd = new Random(name.hashCode() * 31L);
        List<String> nics = plan.nics();
        List<String> switches = plan.switches();
        List<String> tenants = new ArrayList<>(plan.tenants());
        tenants.add("nobody");
        int delivered = 0;
        for (int round = 0; round < 4000; round++) {
            String src = nics.get(rnd.nextInt(nics.size()));
            String dst = rnd.nextInt(8) == 0 ? null : nics.get(rnd.nextInt(nics.size()));
            String tenant = tenants.get(rnd.nextInt(tenants.size()));
            int[] usids = new int[rnd.nextInt(5) == 0 ? 1 + rnd.nextInt(80) : 1 + rnd.nextInt(9)];
            for (int i = 0; i < usids.length; i++) {
                String sw = switches.get(rnd.nextInt(switches.size()));
                int pick = rnd.nextInt(10);
                List<Integer> ua = new ArrayList<>(plan.uaFunctions(sw).values());
                usids[i] = pick < 6 ? plan.nodeId(sw)
                        : pick < 8 ? FabricPlan.DECAP_BASE + rnd.nextInt(3)
                        : pick < 9 && !ua.isEmpty() ? ua.get(rnd.nextInt(ua.size()))
                        : 1 + rnd.nextInt(0xFFFF);
            }
            Object ref = reference(() -> ForwardingWalk.walkCarriers(plan, src, dst,
                    Usid.carriers(plan.blockGroups(), usids), tenant));
            int[] buf = new int[CompiledWalk.MAX_ARCS];
            delivered += sameForEveryHint(w, ref, rnd, buf, src + " -> " + dst + " " + tenant + " "
                    + Usid.carriers(plan.block(), usids), expected -> w.walkCarriers(w.node(src),
                    dst == null ? -1 : w.node(dst), usids, tenant, buf, expected));

            String evDst = nics.get(rnd.nextInt(nics.size()));
            int ev = rnd.nextInt(50) == 0 ? rnd.nextInt(3) * 0x10000 : 1 + rnd.nextInt(0xFFFF);
            Object evRef = reference(() -> ForwardingWalk.walkEv(plan, src, evDst, ev, tenant));
            delivered += sameForEveryHint(w, evRef, rnd, buf, src + " -> " + evDst + " ev " + ev + " " + tenant,
                    expected -> w.walkEv(w.node(src), w.node(evDst), ev, tenant, buf, expected));
        }
        assertThat(delivered).as("walks that delivered").isGreaterThan(300);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fabrics")
    void aRefusedArcNumberPathFailsWithTheReferenceMessage(String name, Fabric fabric) throws Exception {
        FabricPlan plan = Planner.plan(fabric, null);
        CompiledWalk w = plan.compiledWalk();
        String nic = plan.nics().get(0);
        int up = w.homeArc(w.node(nic));
        List<Arc> path = List.of(w.arc(up), w.arc(up ^ 1));
        assertThatThrownBy(() -> PathEncoder.encode(plan, new int[] {up, up ^ 1}, "default"))
                .hasMessage(reference(() -> PathEncoder.encode(plan, path, "default")).toString());
        assertThatThrownBy(() -> PathEncoder.encode(plan, new int[] {up, w.arcCount()}, "default"))
                .hasMessageContaining("is not an arc number of fabric");
    }

    private static final int REFUSED = 0;
    private static final int PROVEN = 1;
    private static final int PROVEN_WITH_EV = 2;

    /** Both entries agree on the path; what the compiled walk made of it (never the fallback's answer). */
    private static int same(FabricPlan plan, List<Arc> path, String tenant) throws Exception {
        CompiledWalk w = plan.compiledWalk();
        int[] arcs = path.stream().mapToInt(w::arc).toArray();
        Object ref = reference(() -> PathEncoder.encode(plan, path, tenant));
        PathEncoding compiled = PathEncoder.encodeCompiled(plan, arcs, tenant);
        if (ref instanceof PathEncoding) {
            assertThat(compiled).as("compiled walk proves %s (%s) as the reference does", path, tenant).isEqualTo(ref);
            assertThat(compiled.usids()).containsExactly(((PathEncoding) ref).usids());
            assertThat(compiled.ev()).isEqualTo(((PathEncoding) ref).ev());
        } else {
            assertThat(compiled).as("compiled walk refuses %s (%s): %s", path, tenant, ref).isNull();
        }
        Object viaEntry = reference(() -> PathEncoder.encode(plan, arcs, tenant));
        assertThat(String.valueOf(viaEntry)).isEqualTo(String.valueOf(ref));
        return compiled == null ? REFUSED : compiled.ev() == null ? PROVEN : PROVEN_WITH_EV;
    }

    interface HintedWalk {
        int run(int[] expected);
    }

    /**
     * Told nothing, told the path the reference walked, told a random one: the compiled walk answers
     * as the reference did each time. Returns 1 when the unhinted walk delivered.
     */
    private static int sameForEveryHint(CompiledWalk w, Object ref, Random rnd, int[] buf, String what,
                                        HintedWalk walk) {
        int delivered = 0;
        for (int[] expected : new int[][] {null, arcs(w, ref), randomArcs(w, rnd)}) {
            int n = walk.run(expected);
            assertThat(answer(w, n, buf)).as(what).isEqualTo(ref);
            delivered += n > 0 && expected == null ? 1 : 0;
        }
        return delivered;
    }

    /** A reference walk's arcs as numbers, or null when it refused. */
    @SuppressWarnings("unchecked")
    private static int[] arcs(CompiledWalk w, Object answer) {
        return answer instanceof List ? ((List<Arc>) answer).stream().mapToInt(w::arc).toArray() : null;
    }

    private static int[] randomArcs(CompiledWalk w, Random rnd) {
        return rnd.ints(1 + rnd.nextInt(8), 0, w.arcCount()).toArray();
    }

    /** The arcs walked, or the refusal's kind, as the reference reports them. */
    private static Object answer(CompiledWalk w, int n, int[] buf) {
        if (n < 0) {
            return CompiledWalk.kind(n);
        }
        List<Arc> arcs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            arcs.add(w.arc(buf[i]));
        }
        return arcs;
    }

    interface Call {
        Object run() throws Exception;
    }

    /** The call's answer; a walk refusal as its kind, any other plan failure as its message. */
    private static Object reference(Call c) {
        try {
            return c.run();
        } catch (WalkException e) {
            return e.kind();
        } catch (PlanException e) {
            return e.getMessage();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** One NIC linked to each switch that has NICs (so the pairs cover every pair of such switches). */
    private static List<String> oneNicPerSwitch(FabricPlan plan) {
        Set<String> out = new LinkedHashSet<>();
        for (String sw : plan.switches()) {
            List<String> linked = plan.linkedNics(sw);
            if (!linked.isEmpty()) {
                out.add(linked.get(linked.size() - 1));
            }
        }
        return new ArrayList<>(out);
    }

    /**
     * Simple switch paths from any switch {@code src} is linked to, to any switch linked to
     * {@code dst}, at most {@code extra} switch hops longer than the shortest (first {@code cap}).
     */
    private static List<List<Arc>> paths(FabricPlan plan, String src, String dst, int extra, int cap) {
        List<List<Arc>> out = new ArrayList<>();
        for (Arc first : plan.fabric().arcsFrom(src)) {
            for (Arc into : plan.fabric().arcsFrom(dst)) {
                Arc last = new Arc(into.link(), into.to());
                int d = plan.distance(first.to(), last.from());
                if (d < 0 || !plan.fabric().node(first.to()).role().isSwitch()) {
                    continue;
                }
                List<Arc> prefix = new ArrayList<>(List.of(first));
                Set<String> seen = new HashSet<>(Set.of(first.to()));
                dfs(plan, first.to(), last, d + extra, prefix, seen, out, out.size() + cap);
            }
        }
        return out;
    }

    private static void dfs(FabricPlan plan, String at, Arc last, int bound, List<Arc> prefix, Set<String> seen,
                            List<List<Arc>> out, int cap) {
        if (out.size() >= cap) {
            return;
        }
        if (at.equals(last.from())) {
            List<Arc> p = new ArrayList<>(prefix);
            p.add(last);
            out.add(p);
        }
        if (prefix.size() - 1 >= bound) {
            return;
        }
        for (Arc a : plan.switchArcs(at)) {
            if (seen.add(a.to())) {
                prefix.add(a);
                dfs(plan, a.to(), last, bound, prefix, seen, out, cap);
                prefix.remove(prefix.size() - 1);
                seen.remove(a.to());
            }
        }
    }

    /** The fabric without every k-th switch-to-switch link: asymmetric routes, ambiguity, dead ends. */
    private static Fabric withoutSomeSwitchLinks(Fabric f, int k) {
        List<Link> kept = new ArrayList<>();
        int i = 0;
        for (Link l : f.links()) {
            boolean fabricLink = f.node(l.a().node()).role().isSwitch() && f.node(l.b().node()).role().isSwitch();
            if (!fabricLink || i++ % k != 0) {
                kept.add(l);
            }
        }
        return f.with(f.nodes(), kept);
    }

    /** Two planes, NICs linked to both (one twice to one leaf), two tenants. */
    private static Fabric planes() {
        TestFabrics t = TestFabrics.named("planes", "rail").tenants("blue", "red");
        for (String leaf : List.of("a1", "a2", "a3", "b1", "b2", "b3")) {
            t.node(leaf, Role.LEAF);
        }
        t.node("sa", Role.SPINE).node("sb", Role.SPINE).node("sc", Role.SPINE);
        for (int i = 1; i <= 3; i++) {
            t.node("n" + i, Role.NIC);
            t.link("n" + i, "a" + i).link("n" + i, "b" + i);
            t.link("a" + i, "sa").link("b" + i, "sb").link("a" + i, "sc").link("b" + i, "sc");
        }
        t.node("n4", Role.NIC).link("n4", "a1").link("n4", "a1").link("n4", "b2");
        t.link("a2", "sa");
        return t.build();
    }
}
