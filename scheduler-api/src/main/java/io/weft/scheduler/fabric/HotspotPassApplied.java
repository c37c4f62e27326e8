package io.weft.scheduler.fabric;

import java.util.Set;

/**
 * Published (inside the writer's change, after its transaction committed) when a hotspot or fast
 * link-down pass of the re-placement loop moved flow slices. Such a pass moves slices one by one, so a
 * multipath job's spread may be left off its optimum; listeners that re-optimise start from here.
 *
 * @param reason what the pass did, as recorded in the path history (e.g. {@code hotspot:<event>})
 * @param jobs   the jobs whose slices moved
 */
public record HotspotPassApplied(String reason, Set<String> jobs) {
    public HotspotPassApplied {
        jobs = Set.copyOf(jobs);
    }
}
