package io.weft.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.weft.fabric.Fabric;
import org.junit.jupiter.api.Test;

/** The ledger's aggregates (max load, collisions, hops) always equal a recount from the paths it holds. */
class ReservationLedgerTest {
    private final Fabric fabric = Fixtures.leafSpine(2, 4, 4);
    private final DenseFabric ix = DenseFabric.of(fabric);

    /** NIC leafA-nicN to leafB-nicN through the given spine. */
    private int[] path(int leafA, int leafB, int nic, int spine) {
        String src = "leaf" + leafA + "-nic" + nic;
        String dst = "leaf" + leafB + "-nic" + nic;
        return new int[] {ix.arcOf(src + "-up", src), ix.arcOf("leaf" + leafA + "-spine" + spine, "leaf" + leafA),
            ix.arcOf("leaf" + leafB + "-spine" + spine, "spine" + spine), ix.arcOf(dst + "-up", "leaf" + leafB)};
    }

    private static Flow flow(String id, int leafA, int leafB, int nic, double gbps) {
        return new Flow(id, "j", "leaf" + leafA + "-nic" + nic, "leaf" + leafB + "-nic" + nic, gbps, 0);
    }

    @Test
    void releasingTheOnlyArcAtTheMaxLowersTheMax() {
        ReservationLedger l = new ReservationLedger(ix, PlacementConfig.DEFAULTS);
        int a = l.newSlot(flow("a", 1, 2, 1, 400), "t");
        int b = l.newSlot(flow("b", 1, 2, 2, 400), "t");
        l.reserve(a, path(1, 2, 1, 1));
        l.reserve(b, path(1, 2, 2, 1));
        assertThat(l.maxLoad()).isEqualTo(2.0); // both on leaf1 -> spine1 (400 Gb/s links)
        assertThat(l.collisions()).isEqualTo(2); // leaf1->spine1 and spine1->leaf2, t = 1
        l.unreserve(b);
        assertThat(l.maxLoad()).isEqualTo(1.0);
        assertThat(l.collisions()).isZero();
        assertThat(l.unplacedReason(b)).isEqualTo("no path");
        l.reserve(b, path(1, 2, 2, 2));
        assertThat(l.quality()).isEqualTo(new Quality(1.0, 0, 8, 2));
    }

    @Test
    void randomReservationsKeepAggregatesEqualToARecount() {
        Random rnd = new Random(11);
        ReservationLedger l = new ReservationLedger(ix, PlacementConfig.DEFAULTS);
        List<Integer> slots = new ArrayList<>();
        for (int nic = 1; nic <= 4; nic++) {
            for (int dir = 0; dir < 2; dir++) {
                double gbps = 50 * (1 + rnd.nextInt(8));
                Flow f = dir == 0 ? flow("f" + nic, 1, 2, nic, gbps) : flow("g" + nic, 2, 1, nic, gbps);
                slots.add(l.newSlot(f, "t"));
            }
        }
        for (int step = 0; step < 2_000; step++) {
            int s = slots.get(rnd.nextInt(slots.size()));
            if (l.path(s) != null) {
                l.unreserve(s);
            } else {
                Flow f = l.flow(s);
                int from = f.srcNic().startsWith("leaf1") ? 1 : 2;
                int nic = f.srcNic().charAt(f.srcNic().length() - 1) - '0';
                l.reserve(s, path(from, 3 - from, nic, 1 + rnd.nextInt(4)));
            }
            assertRecount(l, slots);
        }
    }

    private void assertRecount(ReservationLedger l, List<Integer> slots) {
        long[] load = new long[ix.arcCount()];
        int[] elephants = new int[ix.arcCount()];
        long hops = 0;
        int placed = 0;
        for (int s : slots) {
            if (l.path(s) != null) {
                placed++;
                hops += l.path(s).length;
                for (int a : l.path(s)) {
                    load[a] += l.demandKbps(s);
                    elephants[a]++;
                }
            }
        }
        double max = 0;
        int collided = 0;
        for (int a = 0; a < load.length; a++) {
            max = Math.max(max, load[a] / (ix.capacityGbps(a) * 1e6));
            if (elephants[a] > 1 && !l.nicArc(a)) {
                collided++;
            }
        }
        assertThat(l.loadKbps()).isEqualTo(load);
        assertThat(l.maxLoad()).isCloseTo(max, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(l.quality()).isEqualTo(new Quality(l.maxLoad(), collided, hops, placed));
    }

    @Test
    void aFreedSlotReleasesItsPathAndIsReused() {
        ReservationLedger l = new ReservationLedger(ix, PlacementConfig.DEFAULTS);
        int a = l.newSlot(flow("a", 1, 2, 1, 100), "t");
        l.reserve(a, path(1, 2, 1, 3));
        l.freeSlot(a);
        assertThat(l.slotOf("a")).isEqualTo(-1);
        assertThat(l.loadKbps()).containsOnly(0L);
        assertThat(l.placedCount()).isZero();
        assertThat(l.newSlot(flow("b", 1, 2, 1, 100), "t")).isEqualTo(a);
        assertThat(l.slotOf("b")).isEqualTo(a);
    }

    @Test
    void reservingAPlacedFlowAgainIsABrokenInvariant() {
        ReservationLedger l = new ReservationLedger(ix, PlacementConfig.DEFAULTS);
        int a = l.newSlot(flow("a", 1, 2, 1, 100), "t");
        l.reserve(a, path(1, 2, 1, 1));
        assertThatThrownBy(() -> l.reserve(a, path(1, 2, 1, 2))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("flow a");
    }

    @Test
    void byDemandPutsLargerDemandsFirstAndKeepsTheGivenOrderOnTies() {
        ReservationLedger l = new ReservationLedger(ix, PlacementConfig.DEFAULTS);
        int a = l.newSlot(flow("a", 1, 2, 1, 100), "t");
        int b = l.newSlot(flow("b", 1, 2, 2, 400), "t");
        int c = l.newSlot(flow("c", 1, 2, 3, 100), "t");
        int d = l.newSlot(flow("d", 1, 2, 4, 400), "t");
        assertThat(l.byDemand(new int[] {c, a, d, b})).containsExactly(d, b, c, a);
    }
}
