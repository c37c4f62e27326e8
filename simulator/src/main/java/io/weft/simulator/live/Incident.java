package io.weft.simulator.live;

import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.contracts.DirectionKey;
import io.weft.contracts.HotspotEvent;
import io.weft.fabric.Link;
import io.weft.fabric.Role;
import io.weft.plan.FabricPlan;
import io.weft.simulator.scenario.IncidentScript;

/**
 * Runs an {@link IncidentScript} against the live fabric and the real services, printing each
 * step when it happens. For a fault it announces which flows must move (a degraded arc: the one
 * flow on it; a failed link: every flow on it), injects it, and then reports, measured from the
 * injection: when the collector's hotspot or link-down reached {@code weft.hotspots}, when
 * scheduler-api committed each move (its path history), when the simulated agent received the new
 * profile, and when the flow's simulated rate was back at its demand. After {@code settleS} it
 * compares what moved with what was announced ({@link #outcomes}).
 */
final class Incident implements Runnable {
    /** A fault's result: what was announced, what moved, and the timings (ms after the injection, -1: never). */
    record Outcome(IncidentScript.Action action, String target, Set<String> expected, Set<String> moved,
                   long hotspotMs, Map<String, long[]> flowTimingsMs) {
        boolean asAnnounced() {
            return expected.equals(moved);
        }
    }

    /** A move the agents saw: which flow, when (wall clock). */
    private record Moved(String flowId, String jobId, Instant at, String from, String to) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    /** After the announced moves, how long nothing else may move before the fault's check is done. */
    private static final long QUIET_NS = 3_000_000_000L;
    private final IncidentScript script;
    private final LiveFabric fabric;
    private final URI scheduler;
    private final String schedulerToken;
    private final PrintStream out;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final long startNs = System.nanoTime();
    private final List<Moved> moves = new ArrayList<>();
    private final List<HotspotWatcher.Seen> hotspots = new ArrayList<>();
    private final List<Outcome> outcomes = new ArrayList<>();
    private final Set<String> jobIds = new LinkedHashSet<>();
    private final Map<String, Integer> jobFlowCounts = new LinkedHashMap<>();
    private final Instant launchedAt;
    private volatile Instant faultAt;
    private volatile boolean done;

    /**
     * @param launchedAt when {@code ./weft demo} was started, or null: the incident's end is also told
     *                   against it, the wall time a newcomer waits for the whole story
     */
    Incident(IncidentScript script, LiveFabric fabric, URI scheduler, String schedulerToken, PrintStream out,
             Instant launchedAt) {
        this.launchedAt = launchedAt;
        this.script = script;
        this.fabric = fabric;
        this.scheduler = scheduler;
        this.schedulerToken = schedulerToken;
        this.out = out;
    }

    /** From the agents: what a profile changed (called on the HTTP client's threads). */
    void onProfile(String nic, List<LiveFabric.Change> changes) {
        Instant now = Instant.now();
        for (LiveFabric.Change c : changes) {
            if (!c.kind().equals("moved")) {
                continue;
            }
            String from = String.join(" ", c.before().encoding());
            String to = String.join(" ", c.after().encoding());
            // Recorded and printed under one lock: the recovery check sees the move only after its line.
            synchronized (this) {
                moves.add(new Moved(c.flowId(), c.after().jobId(), now, from, to));
                Instant f = faultAt;
                if (f != null) {
                    say(String.format(Locale.ROOT, "  agent %s: flow %s moved (+%d ms): %s -> %s", nic, c.flowId(),
                            Duration.between(f, now).toMillis(), from, to));
                }
            }
        }
    }

    /** From the hotspot watcher. */
    void onHotspot(HotspotWatcher.Seen s) {
        synchronized (this) {
            hotspots.add(s);
        }
        Instant f = faultAt;
        if (f != null) {
            HotspotEvent e = s.event();
            say(String.format(Locale.ROOT, "  collector: %s %s read +%d ms after the fault (detected +%d ms)",
                    e.kind().json(), e.directionKey(), Duration.between(f, s.receivedAt()).toMillis(),
                    Duration.between(f, e.detectedAt()).toMillis()));
        }
    }

    synchronized List<Outcome> outcomes() {
        return new ArrayList<>(outcomes);
    }

    synchronized Set<String> jobIds() {
        return new LinkedHashSet<>(jobIds);
    }

    boolean done() {
        return done;
    }

    @Override
    public void run() {
        try {
            for (IncidentScript.Step step : script.steps()) {
                sleepUntil(step.atS());
                switch (step.action()) {
                    case JOB -> job(step);
                    case DEGRADE, FAIL -> fault(step);
                    case THROTTLE -> {
                        fabric.throttle(step.link(), step.factor());
                        say("throttle " + step.link() + " to " + step.factor() + " of its capacity");
                    }
                    case RESTORE -> {
                        fabric.restore(step.link());
                        say("restore " + step.link());
                    }
                    default -> throw new IllegalStateException("action " + step.action());
                }
            }
            say("incident over" + (launchedAt == null ? "" : String.format(Locale.ROOT, ", %.1f s after ./weft demo "
                    + "was started", Duration.between(launchedAt, Instant.now()).toMillis() / 1e3))
                    + "; the fabric keeps running (Ctrl-C stops it)");
        } catch (InterruptedException stop) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            say("incident stopped: " + e.getMessage());
        } finally {
            done = true;
        }
    }

    private void job(IncidentScript.Step step) throws InterruptedException {
        ObjectNode body = step.job().deepCopy();
        JsonNode spread = body.path("endpoints").path("spread");
        if (spread.isInt()) {
            ArrayNode endpoints = body.putArray("endpoints");
            spread(fabric.plan(), spread.asInt()).forEach(endpoints::add);
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(scheduler.resolve("/v1/jobs"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + schedulerToken)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (step.idempotencyKey() != null) {
            b.header("Idempotency-Key", step.idempotencyKey());
        }
        long t0 = System.nanoTime();
        HttpResponse<String> r = send(b.build());
        long ms = (System.nanoTime() - t0) / 1_000_000;
        if (r.statusCode() != 201 && r.statusCode() != 200) {
            throw new IllegalStateException("job " + step.job().path("name").asText() + " refused: HTTP "
                    + r.statusCode() + " " + r.body());
        }
        JsonNode job = readTree(r.body());
        String id = job.path("id").asText();
        List<String> flowIds = new ArrayList<>();
        job.path("flows").forEach(f -> flowIds.add(f.path("id").asText()));
        synchronized (this) {
            jobIds.add(id);
            jobFlowCounts.put(id, flowIds.size());
        }
        say(String.format(Locale.ROOT, "job %s (%s): %d flows placed in %d ms%s", job.path("name").asText(), id,
                flowIds.size(), ms, r.statusCode() == 200 ? " (placed before: same Idempotency-Key)" : ""));
        for (JsonNode f : job.path("flows")) {
            List<String> nodes = new ArrayList<>();
            f.path("nodes").forEach(n -> nodes.add(n.asText()));
            say("  " + f.path("src").asText() + " -> " + f.path("dst").asText() + "  via " + String.join(" > ", nodes));
        }
        // The agents must be following the job before a fault can be aimed at its flows.
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (!flowIds.stream().allMatch(fid -> fabric.flow(fid) != null) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        List<String> missing = flowIds.stream().filter(fid -> fabric.flow(fid) == null).toList();
        if (!missing.isEmpty()) {
            say("  agents have not received " + missing.size() + " of its flows after 15 s: " + missing);
        } else {
            say(String.format(Locale.ROOT, "  every agent follows it (+%d ms after the POST was answered)",
                    (System.nanoTime() - t0) / 1_000_000 - ms));
        }
    }

    private void fault(IncidentScript.Step step) throws InterruptedException {
        Set<String> expected = new TreeSet<>();
        String target;
        Runnable inject;
        HotspotEvent.Kind kind;
        if (step.action() == IncidentScript.Action.DEGRADE) {
            String arc = step.link().equals(IncidentScript.AUTO) ? autoArc()
                    : DirectionKey.text(step.link(),
                            step.from() == null ? farEnd(step.link()) : other(step.link(), step.from()));
            if (arc == null) {
                say("degrade: no switch link direction carries exactly one flow that has a free path around it;"
                        + " step skipped");
                return;
            }
            DirectionKey direction = DirectionKey.parse(arc);
            String linkId = direction.linkId();
            String to = direction.toNode();
            String from = other(linkId, to);
            Link l = fabric.plan().fabric().link(linkId);
            expected.addAll(fabric.flowsOnArc(arc));
            double demand = expected.stream().mapToDouble(id -> fabric.flow(id).demandGbps()).max().orElse(0);
            // Other traffic leaving room for half the flow: the flow slows down and the link runs full.
            double gbps = step.gbps() != null ? step.gbps() : Math.max(0, l.capacityGbps() - demand / 2);
            target = arc;
            kind = HotspotEvent.Kind.HOTSPOT_START;
            say(String.format(Locale.ROOT, "degrade %s (%s -> %s): %.0f Gbit/s of traffic Weft does not place; "
                    + "announced: %s move%s", linkId, from, to, gbps, describe(expected),
                    expected.size() == 1 ? "s" : ""));
            inject = () -> fabric.background(linkId, from, gbps);
        } else {
            String linkId = step.link().equals(IncidentScript.AUTO) ? autoLink() : step.link();
            if (linkId == null) {
                say("fail: no switch link carries a flow; step skipped");
                return;
            }
            expected.addAll(fabric.flowsOnLink(linkId));
            target = linkId;
            kind = HotspotEvent.Kind.LINK_DOWN;
            say("fail " + linkId + " (both ports oper-status DOWN); announced: " + describe(expected)
                    + " move" + (expected.size() == 1 ? "s" : "") + " in one pass");
            inject = () -> fabric.fail(linkId);
        }
        Map<String, Double> before = new LinkedHashMap<>();
        expected.forEach(id -> before.put(id, fabric.rateGbps(id)));
        int firstMove;
        int firstHotspot;
        synchronized (this) {
            firstMove = moves.size();
            firstHotspot = hotspots.size();
        }
        Instant t0 = Instant.now();
        faultAt = t0;
        inject.run();
        for (String id : expected) {
            say(String.format(Locale.ROOT, "  flow %s: %.0f -> %.0f Gbit/s (demand %.0f)", id, before.get(id),
                    fabric.rateGbps(id), fabric.flow(id).demandGbps()));
        }
        // Rates recovered: polled here, as the agents' profiles are applied on other threads.
        Map<String, Long> recoveredMs = new LinkedHashMap<>();
        long settleEnd = System.nanoTime() + (long) (script.settleS() * 1e9);
        long quietSince = -1;
        int movesSeen = firstMove;
        while (System.nanoTime() < settleEnd) {
            // Done early once every announced flow moved and recovered and nothing else moved for QUIET_NS.
            int n;
            synchronized (this) {
                n = moves.size();
            }
            if (recoveredMs.keySet().containsAll(expected) && !expected.isEmpty()) {
                if (quietSince < 0 || n != movesSeen) {
                    quietSince = System.nanoTime();
                    movesSeen = n;
                } else if (System.nanoTime() - quietSince >= QUIET_NS) {
                    break;
                }
            }
            for (String id : expected) {
                LiveFabric.LiveFlow f = fabric.flow(id);
                if (!recoveredMs.containsKey(id) && f != null && movedSince(id, firstMove)
                        && fabric.rateGbps(id) >= f.demandGbps() * 0.99) {
                    long ms = Duration.between(t0, Instant.now()).toMillis();
                    recoveredMs.put(id, ms);
                    say(String.format(Locale.ROOT, "  flow %s back at %.0f Gbit/s +%d ms after the fault", id,
                            fabric.rateGbps(id), ms));
                }
            }
            Thread.sleep(10);
        }
        faultAt = null;
        Set<String> moved = new TreeSet<>();
        long hotspotMs = -1;
        synchronized (this) {
            for (Moved m : moves.subList(firstMove, moves.size())) {
                moved.add(m.flowId());
            }
            for (HotspotWatcher.Seen s : hotspots.subList(firstHotspot, hotspots.size())) {
                HotspotEvent e = s.event();
                boolean ours = step.action() == IncidentScript.Action.DEGRADE
                        ? e.directionKey().toString().equals(target) : e.linkId().equals(target);
                if (ours && e.kind() == kind) {
                    hotspotMs = Duration.between(t0, s.receivedAt()).toMillis();
                    break;
                }
            }
        }
        Map<String, long[]> timings = new LinkedHashMap<>();
        Map<String, Instant> committed = committedAt(moved, t0);
        for (String id : moved) {
            Instant agent = null;
            synchronized (this) {
                for (Moved m : moves.subList(firstMove, moves.size())) {
                    if (m.flowId().equals(id)) {
                        agent = m.at();
                        break;
                    }
                }
            }
            Instant c = committed.get(id);
            timings.put(id, new long[] {c == null ? -1 : Duration.between(t0, c).toMillis(),
                    agent == null ? -1 : Duration.between(t0, agent).toMillis(), recoveredMs.getOrDefault(id, -1L)});
        }
        Outcome o = new Outcome(step.action(), target, expected, moved, hotspotMs, timings);
        synchronized (this) {
            outcomes.add(o);
        }
        say(String.format(Locale.ROOT, "%s %s: %s. %s seen +%s ms", step.action().name().toLowerCase(Locale.ROOT),
                target, o.asAnnounced() ? "as announced, " + describe(moved) + " moved, nothing else"
                        : "NOT as announced: expected " + expected + ", moved " + moved, kind,
                hotspotMs < 0 ? "never" : Long.toString(hotspotMs)));
        timings.forEach((id, t) -> say(String.format(Locale.ROOT,
                "  %s: committed +%s ms, agent profile +%s ms, rate recovered +%s ms", id, ms(t[0]), ms(t[1]),
                ms(t[2]))));
        out.println("live outcome " + outcomeJson(o));
        out.flush();
    }

    /** The outcome as one JSON line, for tests and scripts that check the incident. */
    static String outcomeJson(Outcome o) {
        var root = JSON.createObjectNode();
        root.put("action", o.action().name().toLowerCase(Locale.ROOT));
        root.put("target", o.target());
        o.expected().forEach(root.putArray("expected")::add);
        o.moved().forEach(root.putArray("moved")::add);
        root.put("asAnnounced", o.asAnnounced());
        root.put("hotspotMs", o.hotspotMs());
        var flows = root.putObject("flows");
        o.flowTimingsMs().forEach((id, t) -> flows.putObject(id).put("committedMs", t[0]).put("agentMs", t[1])
                .put("recoveredMs", t[2]));
        return root.toString();
    }

    /** {@code n} NICs taken from the fabric's leaves in turn: NICs of one job spread over the fabric. */
    static List<String> spread(FabricPlan plan, int n) {
        Map<String, List<String>> byLeaf = new LinkedHashMap<>();
        plan.fabric().nodesWithRole(Role.NIC).forEach(nic -> byLeaf
                .computeIfAbsent(plan.attachment(nic.id()).to(), k -> new ArrayList<>()).add(nic.id()));
        List<String> out = new ArrayList<>();
        for (int round = 0; out.size() < n; round++) {
            boolean any = false;
            for (List<String> nics : byLeaf.values()) {
                if (round < nics.size() && out.size() < n) {
                    out.add(nics.get(round));
                    any = true;
                }
            }
            if (!any) {
                throw new IllegalArgumentException("endpoints.spread: " + n + " NICs wanted, fabric "
                        + plan.fabric().id() + " has " + out.size());
            }
        }
        return out;
    }

    /** When scheduler-api committed each flow's move (its path history), for moves after {@code t0}. */
    private Map<String, Instant> committedAt(Set<String> flowIds, Instant t0) throws InterruptedException {
        Map<String, Instant> out = new LinkedHashMap<>();
        Set<String> jobs;
        synchronized (this) {
            jobs = new LinkedHashSet<>(jobIds);
        }
        for (String id : flowIds) {
            LiveFabric.LiveFlow f = fabric.flow(id);
            if (f != null && f.jobId() != null) {
                jobs.add(f.jobId());
            }
        }
        for (String job : jobs) {
            HttpResponse<String> r = send(HttpRequest.newBuilder(scheduler.resolve("/v1/jobs/" + job + "/history"))
                    .timeout(Duration.ofSeconds(10)).header("Authorization", "Bearer " + schedulerToken).GET().build());
            if (r.statusCode() != 200) {
                continue;
            }
            for (JsonNode c : readTree(r.body()).path("changes")) {
                String fid = c.path("flowId").asText();
                String reason = c.path("reason").asText();
                Instant at = Instant.parse(c.path("at").asText());
                if (flowIds.contains(fid) && !at.isBefore(t0.minusMillis(5)) && !out.containsKey(fid)
                        && (reason.startsWith("hotspot:") || reason.startsWith("link-down:")
                        || reason.startsWith("link-states"))) {
                    out.put(fid, at);
                }
            }
        }
        return out;
    }

    /**
     * A switch-to-switch arc carrying exactly one flow that the re-placement can move: the flow
     * has a shortest path around the arc whose switch arcs carry no other flow and are up (scheduler-api
     * moves a flow only where every new arc stays within its elephant tolerance, one by default).
     * Prefers a flow of the newest job.
     */
    private String autoArc() {
        String newest;
        synchronized (this) {
            newest = jobIds.isEmpty() ? null : new ArrayList<>(jobIds).get(jobIds.size() - 1);
        }
        return degradeTarget(fabric, newest);
    }

    /** The arc {@link #autoArc} picks, or null; {@code newestJob} may be null. */
    static String degradeTarget(LiveFabric fabric, String newest) {
        Map<String, Integer> load = new LinkedHashMap<>();
        for (LiveFabric.LiveFlow f : fabric.flows()) {
            fabric.arcKeys(f.id()).forEach(k -> load.merge(k, 1, Integer::sum));
        }
        String any = null;
        for (String arc : fabric.switchArcKeys()) {
            if (fabric.failed(arc.substring(0, arc.indexOf('>'))) || load.getOrDefault(arc, 0) != 1) {
                continue;
            }
            LiveFabric.LiveFlow f = fabric.flow(fabric.flowsOnArc(arc).get(0));
            if (!hasFreeAlternative(fabric, f, arc, load)) {
                continue;
            }
            if (newest != null && newest.equals(f.jobId())) {
                return arc;
            }
            if (any == null) {
                any = arc;
            }
        }
        return any;
    }

    /** True when a shortest switch path of {@code f} avoids {@code hotArc} and only crosses empty, up arcs. */
    private static boolean hasFreeAlternative(LiveFabric fabric, LiveFabric.LiveFlow f, String hotArc,
                                              Map<String, Integer> load) {
        FabricPlan plan = fabric.plan();
        Set<String> own = new LinkedHashSet<>(fabric.arcKeys(f.id()));
        String from = plan.attachment(f.srcNic()).to();
        String to = plan.attachment(f.dstNic()).to();
        return freePath(fabric, plan, from, to, hotArc, own, load, new int[] {256});
    }

    private static boolean freePath(LiveFabric fabric, FabricPlan plan, String at, String to, String hotArc,
                                    Set<String> own, Map<String, Integer> load, int[] budget) {
        if (at.equals(to)) {
            return true;
        }
        for (io.weft.fabric.Arc next : plan.nextHops(at, to)) {
            if (--budget[0] < 0) {
                return false; // enough paths looked at: treat as none free
            }
            String key = LiveFabric.key(next);
            int others = load.getOrDefault(key, 0) - (own.contains(key) ? 1 : 0);
            if (key.equals(hotArc) || others > 0 || fabric.failed(next.link().id())) {
                continue;
            }
            if (freePath(fabric, plan, next.to(), to, hotArc, own, load, budget)) {
                return true;
            }
        }
        return false;
    }

    /** The switch-to-switch link carrying the most flows (either direction), not failed, not degraded. */
    private String autoLink() {
        String best = null;
        int most = 0;
        Set<String> degraded = new LinkedHashSet<>();
        synchronized (this) {
            outcomes.stream().filter(o -> o.action() == IncidentScript.Action.DEGRADE)
                    .forEach(o -> degraded.add(o.target().substring(0, o.target().indexOf('>'))));
        }
        for (String arc : fabric.switchArcKeys()) {
            String link = arc.substring(0, arc.indexOf('>'));
            if (fabric.failed(link) || degraded.contains(link)) {
                continue;
            }
            int n = fabric.flowsOnLink(link).size();
            if (n > most) {
                most = n;
                best = link;
            }
        }
        return best;
    }

    private boolean movedSince(String flowId, int firstMove) {
        synchronized (this) {
            return moves.subList(firstMove, moves.size()).stream().anyMatch(m -> m.flowId().equals(flowId));
        }
    }

    private String farEnd(String linkId) {
        Link l = link(linkId);
        return fabric.plan().fabric().node(l.a().node()).role() == Role.SPINE ? l.a().node()
                : l.b().node();
    }

    private String other(String linkId, String node) {
        Link l = link(linkId);
        if (!l.touches(node)) {
            throw new IllegalArgumentException("from: \"" + node + "\" is not an end of link " + linkId);
        }
        return l.otherEnd(node).node();
    }

    private Link link(String linkId) {
        Link l = fabric.plan().fabric().link(linkId);
        if (l == null) {
            throw new IllegalArgumentException("link: no link \"" + linkId + "\" in fabric "
                    + fabric.plan().fabric().id());
        }
        return l;
    }

    private static String describe(Set<String> flows) {
        return flows.size() == 1 ? "flow " + flows.iterator().next() : flows.size() + " flows " + flows;
    }

    private static String ms(long v) {
        return v < 0 ? "never" : Long.toString(v);
    }

    private HttpResponse<String> send(HttpRequest r) throws InterruptedException {
        try {
            return http.send(r, HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(r.method() + " " + r.uri() + ": " + e.getMessage(), e);
        }
    }

    private static JsonNode readTree(String body) {
        try {
            return JSON.readTree(body);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("unreadable answer: " + e.getMessage(), e);
        }
    }

    private void sleepUntil(double atS) throws InterruptedException {
        long wait = startNs + (long) (atS * 1e9) - System.nanoTime();
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
    }

    private void say(String line) {
        out.printf(Locale.ROOT, "live +%5.1fs  %s%n", (System.nanoTime() - startNs) / 1e9, line);
        out.flush();
    }
}
