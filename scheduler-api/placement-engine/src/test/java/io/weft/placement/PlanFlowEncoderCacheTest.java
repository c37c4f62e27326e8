package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import io.weft.fabric.Arc;
import io.weft.fabric.Fabric;
import io.weft.fabric.Role;
import io.weft.plan.FabricPlan;
import io.weft.plan.PathEncoder;
import io.weft.plan.PathEncoding;
import io.weft.plan.Planner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The switch-path cache of {@link PlanFlowEncoder}: a served entry equals what a fresh proof of that
 * very flow gives, and an entry can neither be served to a path it was not proven for nor changed.
 */
class PlanFlowEncoderCacheTest {

    static Stream<Arguments> fabrics() {
        return Stream.of(
                Arguments.of("leaf-spine 4x4", Fixtures.leafSpine(4, 4, 4)),
                Arguments.of("fat-tree k=4", Fixtures.fatTree(4)),
                Arguments.of("dragonfly(2,4,2)", Fixtures.dragonfly(2, 4, 2)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fabrics")
    void everyServedEncodingEqualsAFreshProofOfThatFlow(String name, Fabric f) throws Exception {
        FabricPlan plan = Planner.plan(f, null);
        PlanFlowEncoder enc = new PlanFlowEncoder(plan);
        PlacementEngine e = new PlacementEngine(DenseFabric.of(f), enc, PlacementConfig.DEFAULTS);
        List<String> nics = Fixtures.nics(f);
        Random rnd = new Random(17);
        int checked = 0;
        for (int j = 0; j < 6; j++) {
            PlacementResult r = e.add(Patterns.expand(PlacementPropertyTest.randomJob("j" + j, nics, rnd),
                    e.index(), 1 << 20));
            for (PlacedFlow pf : r.placed()) {
                PathEncoding fresh = PathEncoder.encode(plan, pf.path(), "default");
                assertThat(pf.encoding().carriers()).as("carriers of %s", pf.flow().id()).isEqualTo(fresh.carriers());
                assertThat(pf.encoding().usids().stream().mapToInt(Integer::intValue).toArray())
                        .isEqualTo(fresh.usids());
                assertThat(pf.encoding().ev()).as("EV of %s", pf.flow().id()).isEqualTo(fresh.ev());
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(20);
        assertThat(enc.cacheHits()).as("flows sharing a switch path on %s", name).isGreaterThan(0);
        assertThat(enc.proofs()).isLessThan(checked);
    }

    @Test
    void aCachedSwitchPathIsNotServedToAPathWhoseNicArcDoesNotJoinIt() throws Exception {
        Fabric f = Fixtures.leafSpine(2, 2, 2);
        FabricPlan plan = Planner.plan(f, null);
        PlanFlowEncoder enc = new PlanFlowEncoder(plan);
        List<Arc> good = leafToLeaf(f, plan, 0, 1);
        enc.encode(good, "default");
        // Same switch arcs, but the source NIC hangs off the other leaf: the walk would not take them.
        String otherLeafNic = nicOnOtherLeafThan(f, plan, good.get(0).to());
        List<Arc> broken = new ArrayList<>(good);
        broken.set(0, plan.attachment(otherLeafNic));
        assertThatThrownBy(() -> enc.encode(broken, "default")).isInstanceOf(FlowEncoder.EncodingFailure.class);
        assertThat(enc.cacheHits()).isZero();
    }

    @Test
    void theArcIndexCacheRefusesAPathWhoseNicArcDoesNotJoinIt() throws Exception {
        Fabric f = Fixtures.leafSpine(2, 2, 2);
        FabricPlan plan = Planner.plan(f, null);
        DenseFabric ix = DenseFabric.of(f);
        PlanFlowEncoder enc = new PlanFlowEncoder(plan);
        List<Arc> good = leafToLeaf(f, plan, 0, 1);
        int[] arcs = arcs(ix, good);
        FlowEncoding e = enc.encode(ix, arcs, "default");
        assertThat(enc.encode(ix, arcs.clone(), "default")).isSameAs(e);
        assertThat(enc.cacheHits()).isEqualTo(1);
        Arc stranger = plan.attachment(nicOnOtherLeafThan(f, plan, good.get(0).to()));
        int[] broken = arcs.clone();
        broken[0] = ix.arcOf(stranger.link().id(), stranger.from());
        assertThatThrownBy(() -> enc.encode(ix, broken, "default")).isInstanceOf(FlowEncoder.EncodingFailure.class);
        // A tenant the path was not proven for is a different entry, and an unknown one is refused.
        assertThatThrownBy(() -> enc.encode(ix, arcs, "nobody")).isInstanceOf(FlowEncoder.EncodingFailure.class);
        assertThat(enc.cacheHits()).isEqualTo(1);
    }

    @Test
    void anIndexOfAnotherFabricObjectIsNotServedFromTheArcIndexCache() throws Exception {
        Fabric f = Fixtures.leafSpine(2, 2, 2);
        FabricPlan plan = Planner.plan(f, null);
        PlanFlowEncoder enc = new PlanFlowEncoder(plan);
        DenseFabric other = DenseFabric.of(Fixtures.leafSpine(2, 2, 2));
        int[] arcs = arcs(other, leafToLeaf(f, plan, 0, 1));
        enc.encode(other, arcs, "default");
        enc.encode(other, arcs, "default");
        // Served by the arc-list cache (keyed by link ids), never by arc numbers of a foreign index.
        assertThat(enc.proofs()).isEqualTo(1);
        assertThat(enc.encode(other, arcs, "default").carriers())
                .isEqualTo(PathEncoder.encode(plan, leafToLeaf(f, plan, 0, 1), "default").carriers());
    }

    private static int[] arcs(DenseFabric ix, List<Arc> path) {
        return path.stream().mapToInt(a -> ix.arcOf(a.link().id(), a.from())).toArray();
    }

    @Test
    void entriesAreCopiesTheCallerCannotChange() throws Exception {
        Fabric f = Fixtures.leafSpine(2, 2, 2);
        FabricPlan plan = Planner.plan(f, null);
        PlanFlowEncoder enc = new PlanFlowEncoder(plan);
        List<Arc> path = new ArrayList<>(leafToLeaf(f, plan, 0, 1));
        List<Arc> original = List.copyOf(path);
        FlowEncoding first = enc.encode(path, "default");
        // The caller reuses its list for another path: the entry for the first one must not follow it.
        path.set(1, otherUplink(f, path.get(1)));
        FlowEncoding again = enc.encode(original, "default");
        assertThat(again).isEqualTo(first);
        assertThat(again.carriers()).isEqualTo(PathEncoder.encode(plan, original, "default").carriers());
        assertThatThrownBy(() -> first.usids().set(0, 99)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> first.carriers().set(0, "fcbb:bb00:99::"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void anUnknownTenantIsRefusedEvenForACachedSwitchPath() throws Exception {
        Fabric f = Fixtures.leafSpine(2, 2, 2);
        PlanFlowEncoder enc = new PlanFlowEncoder(Planner.plan(f, null));
        List<Arc> path = leafToLeaf(f, enc.plan(), 0, 1);
        enc.encode(path, "default");
        assertThatThrownBy(() -> enc.encode(path, "nobody")).isInstanceOf(FlowEncoder.EncodingFailure.class)
                .hasMessageContaining("tenant");
    }

    /** NIC of leaf #a (fabric order) up to the first spine and down to a NIC of leaf #b. */
    private static List<Arc> leafToLeaf(Fabric f, FabricPlan plan, int a, int b) {
        String leafA = f.nodesWithRole(Role.LEAF).get(a).id();
        String leafB = f.nodesWithRole(Role.LEAF).get(b).id();
        String src = plan.nicsOf(leafA).get(0);
        String dst = plan.nicsOf(leafB).get(0);
        Arc up = f.arcsFrom(leafA).stream().filter(x -> f.node(x.to()).role() == Role.SPINE).findFirst().orElseThrow();
        Arc down = f.arcsFrom(up.to()).stream().filter(x -> x.to().equals(leafB)).findFirst().orElseThrow();
        Arc last = new Arc(plan.attachment(dst).link(), leafB);
        return Arrays.asList(plan.attachment(src), up, down, last);
    }

    private static Arc otherUplink(Fabric f, Arc up) {
        return f.arcsFrom(up.from()).stream().filter(x -> f.node(x.to()).role() == Role.SPINE && !x.equals(up))
                .findFirst().orElseThrow();
    }

    private static String nicOnOtherLeafThan(Fabric f, FabricPlan plan, String leaf) {
        for (var n : f.nodesWithRole(Role.LEAF)) {
            if (!n.id().equals(leaf)) {
                return plan.nicsOf(n.id()).get(0);
            }
        }
        throw new IllegalStateException("one leaf only");
    }
}
