package io.weft.southbound.gnmi.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The benchmark on a k=4 fat-tree (20 switches): it runs and its numbers add up. */
class SouthboundBenchTest {
    @Test
    @SuppressWarnings("unchecked")
    void smallFatTreeFullPushAndSingleLinkReplans() throws Exception {
        Map<String, Object> r = SouthboundBench.run(4, 4, true);
        assertThat(r.get("handover")).isEqualTo("route-level changes");
        assertThat(r.get("switches")).isEqualTo(20);
        assertThat(r.get("full_push_in_sync")).isEqualTo(20);
        assertThat(r.get("changes")).isEqualTo(4);
        assertThat(r.get("replan_in_sync_all")).isEqualTo(true);
        assertThat(r.get("replan_changes_exact")).as("changes name exactly the switches whose render changed, "
                + "and a whole hand-over afterwards sends nothing").isEqualTo(true);
        for (Map<String, Object> step : (List<Map<String, Object>>) r.get("steps")) {
            assertThat((Integer) step.get("switches_repushed")).as("%s", step).isBetween(2, 20)
                    .as("only switches whose intent changed").isEqualTo(step.get("switches_changed"));
            assertThat((Long) step.get("ops_sent")).as("%s", step).isPositive()
                    .isLessThan((Long) r.get("full_push_ops") / 4);
        }
        assertThat((Long) r.get("replan_kb_sent_max") * 1000).as("single routes, not whole instances")
                .isLessThan((long) ((Double) r.get("full_push_mb_sent") * 1e6 / 4));
    }

    @Test
    void wholeIntentsTheOldWay() throws Exception {
        Map<String, Object> r = SouthboundBench.run(4, 2, true, null, true);
        assertThat(r.get("replan_in_sync_all")).isEqualTo(true);
        assertThat((Long) r.get("replan_switches_repushed_max")).isEqualTo(r.get("replan_switches_changed_max"));
    }

    @Test
    void switchesInAChildJvmOverTcp() throws Exception {
        Map<String, Object> r = SouthboundBench.run(4, 2, true, "256m");
        assertThat(r.get("fakes")).isEqualTo("child JVM, loopback TCP");
        assertThat(r.get("full_push_in_sync")).isEqualTo(20);
        assertThat(r.get("replan_in_sync_all")).isEqualTo(true);
        assertThat((Long) r.get("replan_ops_sent_max")).isPositive();
    }
}
