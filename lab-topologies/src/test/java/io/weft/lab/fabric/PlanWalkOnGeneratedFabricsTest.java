package io.weft.lab.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.plan.FabricPlan;
import io.weft.plan.PathEncoder;
import io.weft.plan.PathEncoding;
import io.weft.plan.Planner;
import io.weft.plan.SnapshotJson;
import io.weft.plan.intent.DeviceIntent;
import io.weft.plan.walk.ForwardingWalk;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The plan's forwarding walk on every generator family: for random (src,
 * dst, path among every simple path up to two hops longer than minimal, found by DFS), the uSID
 * carriers walk back to the same path, and so does the EV whenever the encoder returns one. Every
 * minimal path must be EV-reachable (EV1/EV2 pick the first two switch hops; the rest is unique
 * minimal routing on these families).
 */
class PlanWalkOnGeneratedFabricsTest {

    static Stream<Arguments> fabrics() {
        return Stream.of(
                Arguments.of("leaf-spine", Map.of("leaves", "4", "spines", "3", "nicsPerLeaf", "2")),
                Arguments.of("leaf-spine", Map.of("leaves", "3", "spines", "2", "parallelLinks", "2")),
                Arguments.of("fat-tree", Map.of("k", "4")),
                Arguments.of("rail", Map.of()),
                Arguments.of("rail", Map.of("planes", "2")),
                Arguments.of("dragonfly", Map.of("p", "1", "a", "2", "h", "1")),
                Arguments.of("dragonfly", Map.of()),
                Arguments.of("slimfly", Map.of("q", "3")),
                Arguments.of("slimfly", Map.of("q", "5")));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fabrics")
    void encodedPathsWalkBack(String family, Map<String, String> params) throws Exception {
        Fabric fabric = FabricGenerators.generate(family, params);
        FabricPlan plan = Planner.plan(fabric, null);
        List<String> nics = plan.nics();
        Random rnd = new Random(7);
        int checked = 0;
        int minimalChecked = 0;
        for (int round = 0; round < 150; round++) {
            String src = nics.get(rnd.nextInt(nics.size()));
            String dst = nics.get(rnd.nextInt(nics.size()));
            if (src.equals(dst)) {
                continue;
            }
            List<List<Arc>> candidates = candidates(plan, src, dst, 2, 3000);
            assertThat(candidates).as(src + " -> " + dst).isNotEmpty();
            List<Arc> path = candidates.get(rnd.nextInt(candidates.size()));
            PathEncoding enc = PathEncoder.encode(plan, path, plan.tenants().get(0));
            assertThat(ForwardingWalk.walkCarriers(plan, src, dst, enc.carriers(), plan.tenants().get(0)))
                    .isEqualTo(path);
            if (enc.ev() != null) {
                assertThat(ForwardingWalk.walkEv(plan, src, dst, enc.ev(), plan.tenants().get(0))).isEqualTo(path);
            }
            checked++;
            // The first minimal path of the pair must have an EV that walks to it.
            List<Arc> minimal = candidates(plan, src, dst, 0, 1).get(0);
            PathEncoding m = PathEncoder.encode(plan, minimal, plan.tenants().get(0));
            assertThat(m.ev()).as("EV for minimal path " + minimal).isNotNull();
            assertThat(ForwardingWalk.walkEv(plan, src, dst, m.ev(), plan.tenants().get(0))).isEqualTo(minimal);
            minimalChecked++;
        }
        assertThat(checked).isGreaterThan(100);
        assertThat(minimalChecked).isEqualTo(checked);
        // The snapshot rebuilds the same plan, and every switch renders an intent.
        FabricPlan rebuilt = SnapshotJson.planFromTree(SnapshotJson.toTree(plan, Map.of(), 1));
        assertThat(SnapshotJson.planTree(rebuilt)).isEqualTo(SnapshotJson.planTree(plan));
        for (String sw : plan.switches()) {
            assertThat(DeviceIntent.render(plan, sw).get("replace").size()).isGreaterThan(3);
        }
    }

    /** NIC-to-NIC paths over the NICs' home links with at most distance + extra switch hops (simple paths). */
    private static List<List<Arc>> candidates(FabricPlan plan, String src, String dst, int extra, int cap) {
        Arc first = plan.attachment(src);
        Arc home = plan.attachment(dst);
        Arc last = new Arc(home.link(), home.to());
        int bound = plan.distance(first.to(), home.to()) + extra;
        List<List<Arc>> out = new ArrayList<>();
        List<Arc> prefix = new ArrayList<>(List.of(first));
        Set<String> seen = new HashSet<>(Set.of(first.to()));
        dfs(plan, first.to(), home.to(), bound, prefix, seen, last, out, cap);
        return out;
    }

    private static void dfs(FabricPlan plan, String at, String to, int bound, List<Arc> prefix, Set<String> seen,
                            Arc last, List<List<Arc>> out, int cap) {
        if (out.size() >= cap) {
            return;
        }
        if (at.equals(to)) {
            List<Arc> p = new ArrayList<>(prefix);
            p.add(last);
            out.add(p);
            return;
        }
        if (prefix.size() - 1 >= bound) {
            return;
        }
        for (Arc a : plan.switchArcs(at)) {
            if (seen.add(a.to())) {
                prefix.add(a);
                dfs(plan, a.to(), to, bound, prefix, seen, last, out, cap);
                prefix.remove(prefix.size() - 1);
                seen.remove(a.to());
            }
        }
    }
}
