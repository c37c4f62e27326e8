package io.weft.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;

/** What the experiment reads from iperf3, `ip -ts monitor route` and the nic-agent's log. */
class ParsersTest {
    private static final String IPERF = """
            {"start":{"timestamp":{"timesecs":1}},"intervals":[
             {"sum":{"start":0,"end":0.1,"bytes":2500000}},
             {"sum":{"start":0.1,"end":0.2,"bytes":2500000}},
             {"sum":{"start":0.2,"end":0.3,"bytes":1250000}},
             {"sum":{"start":0.3,"end":0.4,"bytes":2500000}},
             {"sum":{"start":0.4,"end":0.5,"bytes":2500000}},
             {"sum":{"start":0.5,"end":0.6,"bytes":2500000}}],"end":{}}
            """;

    @Test
    void iperf3IntervalsBecomeRates() {
        Throughput t = Throughput.parse(IPERF);
        assertThat(t.samples()).hasSize(6);
        assertThat(t.samples().get(0).mbit()).isCloseTo(200, within(1e-6));
        assertThat(t.samples().get(2).mbit()).isCloseTo(100, within(1e-6));
        assertThat(t.totalBytes()).isEqualTo(13_750_000);
        assertThat(t.bytes(0.2)).isEqualTo(5_000_000);
        assertThat(t.meanMbit(0, 0.4)).isCloseTo(175, within(1e-6));
        // Back at >= 190 Mbit/s for 3 intervals from 0.2 s on: the interval ending at 0.4 s starts it.
        assertThat(t.firstSustained(0.2, 190, 3)).isCloseTo(0.4, within(1e-9));
        assertThat(t.firstSustained(0.0, 250, 1)).isNaN();
    }

    @Test
    void aBadIperf3ReportSaysWhy() {
        assertThatThrownBy(() -> Throughput.parse("not json")).hasMessageStartingWith("iperf3 report: not JSON");
        assertThatThrownBy(() -> Throughput.parse("{\"error\":\"unable to connect\"}"))
                .hasMessageContaining("unable to connect");
        assertThatThrownBy(() -> Throughput.parse("{\"intervals\":[{\"sum\":{\"start\":0}}]}"))
                .hasMessageContaining("sum.start/end/bytes");
    }

    @Test
    void routeMonitorLinesAreRead() {
        RouteMonitor.RouteEvent e = RouteMonitor.parse("[2026-11-25T14:50:01.123456] 2001:db8:0:2::1  encap seg6 mode "
                + "encap.red segs 1 [ fcbb:bb00:1:12:2:e000:: ] via fe80::2 dev p0 proto 200 metric 1024 pref medium",
                ZoneOffset.UTC);
        assertThat(e.at()).isEqualTo(Instant.parse("2026-11-25T14:50:01.123456Z"));
        assertThat(e.dst()).isEqualTo("2001:db8:0:2::1/128");
        assertThat(e.carriers()).containsExactly("fcbb:bb00:1:12:2:e000::");
        assertThat(e.deleted()).isFalse();
        RouteMonitor.RouteEvent d = RouteMonitor.parse("[2026-11-25T14:50:02.000001] Deleted 2001:db8:0:2::1 encap "
                + "seg6 "
                + "mode encap.red segs 2 [ fcbb:bb00:1:11:2:: fcbb:bb00:e000:: ] via fe80::2 dev p0 proto 200",
                ZoneOffset.UTC);
        assertThat(d.deleted()).isTrue();
        assertThat(d.carriers()).hasSize(2);
        assertThat(RouteMonitor.parse("Timestamp: something else", ZoneOffset.UTC)).isNull();
    }

    @Test
    void theAgentAnsweredWhenItStartedApplying() {
        List<String> log = List.of(
                "{\"time\":\"2026-11-25T14:50:00.000Z\",\"level\":\"INFO\",\"msg\":\"applied\",\"version\":1,\"took\":"
                        + "2000000}",
                "not json",
                "{\"time\":\"2026-11-25T14:50:01.500Z\",\"level\":\"INFO\",\"msg\":\"applied\",\"version\":2,\"took\":"
                        + "3000000}");
        assertThat(AgentLog.firstApplyAfter(log, Instant.parse("2026-11-25T14:50:01Z")))
                .isEqualTo(Instant.parse("2026-11-25T14:50:01.497Z"));
        assertThat(AgentLog.firstApplyAfter(log, Instant.parse("2026-11-25T14:51:00Z"))).isNull();
    }

    @Test
    void theLoopsOwnSplitIsReadFromSchedulerApisLog() {
        List<String> log = List.of(
                "2026-11-27T03:17:00.000Z  INFO 1 --- [weft-scheduler-api] [   weft-reroute] "
                        + "i.w.s.reroute.HotspotListener"
                        + "    : moved 1 flow slices (hotspot-start; hotspot:e1): event to agents woken 9 ms; "
                        + "{eventId=e1}",
                "2026-11-27T03:17:01.500Z  INFO 1 --- [weft-scheduler-api] [   weft-reroute] "
                        + "i.w.s.reroute.HotspotListener"
                        + "    : moved 2 flow slices (link-down; link-down:leaf1-spine1): event to agents woken 21 ms;"
                        + " {eventId=e2, linkId=leaf1-spine1, sampleToEventMs=4, eventToReceivedMs=4, "
                        + "eventToCommitMs=19,"
                        + " commitToWakeMs=2, receivedToPassUs=2201, lockWaitUs=2, decideUs=546, pinUs=157,"
                        + " recordUs=12117, eventToWakeMs=21}",
                "not a pass");
        SchedulerLog.Pass p = SchedulerLog.firstPass(log, Instant.parse("2026-11-27T03:16:59Z"), "link-down:");
        assertThat(p.trigger()).isEqualTo("link-down");
        assertThat(p.cause()).isEqualTo("link-down:leaf1-spine1");
        assertThat(p.number("eventToReceivedMs")).isEqualTo(4);
        assertThat(p.number("decideUs")).isEqualTo(546);
        assertThat(p.number("eventToWakeMs")).isEqualTo(21);
        assertThat(p.number("absent")).isEqualTo(-1);
        // Only passes logged after the run started count.
        assertThat(SchedulerLog.firstPass(log, Instant.parse("2026-11-27T03:17:02Z"), "link-down:")).isNull();
        assertThat(SchedulerLog.firstPass(log, Instant.EPOCH, "hotspot:").number("eventToWakeMs")).isEqualTo(-1);
    }

    @Test
    void theSenderTakesThePairsFirstEntropyValueFromTheAgentsFile() {
        List<String> file = List.of("2001:db8:0:1::1,2001:db8:0:2::1=49920,50176",
                "2001:db8:0:1::1,2001:db8:0:3::1=4791");
        assertThat(EvSender.portOf(file, "2001:db8:0:1::1,2001:db8:0:2::1=")).isEqualTo(49920);
        assertThat(EvSender.portOf(file, "2001:db8:0:1::1,2001:db8:0:3::1=")).isEqualTo(4791);
        // A prefix of another address is not the pair.
        assertThat(EvSender.portOf(file, "2001:db8:0:1::1,2001:db8:0:3::=")).isEqualTo(-1);
        assertThat(EvSender.portOf(List.of("2001:db8:0:1::1,2001:db8:0:2::1="), "2001:db8:0:1::1,2001:db8:0:2::1="))
                .isEqualTo(-1);
    }

    @Test
    void percentilesAreNearestRank() {
        assertThat(Percentiles.nearestRank(List.of(172L, 28L, 30L), 50)).isEqualTo(30);
        assertThat(Percentiles.nearestRank(List.of(172L, 28L, 30L), 90)).isEqualTo(172);
        assertThat(Percentiles.nearestRank(List.of(5L), 50)).isEqualTo(5);
        assertThat(Percentiles.nearestRank(List.of(), 50)).isEqualTo(-1);
        assertThat(Percentiles.nearestRankDouble(List.of(1.2, 1.0, 1.1, 1.3), 50)).isEqualTo(1.1);
    }

    @Test
    void theCliRejectsBadInputWithOneLineAndExit2BeforeBuilding() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = ExperimentCli.run(List.of("reroute", "--fault", "melt"), new PrintStream(out), new PrintStream(err));
        assertThat(rc).isEqualTo(2);
        String said = err.toString(StandardCharsets.UTF_8);
        assertThat(said).startsWith("experiment: --fault:").hasLineCount(1);
        assertThat(ExperimentCli.run(List.of("--help"), new PrintStream(out), new PrintStream(err))).isZero();
    }

    @Test
    void counterReadingsBecomeIntervalsInTheRunsWindow() {
        long t0 = 1_000_000_000_000L;
        List<long[]> r = List.of(new long[] {t0 - 50_000_000L, 0}, new long[] {t0 + 50_000_000L, 1_000},
                new long[] {t0 + 150_000_000L, 1_250_000}, new long[] {t0 + 250_000_000L, 2_500_000},
                new long[] {t0 + 2_000_000_000L, 9_000_000});
        Throughput t = RxSampler.throughput(r, t0, 1.0);
        // The reading before t0 starts no interval; the one after the run's end closes none.
        assertThat(t.samples()).hasSize(2);
        assertThat(t.samples().get(0).mbit()).isCloseTo(99.92, within(0.01));
        assertThat(t.totalBytes()).isEqualTo(2_499_000);
    }

    @Test
    void affectedFlowsAreThoseOnTheFaultyDirectionOrLink() throws Exception {
        com.fasterxml.jackson.databind.JsonNode job = new com.fasterxml.jackson.databind.ObjectMapper().readTree("""
                {"flows":[
                 {"id":"f1","links":["nic1-leaf1","leaf1-spine1","leaf2-spine1","nic3-leaf2"],
                  "nodes":["nic1","leaf1","spine1","leaf2","nic3"]},
                 {"id":"f2","links":["nic3-leaf2","leaf2-spine1","leaf1-spine1","nic1-leaf1"],
                  "nodes":["nic3","leaf2","spine1","leaf1","nic1"]},
                 {"id":"f3","links":["nic2-leaf1","leaf1-spine2","leaf2-spine2","nic4-leaf2"],
                  "nodes":["nic2","leaf1","spine2","leaf2","nic4"]}]}""");
        // A throttle on leaf1's port towards spine1 touches only the flow sent that way.
        assertThat(RerouteRun.affected(job, "leaf1-spine1", "spine1", false)).containsExactly("f1");
        // A cut link touches both directions.
        assertThat(RerouteRun.affected(job, "leaf1-spine1", "spine1", true)).containsExactly("f1", "f2");
    }
}
