package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.lab.fabric.SlimFlyGenerator;
import io.weft.plan.FabricPlan;
import io.weft.plan.PathEncoder;
import io.weft.plan.PathEncoding;
import io.weft.plan.Planner;
import io.weft.plan.walk.ForwardingWalk;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The engine's paths, proven over arc numbers by {@link PlanFlowEncoder} (the compiled walk), carry
 * exactly the encodings the reference string walk gives them, and the reference walks every kept
 * encoding back to its path: on the generators' Clos, Dragonfly and Slim Fly, with every fabric
 * link up and with some down (detours the underlay does not take by itself), on seeded random jobs.
 */
class CompiledProofTest {

    static Stream<Arguments> fabrics() {
        Fabric slimFly = SlimFlyGenerator.generate(SlimFlyGenerator.Params.of(5));
        return Stream.of(
                Arguments.of("fat-tree k=6", Fixtures.fatTree(6), 0),
                Arguments.of("fat-tree k=6, failed links", Fixtures.fatTree(6), 5),
                Arguments.of("dragonfly(2,4,2)", Fixtures.dragonfly(2, 4, 2), 0),
                Arguments.of("dragonfly(2,4,2), failed links", Fixtures.dragonfly(2, 4, 2), 4),
                Arguments.of("slim fly q=5", slimFly, 0),
                Arguments.of("slim fly q=5, failed links", slimFly, 6));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fabrics")
    void everyKeptPathCarriesTheReferenceEncodingAndWalksBack(String name, Fabric f, int failEvery) throws Exception {
        FabricPlan plan = Planner.plan(f, null);
        PlanFlowEncoder enc = new PlanFlowEncoder(plan);
        PlacementEngine e = new PlacementEngine(DenseFabric.of(f, failed(f, failEvery)), enc, PlacementConfig.DEFAULTS);
        List<String> nics = Fixtures.nics(f);
        Random rnd = new Random(name.hashCode());
        int checked = 0;
        int withEv = 0;
        for (int j = 0; j < 8; j++) {
            PlacementResult r = e.add(Patterns.expand(PlacementPropertyTest.randomJob("j" + j, nics, rnd),
                    e.index(), 1 << 20));
            for (PlacedFlow pf : r.placed()) {
                Fixtures.assertValidWalk(e.index(), pf);
                PathEncoding ref = PathEncoder.encode(plan, pf.path(), "default");
                FlowEncoding got = pf.encoding();
                assertThat(got.carriers()).as("carriers of %s", pf.flow().id()).isEqualTo(ref.carriers());
                assertThat(got.usids().stream().mapToInt(Integer::intValue).toArray()).isEqualTo(ref.usids());
                assertThat(got.ev()).as("EV of %s", pf.flow().id()).isEqualTo(ref.ev());
                String src = pf.flow().srcNic();
                String dst = pf.flow().dstNic();
                assertThat(ForwardingWalk.walkCarriers(plan, src, dst, got.carriers(), "default")).isEqualTo(pf.path());
                if (got.ev() != null) {
                    assertThat(ForwardingWalk.walkEv(plan, src, dst, got.ev(), "default")).isEqualTo(pf.path());
                    withEv++;
                }
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(40);
        assertThat(withEv).isGreaterThan(0);
        assertThat(enc.proofs()).isGreaterThan(0);
    }

    /** Every n-th switch-to-switch link down (none for n = 0). */
    private static Map<String, LinkState> failed(Fabric f, int n) {
        Map<String, LinkState> states = new LinkedHashMap<>();
        int i = 0;
        for (Link l : f.links()) {
            boolean fabricLink = f.node(l.a().node()).role().isSwitch() && f.node(l.b().node()).role().isSwitch();
            if (n > 0 && fabricLink && i++ % n == 0) {
                states.put(l.id(), LinkState.DOWN);
            }
        }
        return states;
    }
}
