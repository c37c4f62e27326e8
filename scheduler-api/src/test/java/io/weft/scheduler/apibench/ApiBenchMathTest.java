package io.weft.scheduler.apibench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Role;
import org.junit.jupiter.api.Test;

class ApiBenchMathTest {

    @Test
    void nearestRankPercentiles() {
        double[] a = ApiBench.sorted(List.of(5.0, 1.0, 4.0, 2.0, 3.0, 6.0, 7.0, 8.0, 9.0, 10.0));
        assertThat(ApiBench.pct(a, 50)).isEqualTo(5.0);
        assertThat(ApiBench.pct(a, 99)).isEqualTo(10.0);
        assertThat(ApiBench.pct(a, 10)).isEqualTo(1.0);
        assertThat(ApiBench.pct(new double[0], 50)).isNaN();
    }

    @Test
    void theProbesRoundLineIsReadIntoSpreads() {
        // As fanout-probe prints it (nic-agent/internal/fanoutprobe: Round.Line).
        FanoutProbe.Round r = FanoutProbe.Round.parse("round events=10000 unstamped=2 restamped=3 failed=0 "
                + "published_min_us=1700000000000123 cpu_ms=61.250 delivered_first_ms=4.100 delivered_p50_ms=40.500 "
                + "delivered_p99_ms=81.000 delivered_max_ms=90.000 read_first_ms=5.000 read_p50_ms=60.000 "
                + "read_p99_ms=120.000 read_max_ms=130.000 update_first_ms=nan update_p50_ms=nan update_p99_ms=nan "
                + "update_max_ms=nan");
        assertThat(r.events()).isEqualTo(10_000);
        assertThat(r.unstamped()).isEqualTo(2);
        assertThat(r.publishedMinUs()).isEqualTo(1_700_000_000_000_123L);
        assertThat(r.cpuMs()).isEqualTo(61.25);
        assertThat(r.restamped()).isEqualTo(3);
        assertThat(r.delivered()).isEqualTo(new Spread(9_995, 4.1, 40.5, 81.0, 90.0));
        assertThat(r.read()).isEqualTo(new Spread(10_000, 5.0, 60.0, 120.0, 130.0));
        assertThat(r.update()).isEqualTo(Spread.NONE);
        assertThatThrownBy(() -> FanoutProbe.Round.parse("armed"))
                .hasMessageContaining("expected round");
    }

    @Test
    void aSpreadOfSortedSamplesUsesTheBenchsPercentiles() {
        Spread s = Spread.of(ApiBench.sorted(List.of(5.0, 1.0, 4.0, 2.0, 3.0, 6.0, 7.0, 8.0, 9.0, 10.0)));
        assertThat(s).isEqualTo(new Spread(10, 1.0, 5.0, 10.0, 10.0));
        assertThat(Spread.of(new double[0])).isEqualTo(Spread.NONE);
    }

    @Test
    void backlogDropsAndRetransmitsAreReadFromProc() {
        // Two CPUs of /proc/net/softnet_stat (hex; the second column is the drops) and /proc/net/snmp's Tcp lines.
        assertThat(RoundParts.backlogDrops(List.of(
                "05b845ba 000005f4 00000004 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000",
                "051d3222 000008e1 00000005 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000")))
                .isEqualTo(0x5f4 + 0x8e1);
        assertThat(RoundParts.tcpRetransSegs(List.of("Ip: Forwarding DefaultTTL", "Ip: 1 64",
                "Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets "
                        + "CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors",
                "Tcp: 1 200 120000 -1 5 6 0 1 2 100 200 121986 0 3 0"))).isEqualTo(121_986L);
        assertThat(RoundParts.tcpRetransSegs(List.of())).isZero();
    }

    @Test
    void theWarmMedianLeavesTheFirstRoundOut() {
        assertThat(ApiBench.Result.warmMedian(new double[] {90, 12, 30, 11})).isEqualTo(12.0);
        assertThat(ApiBench.Result.warmMedian(new double[] {90, 12, 14})).isEqualTo(13.0);
        assertThat(ApiBench.Result.warmMedian(new double[] {90})).isNaN();
    }

    @Test
    void gcPausesAreReadFromTheUnifiedLogOfEachCollector() {
        List<String> log = List.of("[0.004s][info][gc] Using Parallel",
                "[1.1s][info][gc] GC(0) Pause Young (Allocation Failure) 60M->9M(230M) 7.250ms",
                "[2.0s][info][gc] GC(1) Pause Young (Allocation Failure) 70M->10M(230M) 3.5ms",
                "[3.0s][info][gc] GC(2) Pause Full (Ergonomics) 80M->20M(230M) 41.000ms",
                "[3.5s][info][gc] GC(3) Concurrent Mark Cycle 12.0ms");
        GcPauses all = GcPauses.parse(log, 0);
        assertThat(all.collector()).isEqualTo("Parallel");
        assertThat(all.count()).isEqualTo(3);
        assertThat(all.maxMs()).isEqualTo(41.0);
        assertThat(all.totalMs()).isEqualTo(51.75);
        GcPauses later = GcPauses.parse(log, 2);
        assertThat(later.count()).isEqualTo(2);
        assertThat(later.maxMs()).isEqualTo(41.0);
        assertThat(GcPauses.parse(List.of("[0.1s][info][gc] Using G1",
                "[1s][info][gc] GC(4) Pause Remark 30M->30M(64M) 1.2ms"), 0).collector()).isEqualTo("G1");
    }

    @Test
    void theServicesFanOutLineOfTheRoundIsItsLargest() {
        // As PathBoard logs it at debug level.
        List<String> log = List.of(
                "12:00 DEBUG fan-out of 1024 NICs: profiles read in 60.2 ms (last chunk read 80.5 ms after the "
                        + "publish), last agent woken 95.0 ms after the publish",
                "12:01 DEBUG fan-out of 16 NICs: profiles read in 2.0 ms (last chunk read 2.1 ms after the "
                        + "publish), last agent woken 3.0 ms after the publish",
                "12:01 DEBUG fan-out of 1024 NICs: profiles read in 50.0 ms (last chunk read 70.0 ms after the "
                        + "publish), last agent woken 88.5 ms after the publish",
                "12:02 DEBUG fan-out of 32 NICs: profiles read in 2.0 ms (last chunk read 2.1 ms after the "
                        + "publish), last agent woken 4.0 ms after the publish");
        assertThat(RoundParts.trace(log, 1)).containsExactly(70.0, 88.5);
        assertThat(RoundParts.trace(log, 3)).containsExactly(2.1, 4.0);
        assertThat(RoundParts.trace(log, 4)).isNull();
    }

    @Test
    void generatedFabricIsAValidLeafSpine() throws Exception {
        Fabric f = FabricJson.parse(ApiBench.leafSpine(4));
        assertThat(f.nodesWithRole(Role.NIC)).hasSize(64);
        assertThat(f.nodesWithRole(Role.SPINE)).hasSize(8);
        assertThat(f.links()).hasSize(4 * 8 + 64);
    }
}
