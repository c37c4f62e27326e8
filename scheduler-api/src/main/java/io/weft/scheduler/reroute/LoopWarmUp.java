package io.weft.scheduler.reroute;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.weft.contracts.HotspotEvent;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.placement.Candidates;
import io.weft.placement.DenseFabric;
import io.weft.placement.Flow;
import io.weft.placement.Job;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlanFlowEncoder;
import io.weft.plan.Planner;

/**
 * Runs the loop's in-memory path once before the first real event, on a scratch engine of its own:
 * the first pass of a fresh JVM otherwise pays for class loading, linking and the interpreter (seen:
 * deciding 85 ms and pinning 28 ms cold, under 2 ms warm), right when a link has just gone hot.
 *
 * <p>It reads a hotspot and a link-down event from their JSON, resolves them, decides with the
 * service's own {@link ReunionPolicy}, pins the moves with {@link MovePins} on the scratch engine,
 * builds the path changes and the timing chain, and undoes the pins. It touches nothing the service
 * owns: not the placement engine, not PostgreSQL, not Kafka, not the event log, not a metric (the
 * recording step is already warm when a move is due: placing the job being moved ran it).
 *
 * <p>The scratch fabric is the contracts' 2-leaf, 4-spine example: every flow leaf1 -> leaf2 has
 * three other spines to move to. Cost, once at start: 0.26 s at load 12 on 2 shared cores, 0.7-4.9 s at
 * load 25-45 while other services start too (measured in the reroute experiment and the demo).
 */
final class LoopWarmUp {
    /** The scratch fabric, from the contracts jar. */
    static final String FABRIC_RESOURCE = "/io/weft/contracts/examples/leaf-spine-2x4.json";
    /** Passes run: enough for the interpreter's first compilations of the hot methods, still cheap. */
    static final int PASSES = 20;

    /** What the warm-up did, for the start-up log line and its test. */
    record Report(int passes, int hotspotMoves, int linkDownMoves, long elapsedMs) {
    }

    private LoopWarmUp() {
    }

    static Report run(ReunionPolicy policy) {
        long t0 = System.nanoTime();
        Fabric fabric = scratchFabric();
        PlacementEngine engine;
        try {
            engine = new PlacementEngine(DenseFabric.of(fabric), new PlanFlowEncoder(Planner.plan(fabric, null)),
                    PlacementConfig.DEFAULTS);
            // Two elephants leaf1 -> leaf2 and one back: a ring's worth of flows on the scratch fabric.
            engine.add(new Job("warm-up", "default", List.of(
                    new Flow("warm-up-1", "warm-up", "nic1", "nic3", 100, 0),
                    new Flow("warm-up-2", "warm-up", "nic2", "nic4", 100, 0),
                    new Flow("warm-up-3", "warm-up", "nic3", "nic1", 100, 0))));
        } catch (Exception e) {
            throw new IllegalStateException("loop warm-up: the scratch engine could not be built: " + e.getMessage(),
                    e);
        }
        Candidates candidates = new Candidates(engine.index());
        int hotspotMoves = 0;
        int linkDownMoves = 0;
        for (int i = 0; i < PASSES; i++) {
            hotspotMoves += hotspotPass(engine, candidates, policy, i);
            linkDownMoves += linkDownPass(engine, candidates, policy, i);
        }
        return new Report(PASSES, hotspotMoves, linkDownMoves, (System.nanoTime() - t0) / 1_000_000);
    }

    /** One hotspot pass on the first flow's first fabric arc, undone; returns the moves pinned. */
    private static int hotspotPass(PlacementEngine engine, Candidates candidates, ReunionPolicy policy, int i) {
        DenseFabric ix = engine.index();
        int[] path = engine.pathArcs("warm-up-1");
        int arc = path[1];
        String linkId = ix.arc(arc).link().id();
        HotspotEvent ev = event("warm-up-hot-" + i, HotspotEvent.Kind.HOTSPOT_START, linkId, ix.nodeId(ix.to(arc)));
        ActiveHotspots active = new ActiveHotspots();
        MoveBudget budget = new MoveBudget(1_000);
        budget.roll(System.currentTimeMillis());
        Instant received = Instant.now();
        active.started(ev, received);
        ActiveHotspots.Hot hot = active.resolve(ix, budget, true);
        Instant writing = Instant.now();
        List<Move> moves = policy.onHotspots(PlacementView.of(engine, candidates, Set.of()), hot.arcs(),
                hot.usedByArc(), budget.movedThisInterval());
        Map<Move, ActiveHotspot> origin = new LinkedHashMap<>();
        for (Move m : moves) {
            ActiveHotspot a = hot.byEventId().get(m.cause().substring(Move.HOTSPOT.length()));
            origin.put(m, a);
            budget.spend(a.start().directionKey().toString(), m.flowId());
        }
        return pinAndUndo(engine, origin, received, writing, "hotspot-start");
    }

    /** One link-down pass on the first flow's first fabric link, undone; returns the moves pinned. */
    private static int linkDownPass(PlacementEngine engine, Candidates candidates, ReunionPolicy policy, int i) {
        DenseFabric ix = engine.index();
        int arc = engine.pathArcs("warm-up-1")[1];
        HotspotEvent ev = event("warm-up-down-" + i, HotspotEvent.Kind.LINK_DOWN, ix.arc(arc).link().id(),
                ix.nodeId(ix.to(arc)));
        Instant received = Instant.now();
        DownLinks down = new DownLinks();
        down.reported(ev.linkId());
        Set<Integer> downArcs = down.arcs(ix);
        int[] arcs = ix.arcsOfLink(ev.linkId());
        Instant writing = Instant.now();
        List<Move> moves = policy.onLinkDown(PlacementView.of(engine, candidates, downArcs), ev.linkId(), arcs,
                List.of());
        ActiveHotspot a = new ActiveHotspot(ev, received);
        Map<Move, ActiveHotspot> origin = new LinkedHashMap<>();
        moves.forEach(m -> origin.put(m, a));
        return pinAndUndo(engine, origin, received, writing, "link-down");
    }

    private static int pinAndUndo(PlacementEngine engine, Map<Move, ActiveHotspot> origin, Instant started,
                                  Instant writing, String trigger) {
        if (origin.isEmpty()) {
            return 0;
        }
        Instant decided = Instant.now();
        MovePins.Pinned pinned = MovePins.apply(engine, origin, Set.of(), decided);
        Instant now = Instant.now();
        PassTimes times = new PassTimes(started, writing, decided, now, now, now);
        List<Map<String, Object>> chains = new ArrayList<>();
        for (ActiveHotspot a : origin.values()) {
            chains.add(times.chain(a, trigger));
        }
        if (chains.isEmpty() || pinned.changes().size() != pinned.described().size()) {
            throw new IllegalStateException("loop warm-up: a pass pinned " + pinned.moves().size()
                    + " moves but described " + pinned.described().size());
        }
        MovePins.putBack(engine, pinned.moves());
        return pinned.moves().size();
    }

    /** The event as the collector publishes it, read back the way {@link HotspotFeed} reads it. */
    private static HotspotEvent event(String id, HotspotEvent.Kind kind, String linkId, String direction) {
        Instant now = Instant.now();
        long sampleNs = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        String json = "{\"schemaVersion\":" + HotspotEvent.SCHEMA_VERSION + ",\"eventId\":\"" + id
                + "\",\"kind\":\"" + kind.json() + "\",\"linkId\":\"" + linkId + "\",\"direction\":\""
                + direction + "\",\"sampleTimestampNs\":\"" + Long.toUnsignedString(sampleNs)
                + "\",\"detectedAt\":\"" + now + "\",\"utilisation\":null,\"dropRate\":0.3,"
                + "\"ecnFraction\":null,\"threshold\":0.05}";
        return HotspotEvent.fromJson(json);
    }

    private static Fabric scratchFabric() {
        try (InputStream in = LoopWarmUp.class.getResourceAsStream(FABRIC_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("loop warm-up: " + FABRIC_RESOURCE + " is not on the classpath");
            }
            return FabricJson.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException | io.weft.fabric.FabricFormatException e) {
            throw new IllegalStateException("loop warm-up: cannot read " + FABRIC_RESOURCE + ": " + e.getMessage(), e);
        }
    }
}
