package io.weft.placement;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.weft.fabric.Node;
import io.weft.fabric.Role;

/**
 * Expands a {@link JobSpec} into flows. Patterns (ranks = endpoints in order):
 * <ul>
 *   <li>ring allreduce: rank i to i+1 (mod n), one ring per rail when the NICs carry rails; with
 *       order "auto" ranks are grouped by leaf first, so consecutive ranks share a leaf and only
 *       one flow per leaf crosses the fabric each way;</li>
 *   <li>tree (recursive halving-doubling, butterfly): ceil(log2 n) rounds, in round r rank i
 *       exchanges with i xor 2^r (both directions; pairs beyond n skipped);</li>
 *   <li>all-to-all: every ordered pair, or with n concurrent peers the shifts 1..n (i to i+s);</li>
 *   <li>pipeline: stage i to stage i+1;</li>
 *   <li>explicit: the given flows.</li>
 * </ul>
 * Each pattern flow becomes qpSlices flows of demand/qpSlices. Flow ids: {@code <job>/<k>}, or
 * {@code <job>/<k>.<slice>} with several slices. Bad input fails with the job-file field named.
 */
public final class Patterns {
    private Patterns() {
    }

    public static Job expand(JobSpec spec, DenseFabric ix, int maxFlows) throws PlacementException {
        if (spec.name() == null || spec.name().isBlank()) {
            throw new PlacementException("name", "must be a non-empty string");
        }
        if (!ix.fabric().tenants().contains(spec.tenant())) {
            throw new PlacementException("tenant", "\"" + spec.tenant() + "\" is not a tenant of fabric "
                    + ix.fabric().id() + " " + ix.fabric().tenants());
        }
        if (spec.pattern() == null || !JobSpec.PATTERNS.contains(spec.pattern())) {
            throw new PlacementException("pattern", "must be one of " + JobSpec.PATTERNS + " (got \""
                    + spec.pattern() + "\")");
        }
        if (spec.qpSlices() < 1) {
            throw new PlacementException("qpSlices", "must be >= 1 (got " + spec.qpSlices() + ")");
        }
        if (spec.concurrentPeers() < 0) {
            throw new PlacementException("concurrentPeers", "must be >= 0 (got " + spec.concurrentPeers() + ")");
        }
        if (!spec.order().equals("given") && !spec.order().equals("auto")) {
            throw new PlacementException("order", "must be \"given\" or \"auto\" (got \"" + spec.order() + "\")");
        }
        List<int[]> pairs = new ArrayList<>();
        List<Double> demands = new ArrayList<>();
        long limit = (long) maxFlows;
        if (spec.pattern().equals("explicit")) {
            if (!spec.endpoints().isEmpty()) {
                throw new PlacementException("endpoints", "not used by the explicit pattern (give flows)");
            }
            if (spec.flows().isEmpty()) {
                throw new PlacementException("flows", "the explicit pattern needs at least one flow");
            }
            List<String> names = new ArrayList<>();
            for (int i = 0; i < spec.flows().size(); i++) {
                JobSpec.FlowSpec f = spec.flows().get(i);
                names.add(checkNic(ix, f.src(), "flows[" + i + "].src"));
                names.add(checkNic(ix, f.dst(), "flows[" + i + "].dst"));
                if (f.src().equals(f.dst())) {
                    throw new PlacementException("flows[" + i + "].dst", "same NIC as src (" + f.src() + ")");
                }
                double d = f.demandGbps() == 0 ? spec.demandGbps() : f.demandGbps();
                if (!(d > 0) || Double.isInfinite(d)) {
                    throw new PlacementException(f.demandGbps() == 0 ? "demandGbps" : "flows[" + i + "].demandGbps",
                            "must be > 0 (got " + d + ")");
                }
                pairs.add(new int[] {2 * i, 2 * i + 1});
                demands.add(d);
            }
            return build(spec, pairs, demands, names, limit);
        }
        if (!spec.flows().isEmpty()) {
            throw new PlacementException("flows", "only the explicit pattern takes flows");
        }
        if (!(spec.demandGbps() > 0) || Double.isInfinite(spec.demandGbps())) {
            throw new PlacementException("demandGbps", "must be > 0 (got " + spec.demandGbps() + ")");
        }
        List<String> eps = spec.endpoints();
        if (eps.size() < 2) {
            throw new PlacementException("endpoints", "needs at least 2 NICs (got " + eps.size() + ")");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < eps.size(); i++) {
            checkNic(ix, eps.get(i), "endpoints[" + i + "]");
            if (!seen.add(eps.get(i))) {
                throw new PlacementException("endpoints[" + i + "]", "\"" + eps.get(i) + "\" appears twice");
            }
        }
        int n = eps.size();
        switch (spec.pattern()) {
            case "ring":
                for (List<Integer> ring : rings(spec, ix)) {
                    if (ring.size() < 2) {
                        continue;
                    }
                    for (int i = 0; i < ring.size(); i++) {
                        if (ring.size() == 2 && i == 1) {
                            pairs.add(new int[] {ring.get(1), ring.get(0)});
                        } else {
                            pairs.add(new int[] {ring.get(i), ring.get((i + 1) % ring.size())});
                        }
                        guard(pairs.size(), spec, limit);
                    }
                }
                break;
            case "tree":
                for (int bit = 1; bit < n; bit <<= 1) {
                    for (int i = 0; i < n; i++) {
                        int j = i ^ bit;
                        if (j < n) {
                            pairs.add(new int[] {i, j});
                            guard(pairs.size(), spec, limit);
                        }
                    }
                }
                break;
            case "all-to-all": {
                int shifts = spec.concurrentPeers() == 0 ? n - 1 : Math.min(spec.concurrentPeers(), n - 1);
                guard((long) shifts * n, spec, limit);
                for (int s = 1; s <= shifts; s++) {
                    for (int i = 0; i < n; i++) {
                        pairs.add(new int[] {i, (i + s) % n});
                    }
                }
                break;
            }
            default: // pipeline
                for (int i = 0; i + 1 < n; i++) {
                    pairs.add(new int[] {i, i + 1});
                }
                break;
        }
        for (int i = 0; i < pairs.size(); i++) {
            demands.add(spec.demandGbps());
        }
        return build(spec, pairs, demands, eps, limit);
    }

    private static void guard(long flows, JobSpec spec, long limit) throws PlacementException {
        if (flows * spec.qpSlices() > limit) {
            throw new PlacementException("endpoints", "job expands to more than the limit of " + limit + " flows");
        }
    }

    private static Job build(JobSpec spec, List<int[]> pairs, List<Double> demands, List<String> names, long limit)
            throws PlacementException {
        guard(pairs.size(), spec, limit);
        int k = spec.qpSlices();
        List<Flow> flows = new ArrayList<>(pairs.size() * k);
        for (int i = 0; i < pairs.size(); i++) {
            String src = names.get(pairs.get(i)[0]);
            String dst = names.get(pairs.get(i)[1]);
            for (int s = 0; s < k; s++) {
                String id = spec.name() + "/" + i + (k > 1 ? "." + s : "");
                flows.add(new Flow(id, spec.name(), src, dst, demands.get(i) / k, s));
            }
        }
        return new Job(spec.name(), spec.tenant(), flows);
    }

    /** Rings as lists of endpoint positions: one per rail (rail order of first appearance), else one. */
    static List<List<Integer>> rings(JobSpec spec, DenseFabric ix) {
        Map<Integer, List<Integer>> byRail = new LinkedHashMap<>();
        boolean railed = true;
        for (String e : spec.endpoints()) {
            railed &= ix.fabric().node(e).rail() != null;
        }
        for (int i = 0; i < spec.endpoints().size(); i++) {
            Integer rail = railed ? ix.fabric().node(spec.endpoints().get(i)).rail() : Integer.valueOf(0);
            byRail.computeIfAbsent(rail, r -> new ArrayList<>()).add(i);
        }
        List<List<Integer>> out = new ArrayList<>();
        for (List<Integer> ring : byRail.values()) {
            if (spec.order().equals("auto")) {
                // Stable sort by the index of the leaf each NIC hangs off: ranks on a leaf become neighbours.
                ring.sort((x, y) -> Integer.compare(ix.attach[ix.node(spec.endpoints().get(x))],
                        ix.attach[ix.node(spec.endpoints().get(y))]));
            }
            out.add(ring);
        }
        return out;
    }

    private static String checkNic(DenseFabric ix, String id, String field) throws PlacementException {
        if (id == null) {
            throw new PlacementException(field, "missing NIC id");
        }
        Node n = ix.fabric().node(id);
        if (n == null) {
            throw new PlacementException(field, "unknown NIC \"" + id + "\"");
        }
        if (n.role() != Role.NIC) {
            throw new PlacementException(field, "\"" + id + "\" is a " + n.role().jsonName() + ", not a NIC");
        }
        return id;
    }
}
