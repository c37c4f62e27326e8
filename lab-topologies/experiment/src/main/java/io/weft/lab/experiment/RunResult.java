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
 * @param affected      every flow the fault touched when it struck: for a throttle the flows crossing
 *                      the throttled direction, for a cut link the flows crossing the link either way
 * @param pathsBefore   each flow's links when the traffic started
 * @param pathsAfter    each flow's links when the run ended
 * @param stagesMs      ms after the throttle of each stage the components recorded, in chain order
 *                      (sample, hotspot, committed, agent answered, route installed, throughput
 *                      restored); only those that happened
 * @param hotspots      hotspot-start events of the throttled direction during the run
 * @param committedBy   who moved the hit flow first: "loop" (scheduler-api's hotspot listener) or
 *                      "fabric snapshot" (scheduler-api applying the controller's new link states);
 *                      null when it did not move
 * @param loopSplit     the loop's own split of that pass as scheduler-api logged it (keys ending in
 *                      Ms or Us say the unit); empty when the loop did not move it
 * @param noiseDropShare for a noise run, the share of packets the noisy link's qdisc dropped; else NaN
 */
public record RunResult(String name, Throughput throughput, double throttleAtS, double throttleMbit,
                        String throttleLink, String hitFlow, java.util.Set<String> affected,
                        Map<String, List<String>> pathsBefore,
                        Map<String, List<String>> pathsAfter, LinkedHashMap<String, Long> stagesMs, int hotspots,
                        String committedBy, Map<String, Long> loopSplit, double noiseDropShare) {

    public long deliveredBytes() {
        return throughput.totalBytes();
    }

    /** Flows the fault did not touch whose links changed (must be 0). */
    public int untouchedMoved() {
        int n = 0;
        for (var e : pathsBefore.entrySet()) {
            if (!affected.contains(e.getKey()) && !e.getValue().equals(pathsAfter.get(e.getKey()))) {
                n++;
            }
        }
        return n;
    }

    /** Flows the fault did not touch. */
    public int untouched() {
        return pathsBefore.size() - affected.size();
    }

    /** Flows the fault touched that moved. */
    public int affectedMoved() {
        int n = 0;
        for (String f : affected) {
            if (!pathsBefore.get(f).equals(pathsAfter.get(f))) {
                n++;
            }
        }
        return n;
    }

    /** Whether the hit flow's final path still crosses the faulty link. */
    public boolean endsOnThrottledLink() {
        List<String> after = pathsAfter.get(hitFlow);
        return after != null && after.contains(throttleLink);
    }

    public boolean hitFlowMoved() {
        return !pathsBefore.get(hitFlow).equals(pathsAfter.get(hitFlow));
    }
}
