package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import io.weft.fabric.Fabric;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import io.weft.plan.walk.ForwardingWalk;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** With the real plan: every handed-out encoding walks back to exactly the placed path. */
class PlanEncodingTest {

    static Stream<Arguments> fabrics() {
        return Stream.of(
                Arguments.of("leaf-spine 4x4", Fixtures.leafSpine(4, 4, 4)),
                Arguments.of("fat-tree k=4", Fixtures.fatTree(4)),
                Arguments.of("dragonfly(2,4,2)", Fixtures.dragonfly(2, 4, 2)),
                Arguments.of("rail", io.weft.lab.fabric.RailGenerator.generate(
                        new io.weft.lab.fabric.RailGenerator.Params(null, 8, 4, 4, 4, 1, 400, 400, 100, 500))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fabrics")
    void encodingsWalkBackToThePlacedPath(String name, Fabric f) throws Exception {
        FabricPlan plan = Planner.plan(f, null);
        PlacementEngine e = new PlacementEngine(DenseFabric.of(f), new PlanFlowEncoder(plan), PlacementConfig.DEFAULTS);
        List<String> nics = Fixtures.nics(f);
        Random rnd = new Random(11);
        int evs = 0;
        for (int j = 0; j < 3; j++) {
            PlacementResult r = e.add(Patterns.expand(PlacementPropertyTest.randomJob("j" + j, nics, rnd),
                    e.index(), 1 << 20));
            assertThat(r.unplaced()).as("unplaced on %s", name).isEmpty();
            for (PlacedFlow pf : r.placed()) {
                Fixtures.assertValidWalk(e.index(), pf);
                assertThat(ForwardingWalk.walkCarriers(plan, pf.flow().srcNic(), pf.flow().dstNic(),
                        pf.encoding().carriers(), "default")).isEqualTo(pf.path());
                if (pf.encoding().ev() != null) {
                    evs++;
                    assertThat(ForwardingWalk.walkEv(plan, pf.flow().srcNic(), pf.flow().dstNic(),
                            pf.encoding().ev(), "default")).isEqualTo(pf.path());
                }
            }
        }
        if (!f.family().equals("dragonfly")) {
            assertThat(evs).as("EV-reachable flows on a Clos").isGreaterThan(0);
        }
    }
}
