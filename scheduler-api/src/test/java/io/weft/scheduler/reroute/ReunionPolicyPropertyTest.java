package io.weft.scheduler.reroute;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import io.weft.fabric.Fabric;
import io.weft.fabric.Role;
import io.weft.lab.fabric.FatTreeGenerator;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.placement.DenseFabric;
import io.weft.placement.Flow;
import io.weft.placement.Job;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
import org.junit.jupiter.api.Test;

/**
 * Seeded random fabrics and jobs, a burst of simultaneous hotspots on many busy links: the moves,
 * applied to the engine, create no new collision (no switch arc ends above t elephants that had at
 * most t before), no flow moves twice, no hot arc loses more than k flows, no flow lands on a hot
 * arc, and every moved flow did cross its hot arc.
 */
class ReunionPolicyPropertyTest {
    private static final int CASES = 60;

    @Test
    void aBurstOfHotspotsNeverHerds() throws Exception {
        Random rnd = new Random(20261121L);
        int movesSeen = 0;
        for (int c = 0; c < CASES; c++) {
            Fabric fabric = rnd.nextBoolean()
                    ? LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(2 + rnd.nextInt(5), 2 + rnd.nextInt(5),
                    1 + rnd.nextInt(4)))
                    : FatTreeGenerator.generate(FatTreeGenerator.kary(4));
            PlacementEngine engine = new PlacementEngine(DenseFabric.of(fabric), ReunionPolicyTest.FAKE,
                    PlacementConfig.DEFAULTS);
            DenseFabric ix = engine.index();
            List<String> nics = new ArrayList<>();
            fabric.nodesWithRole(Role.NIC).forEach(n -> nics.add(n.id()));
            List<Flow> flows = new ArrayList<>();
            int n = 2 + rnd.nextInt(nics.size() * 2);
            for (int i = 0; i < n; i++) {
                String s = nics.get(rnd.nextInt(nics.size()));
                String d = nics.get(rnd.nextInt(nics.size()));
                if (!s.equals(d)) {
                    flows.add(new Flow("f" + i, "j", s, d, 25 + rnd.nextInt(300), 0));
                }
            }
            if (flows.isEmpty()) {
                continue;
            }
            engine.add(new Job("j", "default", flows));
            // Scramble: random candidate paths, so that collisions exist before the burst.
            PlacementView first = PlacementView.of(engine);
            for (Flow f : flows) {
                List<int[]> cands = first.candidates(first.flow(f.id()));
                EnginePin.pin(engine, f.id(), engine.pathArcs(f.id()), cands.get(rnd.nextInt(cands.size())));
            }
            int t = 1 + rnd.nextInt(2);
            int k = 1 + rnd.nextInt(2);
            PlacementView view = PlacementView.of(engine);
            List<HotArc> burst = new ArrayList<>();
            List<Integer> busy = new ArrayList<>();
            for (int a = 0; a < ix.arcCount(); a++) {
                if (!view.nicArc(a) && !view.flowsOn(a).isEmpty()) {
                    busy.add(a);
                }
            }
            Collections.shuffle(busy, rnd);
            for (int a : busy.subList(0, Math.max(1, busy.size() / 2))) {
                burst.add(new HotArc(a, ix.arc(a).link().id(), "h" + a, 0, 0));
            }
            int[] before = engine.arcElephants();
            List<Move> moves = new ReunionPolicy(k, t).onHotspots(view, burst, Map.of(), Set.of());

            Set<String> movedFlows = new HashSet<>();
            Map<String, Integer> perHotspot = new HashMap<>();
            Set<Integer> hotArcs = new HashSet<>();
            burst.forEach(h -> hotArcs.add(h.arc()));
            for (Move m : moves) {
                assertThat(movedFlows.add(m.flowId())).as("case %d: %s moved twice", c, m.flowId()).isTrue();
                perHotspot.merge(m.cause(), 1, Integer::sum);
                int hotArc = Integer.parseInt(m.cause().substring("hotspot:h".length()));
                assertThat(ReunionPolicy.contains(m.fromArcs(), hotArc)).as("case %d: %s", c, m).isTrue();
                for (int a : m.toArcs()) {
                    assertThat(hotArcs).as("case %d: %s lands on a hot arc", c, m).doesNotContain(a);
                }
                EnginePin.pin(engine, m.flowId(), m.fromArcs(), m.toArcs());
            }
            assertThat(perHotspot.values()).as("case %d", c).allMatch(v -> v <= k);
            int[] after = engine.arcElephants();
            for (int a = 0; a < after.length; a++) {
                if (!view.nicArc(a) && before[a] <= t) {
                    assertThat(after[a]).as("case %d arc %s (t=%d)", c, ix.arc(a).key(), t).isLessThanOrEqualTo(t);
                }
            }
            movesSeen += moves.size();
        }
        // The property must have been exercised, not passed vacuously.
        assertThat(movesSeen).isGreaterThan(CASES / 2);
    }
}
