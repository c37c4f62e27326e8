package io.weft.placement;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;

import io.weft.contracts.LinkState;
import io.weft.fabric.Arc;

/**
 * The placement engine: reserves a path for every flow of every job on one fabric snapshot so as
 * to minimise, lexicographically, (1) the maximum arc utilisation, (2) the number of arcs carrying
 * more than t elephant flows (Reunion's tolerance), (3) total hops.
 *
 * <p>Algorithm: greedy in decreasing demand (ties in job order) choosing for each flow the best
 * candidate path under that lexicographic cost ({@link PathChooser}); then rip-up-and-reroute
 * ({@link LocalSearch}) over the flows on the most loaded arcs until no move improves or the pass
 * budget is spent; then, on a Clos whose heuristic left a fabric arc as the bottleneck, the exact
 * edge-colouring assignment ({@link ExactClosPass}). Every changed path is encoded and proven
 * ({@link EncodingPass}). Deterministic: the same input gives the same paths.
 *
 * <p>This class admits jobs ({@link JobAdmission}), sequences the passes and answers queries; the
 * state (flows, paths, per-arc reservations) has one owner, the {@link ReservationLedger}.
 * Incremental: {@link #add}, {@link #release}, {@link #replaceFlows}, {@link #pin},
 * {@link #updateLinkStates}. Flows of other jobs move only when the local search or the exact
 * assignment lowers the objective; every result lists the moved flows. Not thread-safe: callers
 * serialise.
 */
public final class PlacementEngine {
    private static final double EPS = ReservationLedger.EPS;
    /** A re-placement of more flows than this also runs local search over them. */
    private static final int SMALL_REPLACE = 64;

    private final FlowEncoder encoder;
    private final PlacementConfig cfg;
    private DenseFabric ix;
    private CandidatePaths cands;
    private PathChooser chooser;
    private final ReservationLedger ledger;
    private final LocalSearch localSearch;
    private final ExactClosPass exact;
    private final EncodingPass encoding;
    /** Placed jobs in placement order, each with its flows' slots in job order. */
    private final Map<String, int[]> jobs = new LinkedHashMap<>();

    public PlacementEngine(DenseFabric index, FlowEncoder encoder, PlacementConfig config) {
        this.ix = index;
        this.encoder = encoder;
        this.cfg = config;
        this.ledger = new ReservationLedger(index, config);
        this.cands = new CandidatePaths(index);
        this.chooser = newChooser();
        this.localSearch = new LocalSearch(ledger, config);
        this.exact = new ExactClosPass(ledger, config);
        this.encoding = new EncodingPass(ledger, encoder);
    }

    private PathChooser newChooser() {
        return new PathChooser(ix, cands, ledger.loadKbps(), ledger.elephants(), cfg.elephantTolerance());
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
        int[] ends = JobAdmission.check(job, ix, cfg, jobs::containsKey, id -> ledger.slotOf(id) >= 0);
        int[] slots = new int[job.flows().size()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = ledger.newSlot(job.flows().get(i), job.tenant(), ends[2 * i], ends[2 * i + 1]);
            ledger.setHomePortsOnly(slots[i], job.homePortsOnly());
        }
        jobs.put(job.id(), slots);
        Map<Integer, int[]> before = new HashMap<>();
        if (!exact.placeFirst(ix, slots)) {
            placeGreedy(ledger.byDemand(slots));
        }
        localSearch.improve(chooser, slots, before, false);
        exact.reassignIfLower(ix, before);
        List<String> moved = new ArrayList<>();
        List<Unplaced> unplaced = new ArrayList<>();
        encoding.encodeChanged(ix, before, slots, moved, unplaced);
        List<PlacedFlow> placed = new ArrayList<>();
        for (int s : slots) {
            if (ledger.path(s) != null) {
                placed.add(placedFlow(s));
            } else {
                unplaced.add(unplaced(s));
            }
        }
        return new PlacementResult(placed, moved, dedupeUnplaced(unplaced), quality());
    }

    /** Releases every flow of a job; other flows do not move. */
    public PlacementResult release(String jobId) throws PlacementException {
        int[] slots = jobs.remove(jobId);
        if (slots == null) {
            throw new PlacementException("jobId", "no job \"" + jobId + "\"");
        }
        for (int s : slots) {
            ledger.freeSlot(s);
        }
        return new PlacementResult(List.of(), List.of(), List.of(), quality());
    }

    /**
     * Re-places the given flows; flows of other jobs move only if the objective requires it.
     * Unknown ids are an error naming the first one.
     */
    public PlacementResult replaceFlows(Collection<String> flowIds) throws PlacementException {
        int[] slots = new int[flowIds.size()];
        int i = 0;
        for (String id : flowIds) {
            int s = ledger.slotOf(id);
            if (s < 0) {
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
        int s = ledger.slotOf(flowId);
        if (s < 0 || ledger.path(s) == null) {
            throw new PlacementException("flowId", "no placed flow \"" + flowId + "\"");
        }
        checkPinnable(flowId, s, path);
        int[] old = ledger.path(s);
        ledger.unreserve(s);
        ledger.reserve(s, path.clone());
        List<Unplaced> unplaced = new ArrayList<>();
        encoding.encodeChanged(ix, Map.of(s, old), new int[0], new ArrayList<>(), unplaced);
        if (!unplaced.isEmpty()) {
            // The encoding pass released the flow: back onto its old path, re-encoded from the plan.
            ledger.reserve(s, old);
            encoding.encodeChanged(ix, Map.of(), new int[] {s}, new ArrayList<>(), new ArrayList<>());
            throw new PlacementException("path", "flow " + flowId + ": " + unplaced.get(0).reason());
        }
        return placed(flowId);
    }

    /**
     * A pinned path must be a walk from the flow's own source NIC to its own destination NIC over arcs
     * of this fabric: the encoding pass proves what the plan forwards, not whose flow the path is, so a
     * path between two other NICs would otherwise be reserved and served as this flow's.
     */
    private void checkPinnable(String flowId, int s, int[] path) throws PlacementException {
        if (path == null || path.length == 0) {
            throw new PlacementException("path", "flow " + flowId + ": empty path");
        }
        for (int i = 0; i < path.length; i++) {
            if (path[i] < 0 || path[i] >= ix.arcCount()) {
                throw new PlacementException("path", "flow " + flowId + ": hop " + i + " is no link of the fabric");
            }
            if (i > 0 && ix.from(path[i]) != ix.to(path[i - 1])) {
                throw new PlacementException("path", "flow " + flowId + ": hop " + i + " does not start where hop "
                        + (i - 1) + " ends");
            }
        }
        if (ix.from(path[0]) != ledger.src(s) || ix.to(path[path.length - 1]) != ledger.dst(s)) {
            throw new PlacementException("path", "flow " + flowId + ": the path must run from the flow's source NIC "
                    + ix.nodeId(ledger.src(s)) + " to its destination NIC " + ix.nodeId(ledger.dst(s)) + ", not from "
                    + ix.nodeId(ix.from(path[0])) + " to " + ix.nodeId(ix.to(path[path.length - 1])));
        }
    }

    /**
     * Applies new link states (a new snapshot of the same fabric): flows on links that are now down
     * or drained move; flows waiting for a path are retried. Flows that cannot move are reported.
     */
    public PlacementResult updateLinkStates(Map<String, LinkState> linkStates) {
        ix = ix.withStates(linkStates);
        ledger.reindex(ix);
        cands = new CandidatePaths(ix);
        chooser = newChooser();
        IntList affected = new IntList();
        for (int s = 0; s < ledger.slotCount(); s++) {
            if (ledger.registered(s) && !usable(ledger.path(s))) {
                affected.add(s);
            }
        }
        return replace(affected.toArray());
    }

    /**
     * Takes the flows off their paths in decreasing demand and puts each on its best path; a flow
     * whose old path is still usable goes back to it unless the new one beats it.
     */
    private PlacementResult replace(int[] slots) {
        Map<Integer, int[]> before = new HashMap<>();
        double m = ix.direct ? ledger.maxLoad() : 0; // only Valiant decisions need the global max
        for (int s : ledger.byDemand(slots)) {
            int[] old = ledger.path(s);
            if (old != null) {
                before.put(s, old);
                ledger.unreserve(s);
            }
            long d = ledger.demandKbps(s);
            boolean e = ledger.elephant(s);
            PathChooser.Choice best = chooser.choose(ledger.src(s), ledger.dst(s), d, e, m - 2 * EPS,
                    ledger.homePortsOnly(s));
            if (old != null && usable(old)) {
                ledger.reserve(s, best.beats(chooser.evaluate(old, d, e)) ? best.path : old);
            } else if (best.path != null) {
                ledger.reserve(s, best.path);
            } else {
                ledger.setUnplacedReason(s, best.reason);
            }
        }
        // Only the re-placed flows are candidates for further moves: other jobs stay where they are.
        // A small re-place keeps each flow's best choice: no arc-wide scans.
        if (slots.length > SMALL_REPLACE) {
            localSearch.improve(chooser, slots, before, true);
        }
        List<String> moved = new ArrayList<>();
        List<Unplaced> unplaced = new ArrayList<>();
        encoding.encodeChanged(ix, before, new int[0], moved, unplaced);
        List<PlacedFlow> placed = new ArrayList<>();
        for (int s : slots) {
            int[] path = ledger.path(s);
            if (path == null) {
                unplaced.add(unplaced(s));
            } else if (!Arrays.equals(path, before.get(s))) {
                placed.add(placedFlow(s));
            }
        }
        return new PlacementResult(placed, moved, dedupeUnplaced(unplaced), quality());
    }

    /** Greedy: each flow in the given order on its best path under the reservations so far. */
    private void placeGreedy(int[] ordered) {
        for (int s : ordered) {
            PathChooser.Choice c = chooser.choose(ledger.src(s), ledger.dst(s), ledger.demandKbps(s),
                    ledger.elephant(s), ledger.maxLoad() + EPS, ledger.homePortsOnly(s));
            if (c.path == null) {
                ledger.setUnplacedReason(s, c.reason);
            } else {
                ledger.reserve(s, c.path);
            }
        }
    }

    /** False for no path, or a path crossing a link now down or drained. */
    private boolean usable(int[] path) {
        if (path == null) {
            return false;
        }
        for (int a : path) {
            if (!ix.usable[a]) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- queries

    public Quality quality() {
        return ledger.quality();
    }

    /** The flow with its path, or null when unknown or not placed. */
    public PlacedFlow placed(String flowId) {
        int s = ledger.slotOf(flowId);
        return s < 0 || ledger.path(s) == null ? null : placedFlow(s);
    }

    /** Flows of a job that hold a path, in job order. */
    public List<PlacedFlow> placedFlows(String jobId) {
        List<PlacedFlow> out = new ArrayList<>();
        for (int s : jobs.getOrDefault(jobId, new int[0])) {
            if (ledger.path(s) != null) {
                out.add(placedFlow(s));
            }
        }
        return out;
    }

    /** Flows of a job waiting for a path. */
    public List<Unplaced> unplacedFlows(String jobId) {
        List<Unplaced> out = new ArrayList<>();
        for (int s : jobs.getOrDefault(jobId, new int[0])) {
            if (ledger.path(s) == null) {
                out.add(unplaced(s));
            }
        }
        return out;
    }

    public Set<String> jobIds() {
        return Collections.unmodifiableSet(jobs.keySet());
    }

    /** The port rule the job was added with ({@link Job#homePortsOnly}); false for an unknown job. */
    public boolean homePortsOnly(String jobId) {
        int[] slots = jobs.get(jobId);
        return slots != null && slots.length > 0 && ledger.homePortsOnly(slots[0]);
    }

    /** Reserved demand per arc in Gbit/s (a copy), indexed like {@link DenseFabric}. */
    public double[] arcLoadsGbps() {
        long[] load = ledger.loadKbps();
        double[] out = new double[load.length];
        for (int a = 0; a < out.length; a++) {
            out[a] = load[a] / 1e6;
        }
        return out;
    }

    /** Reserved load per arc in kbit/s (exact integers; a copy). */
    public long[] arcLoadsKbps() {
        return ledger.loadKbps().clone();
    }

    /** Elephant flows per arc (a copy). */
    public int[] arcElephants() {
        return ledger.elephants().clone();
    }

    /** Number of candidate switch pairs cached for this snapshot (for benchmarks and diagnostics). */
    public int cachedPairs() {
        return cands.cachedPairs();
    }

    /** Path of a placed flow as arc indices (a copy), or null. For tests and benchmarks. */
    public int[] pathArcs(String flowId) {
        int s = ledger.slotOf(flowId);
        return s < 0 || ledger.path(s) == null ? null : ledger.path(s).clone();
    }

    // ---------------------------------------------------------------- results

    private Unplaced unplaced(int s) {
        return new Unplaced(ledger.flow(s), ledger.unplacedReason(s));
    }

    private static List<Unplaced> dedupeUnplaced(List<Unplaced> in) {
        Map<String, Unplaced> m = new LinkedHashMap<>();
        for (Unplaced u : in) {
            m.putIfAbsent(u.flow().id(), u);
        }
        return new ArrayList<>(m.values());
    }

    private PlacedFlow placedFlow(int s) {
        return new PlacedFlow(ledger.flow(s), new ArcPath(ix.arcs, ledger.path(s)), ledger.encoding(s));
    }

    /**
     * A placed path as arcs: a read-only view of the ledger's path array (never changed in place) over
     * the snapshot's arcs. One small object per placed flow in every result, where copying the arcs out
     * twice (an array, then List.of) was half of what a warm placement allocated.
     */
    private static final class ArcPath extends AbstractList<Arc> implements RandomAccess {
        private final Arc[] arcs;
        private final int[] path;

        ArcPath(Arc[] arcs, int[] path) {
            this.arcs = arcs;
            this.path = path;
        }

        @Override
        public Arc get(int i) {
            return arcs[path[i]];
        }

        @Override
        public int size() {
            return path.length;
        }
    }
}
