package io.weft.lab.experiment;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run of the experiment.
 *
 * @param name          baseline, loop-off or loop-on
 * @param throughput    the receiver's 100 ms intervals
 * @param throttleMbit  the throttle's rate (NaN for the baseline)
 * @param throttleLink  the link throttled (its first node's end sends into the TBF)
 * @param hitFlow       the flow whose path crossed the throttled direction
 * @param pathsBefore   each flow's links when the traffic started
 * @param pathsAfter    each flow's links when the run ended
 * @param stagesMs      ms after the throttle of each stage the components recorded, in chain order
 *                      (sample, hotspot, committed, agent answered, route installed, throughput
 *                      restored); only those that happened
 * @param hotspots      hotspot-start events of the throttled direction during the run
 */
public record RunResult(String name, Throughput throughput, double throttleAtS, double throttleMbit,
                        String throttleLink, String hitFlow, Map<String, List<String>> pathsBefore,
                        Map<String, List<String>> pathsAfter, LinkedHashMap<String, Long> stagesMs, int hotspots) {

    public long deliveredBytes() {
        return throughput.totalBytes();
    }

    /** Flows other than the hit one whose links changed. */
    public int untouchedMoved() {
        int n = 0;
        for (var e : pathsBefore.entrySet()) {
            if (!e.getKey().equals(hitFlow) && !e.getValue().equals(pathsAfter.get(e.getKey()))) {
                n++;
            }
        }
        return n;
    }

    /** Flows other than the hit one. */
    public int untouched() {
        return pathsBefore.size() - 1;
    }

    /** Whether the hit flow's final path still crosses the throttled link. */
    public boolean endsOnThrottledLink() {
        List<String> after = pathsAfter.get(hitFlow);
        return after != null && after.contains(throttleLink);
    }

    public boolean hitFlowMoved() {
        return !pathsBefore.get(hitFlow).equals(pathsAfter.get(hitFlow));
    }
}
