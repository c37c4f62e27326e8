package io.weft.placement;

import java.util.Arrays;
import java.util.function.Predicate;

import com.carrotsearch.hppc.ObjectHashSet;
import io.weft.fabric.Role;

/**
 * Checks a job before the engine reserves anything for it: a name not yet placed, at most the
 * configured number of flows, flow ids unique (in the job and among placed flows), both ends
 * known NICs and distinct, demands positive and finite, and at most {@code maxEvsPerPair} flows
 * per (source, destination) pair, since each needs its own entropy value. Errors name the field as
 * the job file spells it. O(flows log flows); field names are built only for an error.
 */
final class JobAdmission {
    private JobAdmission() {
    }

    /**
     * @param jobPlaced     whether a job of that name is placed
     * @param flowPlaced    whether a flow of that id is registered
     * @return the node indices of flow i's source and destination NIC at 2i and 2i + 1 (the engine
     *     registers the flows with them instead of looking every NIC id up again)
     * @throws PlacementException naming the first culprit
     */
    static int[] check(Job job, DenseFabric ix, PlacementConfig cfg, Predicate<String> jobPlaced,
                      Predicate<String> flowPlaced) throws PlacementException {
        if (job.id() == null || job.id().isBlank()) {
            throw new PlacementException("name", "job needs a non-empty name");
        }
        if (jobPlaced.test(job.id())) {
            throw new PlacementException("name", "job \"" + job.id() + "\" is already placed");
        }
        int n = job.flows().size();
        if (n > cfg.maxFlowsPerJob()) {
            throw new PlacementException("flows", "job expands to " + n + " flows, more than the limit of "
                    + cfg.maxFlowsPerJob());
        }
        ObjectHashSet<String> ids = new ObjectHashSet<>(n);
        long[] pairs = new long[n];
        int[] ends = new int[2 * n];
        for (int i = 0; i < n; i++) {
            Flow f = job.flows().get(i);
            if (!ids.add(f.id()) || flowPlaced.test(f.id())) {
                throw new PlacementException("flows[" + i + "].id", "duplicate flow id \"" + f.id() + "\"");
            }
            int src = nic(ix, f.srcNic(), i, "src");
            int dst = nic(ix, f.dstNic(), i, "dst");
            if (src == dst) {
                throw new PlacementException("flows[" + i + "].dst", "same NIC as src (" + f.srcNic() + ")");
            }
            if (!(f.demandGbps() > 0) || Double.isInfinite(f.demandGbps())) {
                throw new PlacementException("flows[" + i + "].demandGbps", "must be > 0 (got " + f.demandGbps() + ")");
            }
            pairs[i] = (long) src * ix.nodeCount + dst;
            ends[2 * i] = src;
            ends[2 * i + 1] = dst;
        }
        Arrays.sort(pairs);
        int run = 0;
        for (int i = 0; i < pairs.length; i++) {
            run = i > 0 && pairs[i] == pairs[i - 1] ? run + 1 : 1;
            if (run > cfg.maxEvsPerPair()) {
                String src = ix.nodeIds[(int) (pairs[i] / ix.nodeCount)];
                String dst = ix.nodeIds[(int) (pairs[i] % ix.nodeCount)];
                throw new PlacementException("qpSlices", "more than " + cfg.maxEvsPerPair()
                        + " slices between " + src + " and " + dst + " (one entropy value each)");
            }
        }
        return ends;
    }

    private static int nic(DenseFabric ix, String id, int flow, String end) throws PlacementException {
        int n = id == null ? -1 : ix.node(id);
        if (n < 0) {
            throw new PlacementException("flows[" + flow + "]." + end, "unknown NIC \"" + id + "\"");
        }
        if (ix.roles[n] != Role.NIC) {
            throw new PlacementException("flows[" + flow + "]." + end, "\"" + id + "\" is a "
                    + ix.roles[n].jsonName() + ", not a NIC");
        }
        return n;
    }
}
