package io.weft.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.weft.contracts.LinkState;
import io.weft.fabric.Arc;

/**
 * The placement engine: reserves a path for every flow of every job on one fabric snapshot so as
 * to minimise, lexicographically, (1) the maximum arc utilisation, (2) the number of arcs carrying
 * more than t elephant flows (Reunion's tolerance), (3) total hops.
 *
 * <p>Algorithm: greedy in decreasing demand (ties in job order) choosing for each flow the best
 * candidate path under that lexicographic cost ({@link PathChooser}); then rip-up-and-reroute local
 * search over the flows on the most loaded arcs until no move improves or the pass budget is spent;
 * then, when the batch is a full-bisection Clos permutation of equal line-rate flows and the
 * heuristic left a load above 1, the exact edge-colouring assignment ({@link ClosExact}), which
 * always reaches 1. Deterministic: the same input gives the same paths (no hash-order dependence).
 *
 * <p>Incremental: {@link #add}, {@link #release}, {@link #replaceFlows}, {@link #replaceLinks},
 * {@link #updateLinkStates}. Flows of other jobs move only when the local search or the exact
 * assignment lowers the objective; every result lists the moved flows. Loads are kept as integer
 * kbit/s so that a release restores the previous state exactly. Not thread-safe: callers serialise.
 */
public final class PlacementEngine {
    private static final double EPS = 1e-9;
    private static final int SMALL_REPLACE = 64;

    private final FlowEncoder encoder;
    private final PlacementConfig cfg;
    private DenseFabric ix;
    private CandidatePaths cands;
    private PathChooser chooser;
    private final long[] loadKbps;
    private final int[] elephants;
    private final IntList[] arcFlows;
    private final boolean[] avoid;

    private Flow[] flows = new Flow[64];
    private long[] demandKbps = new long[64];
    private int[] srcNode = new int[64];
    private int[] dstNode = new int[64];
    private int[][] paths = new int[64][];
    private FlowEncoding[] encodings = new FlowEncoding[64];
    private String[] tenants = new String[64];
    private String[] unplacedReason = new String[64];
    private int slotCount;
    private final IntList freeSlots = new IntList();
    private final Map<String, Integer> slotById = new HashMap<>();
    private final Map<String, JobState> jobs = new LinkedHashMap<>();
    private long totalHops;
    private int placedCount;
    /** Max arc utilisation, kept up to date on reserve; recomputed lazily after a release touched it. */
    private double curMax;
    /** Arcs whose utilisation equals curMax (within EPS): a release only dirties curMax when this hits 0. */
    private int atMax;
    private boolean maxDirty;
    /** Fabric arcs with more than t elephants, kept up to date on reserve and release. */
    private int collided;

    private static final class JobState {
        final Job job;
        final int[] slots;

        JobState(Job job, int[] slots) {
            this.job = job;
            this.slots = slots;
        }
    }

    public PlacementEngine(DenseFabric index, FlowEncoder encoder, PlacementConfig config) {
        this.ix = index;
        this.encoder = encoder;
        this.cfg = config;
        this.cands = new CandidatePaths(index);
        this.loadKbps = new long[index.arcCount];
        this.elephants = new int[index.arcCount];
        this.arcFlows = new IntList[index.arcCount];
        this.avoid = new boolean[index.arcCount];
        this.chooser = new PathChooser(index, cands, loadKbps, elephants, avoid, config.elephantTolerance());
    }

    public DenseFabric index() {
        return ix;
    }

    public PlacementConfig config() {
        return cfg;
    }

    // ---------------------------------------------------------------- operations

    /**
     * Places every flow of a job. Flows with no path are reported in {@link PlacementResult#unplaced}
     * and stay registered (retried when links come back).
     *
     * @throws PlacementException bad job (unknown NIC, src = dst, demand not positive, duplicate id,
     *     too many flows or slices); nothing is reserved then
     */
    public PlacementResult add(Job job) throws PlacementException {
        validate(job);
        int[] slots = new int[job.flows().size()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = newSlot(job.flows().get(i), job.tenant());
        }
        jobs.put(job.id(), new JobState(job, slots));
        Map<Integer, int[]> before = new HashMap<>();
        if (!colourFirst(slots)) {
            placeGreedy(order(slots), before);
        }
        improve(slots, before, false);
        exactIfNeeded(before);
        List<String> moved = new ArrayList<>();
        List<Unplaced> unplaced = new ArrayList<>();
        encodeChanged(before, slots, moved, unplaced);
        List<PlacedFlow> placed = new ArrayList<>();
        for (int s : slots) {
            if (paths[s] != null) {
                placed.add(placedFlow(s));
            } else {
                unplaced.add(new Unplaced(flows[s], unplacedReason[s]));
            }
        }
        return new PlacementResult(placed, moved, dedupeUnplaced(unplaced), quality());
    }

    /** Releases every flow of a job; other flows do not move. */
    public PlacementResult release(String jobId) throws PlacementException {
        JobState js = jobs.remove(jobId);
        if (js == null) {
            throw new PlacementException("jobId", "no job \"" + jobId + "\"");
        }
        for (int s : js.slots) {
            if (paths[s] != null) {
                unreserve(s);
            }
            slotById.remove(flows[s].id());
            flows[s] = null;
            encodings[s] = null;
            tenants[s] = null;
            unplacedReason[s] = null;
            freeSlots.add(s);
        }
        return new PlacementResult(List.of(), List.of(), List.of(), quality());
    }

    /**
     * Re-places the given flows (e.g. on a hot link); flows of other jobs move only if the
     * objective requires it. Unknown ids are an error naming the first one.
     */
    public PlacementResult replaceFlows(Collection<String> flowIds) throws PlacementException {
        int[] slots = new int[flowIds.size()];
        int i = 0;
        for (String id : flowIds) {
            Integer s = slotById.get(id);
            if (s == null) {
                throw new PlacementException("flowIds", "no flow \"" + id + "\"");
            }
            slots[i++] = s;
        }
        return replace(slots);
    }

    /**
     * Puts one placed flow on a path the caller chose (the re-placement policy, which weighs hotspots
     * the engine does not know about), leaving every other flow where it is. The path is encoded and
     * proven like any other; if that fails the flow stays on its old path, with its old encoding.
     *
     * @param path arc indices from the source NIC to the destination NIC, as {@link #pathArcs} gives them
     * @return the flow as now placed
     * @throws PlacementException the flow is unknown or not placed ({@code flowId}), or the path
     *                            cannot be encoded ({@code path})
     */
    public PlacedFlow pin(String flowId, int[] path) throws PlacementException {
        Integer slot = slotById.get(flowId);
        if (slot == null || paths[slot] == null) {
            throw new PlacementException("flowId", "no placed flow \"" + flowId + "\"");
        }
        int s = slot;
        int[] old = paths[s];
        unreserve(s);
        reserve(s, path.clone());
        List<Unplaced> unplaced = new ArrayList<>();
        encodeChanged(Map.of(s, old), new int[0], new ArrayList<>(), unplaced);
        if (!unplaced.isEmpty()) {
            // encodeChanged released the flow: back onto its old path, re-encoded from the plan.
            reserve(s, old);
            encodeChanged(Map.of(), new int[] {s}, new ArrayList<>(), new ArrayList<>());
            throw new PlacementException("path", "flow " + flowId + ": " + unplaced.get(0).reason());
        }
        return placed(flowId);
    }

    /**
     * Moves the flows crossing these links (hot links from telemetry) onto other paths where one
     * exists; the links stay usable for flows that have no alternative.
     */
    public PlacementResult replaceLinks(Collection<String> linkIds) throws PlacementException {
        LinkedHashSet<Integer> slots = new LinkedHashSet<>();
        List<int[]> marked = new ArrayList<>();
        for (String id : linkIds) {
            int[] arcs = ix.arcsOfLink(id);
            if (arcs == null) {
                throw new PlacementException("linkIds", "no link \"" + id + "\"");
            }
            marked.add(arcs);
            for (int a : arcs) {
                avoid[a] = true;
                if (arcFlows[a] != null) {
                    int[] fs = arcFlows[a].toArray();
                    Arrays.sort(fs);
                    for (int f : fs) {
                        slots.add(f);
                    }
                }
            }
        }
        try {
            return replace(slots.stream().mapToInt(Integer::intValue).toArray());
        } finally {
            for (int[] arcs : marked) {
                avoid[arcs[0]] = false;
                avoid[arcs[1]] = false;
            }
        }
    }

    /**
     * Applies new link states (a new snapshot of the same fabric): flows on links that are now down
     * or drained move; flows waiting for a path are retried. Flows that cannot move are reported.
     */
    public PlacementResult updateLinkStates(Map<String, LinkState> linkStates) {
        ix = ix.withStates(linkStates);
        cands = new CandidatePaths(ix);
        chooser = new PathChooser(ix, cands, loadKbps, elephants, avoid, cfg.elephantTolerance());
        IntList affected = new IntList();
        for (int s = 0; s < slotCount; s++) {
            if (flows[s] == null) {
                continue;
            }
            if (paths[s] == null) {
                affected.add(s);
                continue;
            }
            for (int a : paths[s]) {
                if (!ix.usable[a]) {
                    affected.add(s);
                    break;
                }
            }
        }
        return replace(affected.toArray());
    }

    private PlacementResult replace(int[] slots) {
        Map<Integer, int[]> before = new HashMap<>();
        int[] ordered = order(slots);
        double m = ix.direct ? maxLoad() : 0; // only Valiant decisions need the global max
        for (int s : ordered) {
            int[] old = paths[s];
            if (old != null) {
                before.put(s, old);
                unreserve(s);
            }
            PathChooser.Choice best = chooser.choose(srcNode[s], dstNode[s], demandKbps[s], elephant(s), m - 2 * EPS);
            if (old != null && usable(old)) {
                // Still a valid path: move only when the new one is strictly better (hot links avoided).
                PathChooser.Choice now = chooser.evaluate(old, demandKbps[s], elephant(s));
                boolean better = best.path != null && (best.bottleneck < now.bottleneck - EPS
                        || (best.bottleneck <= now.bottleneck + EPS && best.collisions < now.collisions));
                reserve(s, better ? best.path : old);
            } else if (best.path != null) {
                reserve(s, best.path);
            } else {
                unplacedReason[s] = best.reason;
            }
        }
        // Only the re-placed flows are candidates for further moves: other jobs stay where they are.
        // A small re-place (a hot link's flows) keeps each flow's best choice: no arc-wide scans.
        if (slots.length > SMALL_REPLACE) {
            improve(slots, before, true);
        }
        List<String> moved = new ArrayList<>();
        List<Unplaced> unplaced = new ArrayList<>();
        encodeChanged(before, new int[0], moved, unplaced);
        List<PlacedFlow> placed = new ArrayList<>();
        for (int s : slots) {
            if (paths[s] != null && !Arrays.equals(paths[s], before.get(s))) {
                placed.add(placedFlow(s));
            } else if (paths[s] == null) {
                unplaced.add(new Unplaced(flows[s], unplacedReason[s]));
            }
        }
        return new PlacementResult(placed, moved, dedupeUnplaced(unplaced), quality());
    }

    private boolean usable(int[] path) {
        for (int a : path) {
            if (!ix.usable[a]) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- queries

    public Quality quality() {
        return new Quality(maxLoad(), collisions(), totalHops, placedCount);
    }

    /** The flow with its path, or null when unknown or not placed. */
    public PlacedFlow placed(String flowId) {
        Integer s = slotById.get(flowId);
        return s == null || paths[s] == null ? null : placedFlow(s);
    }

    /** Flows of a job that hold a path, in job order. */
    public List<PlacedFlow> placedFlows(String jobId) {
        JobState js = jobs.get(jobId);
        List<PlacedFlow> out = new ArrayList<>();
        if (js != null) {
            for (int s : js.slots) {
                if (paths[s] != null) {
                    out.add(placedFlow(s));
                }
            }
        }
        return out;
    }

    /** Flows of a job waiting for a path. */
    public List<Unplaced> unplacedFlows(String jobId) {
        JobState js = jobs.get(jobId);
        List<Unplaced> out = new ArrayList<>();
        if (js != null) {
            for (int s : js.slots) {
                if (paths[s] == null) {
                    out.add(new Unplaced(flows[s], unplacedReason[s]));
                }
            }
        }
        return out;
    }

    public Set<String> jobIds() {
        return java.util.Collections.unmodifiableSet(jobs.keySet());
    }

    /** Reserved demand per arc in Gbit/s (a copy), indexed like {@link DenseFabric}. */
    public double[] arcLoadsGbps() {
        double[] out = new double[loadKbps.length];
        for (int a = 0; a < out.length; a++) {
            out[a] = loadKbps[a] / 1e6;
        }
        return out;
    }

    /** Reserved load per arc in kbit/s (exact integers; a copy). */
    public long[] arcLoadsKbps() {
        return loadKbps.clone();
    }

    /** Elephant flows per arc (a copy). */
    public int[] arcElephants() {
        return elephants.clone();
    }

    /** Number of candidate switch pairs cached for this snapshot (for benchmarks and diagnostics). */
    public int cachedPairs() {
        return cands.cachedPairs();
    }

    // ---------------------------------------------------------------- internals

    private void validate(Job job) throws PlacementException {
        if (job.id() == null || job.id().isBlank()) {
            throw new PlacementException("name", "job needs a non-empty name");
        }
        if (jobs.containsKey(job.id())) {
            throw new PlacementException("name", "job \"" + job.id() + "\" is already placed");
        }
        if (job.flows().size() > cfg.maxFlowsPerJob()) {
            throw new PlacementException("flows", "job expands to " + job.flows().size()
                    + " flows, more than the limit of " + cfg.maxFlowsPerJob());
        }
        Set<String> ids = new java.util.HashSet<>(job.flows().size() * 2);
        long[] pairs = new long[job.flows().size()];
        for (int i = 0; i < job.flows().size(); i++) {
            Flow f = job.flows().get(i);
            // Field names are built only for an error: this loop runs for every flow of every job.
            if (!ids.add(f.id()) || slotById.containsKey(f.id())) {
                throw new PlacementException("flows[" + i + "].id", "duplicate flow id \"" + f.id() + "\"");
            }
            checkNic(f.srcNic(), i, "src");
            checkNic(f.dstNic(), i, "dst");
            if (f.srcNic().equals(f.dstNic())) {
                throw new PlacementException("flows[" + i + "].dst", "same NIC as src (" + f.srcNic() + ")");
            }
            if (!(f.demandGbps() > 0) || Double.isInfinite(f.demandGbps())) {
                throw new PlacementException("flows[" + i + "].demandGbps", "must be > 0 (got " + f.demandGbps() + ")");
            }
            pairs[i] = (long) ix.node(f.srcNic()) * ix.nodeCount + ix.node(f.dstNic());
        }
        // Flows per (src, dst) pair: each needs its own entropy value.
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
    }

    private void checkNic(String id, int flow, String end) throws PlacementException {
        int n = id == null ? -1 : ix.node(id);
        if (n < 0) {
            throw new PlacementException("flows[" + flow + "]." + end, "unknown NIC \"" + id + "\"");
        }
        if (ix.roles[n] != io.weft.fabric.Role.NIC) {
            throw new PlacementException("flows[" + flow + "]." + end, "\"" + id + "\" is a "
                    + ix.roles[n].jsonName() + ", not a NIC");
        }
    }

    private int newSlot(Flow f, String tenant) {
        int s;
        if (freeSlots.size() > 0) {
            s = freeSlots.removeLast();
        } else {
            if (slotCount == flows.length) {
                int n = slotCount * 2;
                flows = Arrays.copyOf(flows, n);
                demandKbps = Arrays.copyOf(demandKbps, n);
                srcNode = Arrays.copyOf(srcNode, n);
                dstNode = Arrays.copyOf(dstNode, n);
                paths = Arrays.copyOf(paths, n);
                encodings = Arrays.copyOf(encodings, n);
                tenants = Arrays.copyOf(tenants, n);
                unplacedReason = Arrays.copyOf(unplacedReason, n);
            }
            s = slotCount++;
        }
        flows[s] = f;
        demandKbps[s] = Math.max(1, Math.round(f.demandGbps() * 1e6));
        srcNode[s] = ix.node(f.srcNic());
        dstNode[s] = ix.node(f.dstNic());
        paths[s] = null;
        encodings[s] = null;
        tenants[s] = tenant;
        unplacedReason[s] = "not placed yet";
        slotById.put(f.id(), s);
        return s;
    }

    /** Largest demand first; ties keep the given order (job order). */
    private int[] order(int[] slots) {
        Integer[] boxed = new Integer[slots.length];
        for (int i = 0; i < slots.length; i++) {
            boxed[i] = i;
        }
        Arrays.sort(boxed, (x, y) -> {
            int c = Long.compare(demandKbps[slots[y]], demandKbps[slots[x]]);
            return c != 0 ? c : Integer.compare(x, y);
        });
        int[] out = new int[slots.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = slots[boxed[i]];
        }
        return out;
    }

    private boolean elephant(int s) {
        return flows[s].demandGbps() >= cfg.elephantMinGbps();
    }

    /**
     * On an otherwise empty engine and a Clos with equal demands, places the batch straight from the
     * edge colouring ({@link ClosExact}): optimal on two tiers and link-disjoint for permutations,
     * and cheaper than greedy plus local search. Returns false when it does not apply.
     */
    private boolean colourFirst(int[] slots) {
        if (!cfg.exactClos() || ix.direct || placedCount != 0 || slots.length == 0) {
            return false;
        }
        int[] src = new int[slots.length];
        int[] dst = new int[slots.length];
        double[] demand = new double[slots.length];
        for (int i = 0; i < slots.length; i++) {
            src[i] = srcNode[slots[i]];
            dst[i] = dstNode[slots[i]];
            demand[i] = flows[slots[i]].demandGbps();
        }
        int[][] exact = ClosExact.assign(ix, src, dst, demand);
        if (exact == null) {
            return false;
        }
        for (int i = 0; i < slots.length; i++) {
            reserve(slots[i], exact[i]);
        }
        return true;
    }

    private void placeGreedy(int[] ordered, Map<Integer, int[]> before) {
        for (int s : ordered) {
            PathChooser.Choice c = chooser.choose(srcNode[s], dstNode[s],
                    demandKbps[s], elephant(s), maxLoad() + EPS);
            if (c.path == null) {
                unplacedReason[s] = c.reason;
            } else {
                reserve(s, c.path);
            }
        }
    }

    /**
     * Rip-up and reroute: flows on the most loaded arcs (and on collision arcs) are taken out and
     * put back on their best path; a move is kept only when it lowers that flow's bottleneck or,
     * at equal bottleneck, its collisions. Preferred victims: the flows just placed.
     */
    private void improve(int[] fresh, Map<Integer, int[]> before, boolean onlyFresh) {
        boolean[] isFresh = new boolean[slotCount];
        for (int s : fresh) {
            isFresh[s] = true;
        }
        int budget = 4 * fresh.length + (onlyFresh ? 0 : 1024);
        double[] potential = null;
        for (int pass = 0; pass < cfg.localSearchPasses() && budget > 0; pass++) {
            double m = maxLoad();
            if (m <= EPS) {
                return;
            }
            // Stop when a pass lowered neither the max load, nor the arcs at it, nor the collisions.
            double[] pot = potential();
            if (potential != null && !lower(pot, potential)) {
                return;
            }
            potential = pot;
            // NIC arcs carry the same load on every path: when they set the maximum, no move can lower it.
            double fabricMax = 0;
            double nicMax = 0;
            for (int a = 0; a < loadKbps.length; a++) {
                if (loadKbps[a] != 0) {
                    if (nicArc(a)) {
                        nicMax = Math.max(nicMax, util(a));
                    } else {
                        fabricMax = Math.max(fabricMax, util(a));
                    }
                }
            }
            boolean loadMoves = fabricMax > nicMax + EPS;
            boolean[] seen = new boolean[slotCount];
            IntList victims = new IntList();
            for (int a = 0; a < loadKbps.length; a++) {
                if (arcFlows[a] == null || arcFlows[a].size() == 0 || nicArc(a)) {
                    continue;
                }
                // Collision victims only where one move can clear the collision (t + 1 elephants).
                boolean hot = (loadMoves && util(a) >= fabricMax - EPS)
                        || elephants[a] == cfg.elephantTolerance() + 1;
                if (!hot) {
                    continue;
                }
                for (int i = 0; i < arcFlows[a].size(); i++) {
                    int s = arcFlows[a].get(i);
                    if (!seen[s] && (!onlyFresh || isFresh[s])) {
                        seen[s] = true;
                        victims.add(s);
                    }
                }
            }
            int[] v = victims.toArray();
            Integer[] boxed = Arrays.stream(v).boxed().toArray(Integer[]::new);
            Arrays.sort(boxed, (x, y) -> {
                if (isFresh[x] != isFresh[y]) {
                    return isFresh[x] ? -1 : 1;
                }
                int c = Long.compare(demandKbps[y], demandKbps[x]);
                return c != 0 ? c : Integer.compare(x, y);
            });
            boolean improved = false;
            for (Integer s : boxed) {
                if (budget-- <= 0) {
                    break;
                }
                int[] old = paths[s];
                unreserve(s);
                PathChooser.Choice now = chooser.evaluate(old, demandKbps[s], elephant(s));
                PathChooser.Choice best = chooser.choose(srcNode[s], dstNode[s],
                        demandKbps[s], elephant(s), m - 2 * EPS);
                boolean better = best.path != null && (best.bottleneck < now.bottleneck - EPS
                        || (best.bottleneck <= now.bottleneck + EPS && best.collisions < now.collisions));
                if (better) {
                    before.putIfAbsent(s, old);
                    reserve(s, best.path);
                    improved = true;
                } else {
                    reserve(s, old);
                }
            }
            if (!improved) {
                return;
            }
        }
    }

    /**
     * On a Clos with equal demands, tries the edge-colouring assignment of every placed flow and
     * adopts it when it lowers the max load. Skipped when the max load is already set by NIC links
     * (fixed whatever the paths).
     */
    private void exactIfNeeded(Map<Integer, int[]> before) {
        if (!cfg.exactClos() || ix.direct) {
            return;
        }
        double fabricMax = 0;
        double nicMax = 0;
        for (int a = 0; a < loadKbps.length; a++) {
            if (loadKbps[a] == 0) {
                continue;
            }
            if (nicArc(a)) {
                nicMax = Math.max(nicMax, util(a));
            } else {
                fabricMax = Math.max(fabricMax, util(a));
            }
        }
        if (fabricMax <= nicMax + EPS) {
            return;
        }
        IntList all = new IntList();
        for (int s = 0; s < slotCount; s++) {
            if (flows[s] != null && paths[s] != null) {
                all.add(s);
            } else if (flows[s] != null) {
                return; // some flow has no path: not the clean case the exact method covers
            }
        }
        int[] slots = all.toArray();
        int[] src = new int[slots.length];
        int[] dst = new int[slots.length];
        double[] demand = new double[slots.length];
        for (int i = 0; i < slots.length; i++) {
            src[i] = srcNode[slots[i]];
            dst[i] = dstNode[slots[i]];
            demand[i] = flows[slots[i]].demandGbps();
        }
        int[][] exact = ClosExact.assign(ix, src, dst, demand);
        if (exact == null) {
            return;
        }
        long[] trial = new long[loadKbps.length];
        double trialMax = 0;
        for (int i = 0; i < slots.length; i++) {
            for (int a : exact[i]) {
                trial[a] += demandKbps[slots[i]];
                trialMax = Math.max(trialMax, trial[a] / (ix.capacityGbps[a] * 1e6));
            }
        }
        if (trialMax >= maxLoad() - EPS) {
            return;
        }
        for (int i = 0; i < slots.length; i++) {
            int s = slots[i];
            if (!Arrays.equals(paths[s], exact[i])) {
                before.putIfAbsent(s, paths[s]);
                unreserve(s);
            }
        }
        for (int i = 0; i < slots.length; i++) {
            if (paths[slots[i]] == null) {
                reserve(slots[i], exact[i]);
            }
        }
    }

    /**
     * Encodes fresh flows and every flow whose path changed; a flow whose path fails to encode loses
     * its reservation and is reported. Fills {@code moved} with previously placed flows that moved.
     */
    private void encodeChanged(Map<Integer, int[]> before, int[] fresh, List<String> moved, List<Unplaced> unplaced) {
        int[] todo = new int[before.size() + fresh.length];
        int n = 0;
        for (int s : before.keySet()) {
            todo[n++] = s;
        }
        // A plain add has nothing in before: skip the boxed lookups (one Integer per flow otherwise).
        boolean none = before.isEmpty();
        for (int s : fresh) {
            if (none || !before.containsKey(s)) {
                todo[n++] = s;
            }
        }
        todo = Arrays.copyOf(todo, n);
        Arrays.sort(todo);
        for (int s : todo) {
            int[] old = none ? null : before.get(s);
            if (paths[s] == null) {
                encodings[s] = null;
                continue;
            }
            if (old != null && Arrays.equals(old, paths[s]) && encodings[s] != null) {
                continue;
            }
            try {
                encodings[s] = encoder.encode(ix, paths[s], tenants[s]);
                if (old != null) {
                    moved.add(flows[s].id());
                }
            } catch (FlowEncoder.EncodingFailure e) {
                unreserve(s);
                encodings[s] = null;
                unplacedReason[s] = "encoding: " + e.getMessage();
                unplaced.add(new Unplaced(flows[s], unplacedReason[s]));
            }
        }
    }

    private static List<Unplaced> dedupeUnplaced(List<Unplaced> in) {
        Map<String, Unplaced> m = new LinkedHashMap<>();
        for (Unplaced u : in) {
            m.putIfAbsent(u.flow().id(), u);
        }
        return new ArrayList<>(m.values());
    }

    private void reserve(int s, int[] path) {
        paths[s] = path;
        unplacedReason[s] = null;
        boolean e = elephant(s);
        for (int a : path) {
            loadKbps[a] += demandKbps[s];
            if (e && ++elephants[a] == cfg.elephantTolerance() + 1 && !nicArc(a)) {
                collided++;
            }
            if (arcFlows[a] == null) {
                arcFlows[a] = new IntList(4);
            }
            arcFlows[a].add(s);
            if (!maxDirty) {
                double u = util(a);
                double was = (loadKbps[a] - demandKbps[s]) * 1.0 / (ix.capacityGbps[a] * 1e6);
                if (u > curMax + EPS) {
                    curMax = u;
                    atMax = 1;
                } else if (u >= curMax - EPS && was < curMax - EPS) {
                    atMax++;
                }
            }
        }
        totalHops += path.length;
        placedCount++;
    }

    private void unreserve(int s) {
        int[] path = paths[s];
        boolean e = elephant(s);
        for (int a : path) {
            boolean wasAtMax = util(a) >= curMax - EPS;
            loadKbps[a] -= demandKbps[s];
            if (!maxDirty && wasAtMax && util(a) < curMax - EPS && --atMax <= 0) {
                maxDirty = true;
            }
            if (e && elephants[a]-- == cfg.elephantTolerance() + 1 && !nicArc(a)) {
                collided--;
            }
            arcFlows[a].removeValue(s);
        }
        totalHops -= path.length;
        placedCount--;
        paths[s] = null;
        unplacedReason[s] = "no path";
    }

    /** (max load, fabric arcs at it, collisions): what local search must lower, lexicographically. */
    private double[] potential() {
        double m = maxLoad();
        int atMax = 0;
        for (int a = 0; a < loadKbps.length; a++) {
            if (loadKbps[a] != 0 && util(a) >= m - EPS) {
                atMax++;
            }
        }
        return new double[] {m, atMax, collisions()};
    }

    private static boolean lower(double[] x, double[] y) {
        for (int i = 0; i < x.length; i++) {
            if (x[i] < y[i] - EPS) {
                return true;
            }
            if (x[i] > y[i] + EPS) {
                return false;
            }
        }
        return false;
    }

    private boolean nicArc(int a) {
        return ix.tier[ix.arcFrom[a]] == 0 || ix.tier[ix.arcTo[a]] == 0;
    }

    private double util(int a) {
        return loadKbps[a] / (ix.capacityGbps[a] * 1e6);
    }

    private double maxLoad() {
        if (!maxDirty) {
            return curMax;
        }
        double m = 0;
        int n = 0;
        for (int a = 0; a < loadKbps.length; a++) {
            if (loadKbps[a] != 0) {
                double u = util(a);
                if (u > m + EPS) {
                    m = u;
                    n = 1;
                } else if (u >= m - EPS) {
                    n++;
                }
            }
        }
        curMax = m;
        atMax = n;
        maxDirty = false;
        return m;
    }

    /** Fabric arcs carrying more than t elephants (a NIC link carries all its own slices whatever the paths). */
    private int collisions() {
        return collided;
    }

    private List<Arc> arcList(int[] path) {
        Arc[] out = new Arc[path.length];
        for (int i = 0; i < path.length; i++) {
            out[i] = ix.arcs[path[i]];
        }
        return List.of(out);
    }

    private PlacedFlow placedFlow(int s) {
        return new PlacedFlow(flows[s], arcList(paths[s]), encodings[s]);
    }

    /** Path of a placed flow as arc indices (a copy), or null. For tests and benchmarks. */
    public int[] pathArcs(String flowId) {
        Integer s = slotById.get(flowId);
        return s == null || paths[s] == null ? null : paths[s].clone();
    }
}
