package io.weft.simulator.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.weft.contracts.Contracts;
import io.weft.fabric.Arc;
import io.weft.fabric.FabricJson;
import io.weft.plan.FabricPlan;
import io.weft.plan.PathEncoder;
import io.weft.plan.Planner;
import io.weft.simulator.Routing;
import io.weft.telemetry.Counter;
import io.weft.telemetry.GnmicEventParser;
import io.weft.telemetry.InterfaceSample;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The live fabric on the demo's 2-leaf, 4-spine fabric: agent profiles become routed flows, and the
 * switch counters it writes, read back with the collector's parser, carry the simulated rates,
 * background load, drops and failures.
 */
class LiveFabricTest {
    private static final long T0 = 1_700_000_000_000_000_000L;
    private static final long TICK_NS = 100_000_000L;

    private FabricPlan plan;
    private LiveFabric fabric;

    @BeforeEach
    void setUp() throws Exception {
        plan = Planner.plan(FabricJson.parse(Contracts.read("examples/leaf-spine-2x4.json")), null);
        fabric = new LiveFabric(plan);
    }

    @Test
    void profilesBecomeFlowsAndCountersCarryTheirRates() throws Exception {
        fabric.applyProfile("nic1", List.of(entry("f1", "nic1", "nic3", "spine1")));
        fabric.applyProfile("nic2", List.of(entry("f2", "nic2", "nic4", "spine1")));

        Map<String, InterfaceSample> d = delta(fabric);

        assertThat(fabric.rateGbps("f1")).isEqualTo(100);
        assertThat(fabric.arcKeys("f1")).containsExactly("nic1-leaf1>leaf1", "leaf1-spine1>spine1",
                "leaf2-spine1>leaf2", "nic3-leaf2>nic3");
        assertThat(gbps(d, "leaf1/eth1", Counter.OUT_OCTETS)).isCloseTo(200, within());
        assertThat(gbps(d, "spine1/eth1", Counter.IN_OCTETS)).isCloseTo(200, within());
        assertThat(gbps(d, "spine1/eth2", Counter.OUT_OCTETS)).isCloseTo(200, within());
        assertThat(gbps(d, "leaf1/eth3", Counter.IN_OCTETS)).as("nic1 sends into leaf1 eth3").isCloseTo(100, within());
        assertThat(gbps(d, "leaf1/eth2", Counter.OUT_OCTETS)).as("control traffic only")
                .isCloseTo(LiveFabric.CONTROL_GBPS, within()).isPositive();
        assertThat(d.get("leaf1/eth1").counters().get(Counter.OUT_DISCARDS)).isZero();
        assertThat(d.get("leaf1/eth1").operStatus()).isEqualTo("UP");
    }

    @Test
    void backgroundBeyondTheFlowsShareDropsAndTheMovedFlowRecovers() throws Exception {
        fabric.applyProfile("nic1", List.of(entry("f1", "nic1", "nic3", "spine1")));
        fabric.background("leaf1-spine1", "leaf1", 350);

        Map<String, InterfaceSample> d = delta(fabric);

        assertThat(fabric.rateGbps("f1")).isCloseTo(50, within());
        assertThat(fabric.flowsOnArc("leaf1-spine1>spine1")).containsExactly("f1");
        assertThat(gbps(d, "leaf1/eth1", Counter.OUT_OCTETS)).as("the link runs full").isCloseTo(400, within());
        assertThat(d.get("leaf1/eth1").counters().get(Counter.OUT_DISCARDS) * SwitchPort.PACKET_BYTES * 8 / 0.1 / 1e9)
                .as("the flow's missing 50 Gbit/s are dropped at leaf1's port").isCloseTo(50, within());
        assertThat(gbps(d, "spine1/eth2", Counter.OUT_OCTETS)).as("the flow's 50 Gbit/s go on to leaf2")
                .isCloseTo(50, within());

        LiveFabric.FlowSample f1 = fabric.flowSamples().get(0);
        assertThat(f1.rateGbps()).isCloseTo(50, within());
        assertThat(f1.bytes()).as("50 Gbit/s for the 0.2 s of the ticks").isCloseTo(1_250_000_000L,
                org.assertj.core.data.Offset.offset(2L));
        assertThat(f1.drops()).as("the other 50 Gbit/s lost").isCloseTo((long) (1.25e9 / SwitchPort.PACKET_BYTES),
                org.assertj.core.data.Offset.offset(2L));

        List<LiveFabric.Change> moved = fabric.applyProfile("nic1", List.of(entry("f1", "nic1", "nic3", "spine2")));
        d = delta(fabric);

        assertThat(moved).extracting(LiveFabric.Change::kind).containsExactly("moved");
        assertThat(fabric.rateGbps("f1")).isCloseTo(100, within());
        assertThat(gbps(d, "leaf1/eth1", Counter.OUT_OCTETS)).isCloseTo(350, within());
        assertThat(d.get("leaf1/eth1").counters().get(Counter.OUT_DISCARDS)).isZero();
        assertThat(gbps(d, "leaf1/eth2", Counter.OUT_OCTETS)).isCloseTo(100, within());
    }

    @Test
    void aFailedLinkIsDownOnBothEndsItsFlowsStallUntilMoved() throws Exception {
        fabric.applyProfile("nic1", List.of(entry("f1", "nic1", "nic3", "spine1")));
        fabric.applyProfile("nic4", List.of(entry("f2", "nic4", "nic2", "spine1")));
        fabric.applyProfile("nic2", List.of(entry("f3", "nic2", "nic4", "spine3")));
        assertThat(fabric.flowsOnLink("leaf1-spine1")).containsExactly("f1", "f2");

        fabric.fail("leaf1-spine1");
        Map<String, InterfaceSample> d = delta(fabric);

        assertThat(d.get("leaf1/eth1").operStatus()).isEqualTo("DOWN");
        assertThat(d.get("spine1/eth1").operStatus()).isEqualTo("DOWN");
        assertThat(d.get("spine1/eth2").operStatus()).isEqualTo("UP");
        assertThat(gbps(d, "leaf1/eth1", Counter.OUT_OCTETS)).isZero();
        assertThat(fabric.rateGbps("f1")).isZero();
        assertThat(fabric.rateGbps("f2")).isZero();
        assertThat(fabric.rateGbps("f3")).isEqualTo(100);

        fabric.applyProfile("nic1", List.of(entry("f1", "nic1", "nic3", "spine2")));
        assertThat(fabric.rateGbps("f1")).isEqualTo(100);
        assertThat(fabric.rateGbps("f2")).isZero();
    }

    @Test
    void aProfileAddsMovesAndEndsTheNicsFlowsOnly() throws Exception {
        ProfileEntry ev = new ProfileEntry("f1", "j1", "nic3", "GOOD", 100,
                Routing.ev(PathEncoder.encode(plan, path("nic1", "leaf1", "spine4", "leaf2", "nic3"), "default").ev()));
        assertThat(fabric.applyProfile("nic1", List.of(ev, entry("f1", "nic1", "nic3", "spine2"))))
                .extracting(LiveFabric.Change::kind).containsExactly("added");
        assertThat(fabric.arcKeys("f1")).as("SRv6 is preferred to the EV").contains("leaf1-spine2>spine2");
        fabric.applyProfile("nic2", List.of(entry("f2", "nic2", "nic4", "spine3")));

        ProfileEntry bad = new ProfileEntry("f1", "j1", "nic3", "ASSUMED_BAD", 100,
                entry("f1", "nic1", "nic3", "spine3").routing());
        assertThat(fabric.applyProfile("nic1", List.of(bad, ev)))
                .extracting(LiveFabric.Change::kind).containsExactly("moved");
        assertThat(fabric.arcKeys("f1")).as("only GOOD entries are used").contains("leaf1-spine4>spine4");

        assertThat(fabric.applyProfile("nic1", List.of())).extracting(LiveFabric.Change::kind).containsExactly("gone");
        assertThat(fabric.flows()).extracting(LiveFabric.LiveFlow::id).containsExactly("f2");
        assertThatThrownBy(() -> fabric.fail("leaf9-spine1")).hasMessageStartingWith("link: no link \"leaf9-spine1\"");
        assertThatThrownBy(() -> fabric.background("leaf1-spine1", "leaf2", 1)).hasMessageStartingWith("from: ");
    }

    @Test
    void theDegradedDirectionCarriesOneFlowThatHasAFreePathAround() throws Exception {
        fabric.applyProfile("nic1", List.of(entry("f1", "nic1", "nic3", "spine1"),
                entry("f3", "nic1", "nic4", "spine3")));
        fabric.applyProfile("nic2", List.of(entry("f2", "nic2", "nic4", "spine2")));
        assertThat(Incident.degradeTarget(fabric, null)).as("spine4 is free both ways")
                .isEqualTo("leaf1-spine1>spine1");
        assertThat(Incident.degradeTarget(fabric, "j2")).isEqualTo("leaf1-spine1>spine1");

        fabric.applyProfile("nic4", List.of(new ProfileEntry("f4", "j2", "nic1", "GOOD", 100, entry("f4", "nic4",
                "nic1", "spine4").routing())));
        assertThat(Incident.degradeTarget(fabric, "j2")).as("the newest job's flow is preferred")
                .isIn("leaf2-spine4>spine4", "leaf1-spine4>leaf1");

        fabric.applyProfile("nic2", List.of(entry("f2", "nic2", "nic4", "spine2"),
                entry("f5", "nic2", "nic3", "spine4")));
        assertThat(Incident.degradeTarget(fabric, "j2")).as("f4 can still take another spine")
                .isIn("leaf2-spine4>spine4", "leaf1-spine4>leaf1");
        fabric.applyProfile("nic4", List.of());
        assertThat(Incident.degradeTarget(fabric, "j2")).as("every leaf1 uplink busy: no flow can move")
                .isNull();
    }

    @Test
    void spreadEndpointsTakeTheLeavesInTurn() {
        assertThat(Incident.spread(plan, 4)).containsExactly("nic1", "nic3", "nic2", "nic4");
        assertThat(Incident.spread(plan, 2)).containsExactly("nic1", "nic3");
        assertThatThrownBy(() -> Incident.spread(plan, 5)).hasMessageStartingWith("endpoints.spread: 5 NICs wanted");
    }

    /** Two ticks 100 ms apart; per port key (switch/port), the second minus the first sample. */
    private static Map<String, InterfaceSample> delta(LiveFabric f) throws Exception {
        GnmicEventParser parser = new GnmicEventParser();
        Map<String, InterfaceSample> first = new HashMap<>();
        for (String rec : f.tick(T0).values()) {
            parser.parse(rec).stream().filter(s -> s.queue() == null)
                    .forEach(s -> first.put(s.target() + "/" + s.interfaceName(), s));
        }
        Map<String, InterfaceSample> out = new HashMap<>();
        for (String rec : f.tick(T0 + TICK_NS).values()) {
            for (InterfaceSample s : parser.parse(rec)) {
                if (s.queue() != null) {
                    continue;
                }
                InterfaceSample a = first.get(s.target() + "/" + s.interfaceName());
                Map<Counter, Long> c = new HashMap<>();
                s.counters().forEach((k, v) -> c.put(k, v - a.counters().get(k)));
                out.put(s.target() + "/" + s.interfaceName(),
                        new InterfaceSample(s.target(), s.interfaceName(), null, s.timestampNs(), c, s.operStatus()));
            }
        }
        // Time moves on for the next call.
        f.tick(T0 + 2 * TICK_NS);
        return out;
    }

    private static double gbps(Map<String, InterfaceSample> d, String port, Counter c) {
        return d.get(port).counters().get(c) * 8 / (TICK_NS / 1e9) / 1e9;
    }

    private static org.assertj.core.data.Offset<Double> within() {
        return org.assertj.core.data.Offset.offset(0.01);
    }

    /** A GOOD SRv6 entry of 100 Gbit/s for flow {@code id} from {@code src} to {@code dst} over {@code spine}. */
    private ProfileEntry entry(String id, String src, String dst, String spine) throws Exception {
        return new ProfileEntry(id, "j1", dst, "GOOD", 100, Routing.srv6(PathEncoder.encode(plan,
                path(src, leafOf(src), spine, leafOf(dst), dst), "default").carriers()));
    }

    private static String leafOf(String nic) {
        return nic.equals("nic1") || nic.equals("nic2") ? "leaf1" : "leaf2";
    }

    private List<Arc> path(String... nodes) {
        List<Arc> out = new ArrayList<>();
        for (int i = 0; i + 1 < nodes.length; i++) {
            String to = nodes[i + 1];
            out.add(plan.fabric().arcsFrom(nodes[i]).stream().filter(a -> a.to().equals(to)).findFirst().orElseThrow());
        }
        return out;
    }
}
