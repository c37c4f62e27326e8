package io.weft.plan;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.weft.fabric.Arc;

/** Brute-force candidate paths for tests: every simple switch path up to a length bound, by DFS. */
final class Paths {
    private Paths() {
    }

    /** NIC-to-NIC paths (home links at both ends) with at most {@code distance + extraHops} switch hops. */
    static List<List<Arc>> candidates(FabricPlan plan, String src, String dst, int extraHops, int cap) {
        Arc first = plan.attachment(src);
        Arc home = plan.attachment(dst);
        Arc last = new Arc(home.link(), home.to());
        String from = first.to();
        String to = home.to();
        int bound = plan.distance(from, to) + extraHops;
        List<List<Arc>> out = new ArrayList<>();
        List<Arc> prefix = new ArrayList<>();
        prefix.add(first);
        Set<String> seen = new HashSet<>();
        seen.add(from);
        dfs(plan, from, to, bound, prefix, seen, last, out, cap);
        return out;
    }

    private static void dfs(FabricPlan plan, String at, String to, int bound, List<Arc> prefix, Set<String> seen,
                            Arc last, List<List<Arc>> out, int cap) {
        if (out.size() >= cap) {
            return;
        }
        if (at.equals(to)) {
            List<Arc> p = new ArrayList<>(prefix);
            p.add(last);
            out.add(p);
            return;
        }
        if (prefix.size() - 1 >= bound) {
            return;
        }
        for (Arc a : plan.switchArcs(at)) {
            if (seen.add(a.to())) {
                prefix.add(a);
                dfs(plan, a.to(), to, bound, prefix, seen, last, out, cap);
                prefix.remove(prefix.size() - 1);
                seen.remove(a.to());
            }
        }
    }
}
