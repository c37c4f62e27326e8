package io.weft.controller.standalone;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Link;
import io.weft.plan.FabricPlan;
import io.weft.plan.PlanException;
import io.weft.plan.SnapshotJson;

/**
 * Keeps the served snapshot in step with the fabric file and the links' states: plan, number, publish,
 * remember.
 *
 * <p>Each accepted edit is planned against the previous plan (so surviving nodes keep their ids and
 * SIDs) and gets the next version; so does each change of a link's state. A file that cannot be used is
 * reported and changes nothing: the last good snapshot keeps being served. Versions and link states
 * continue across restarts from the newer of the stored snapshot and the one on Kafka.
 *
 * <p>A link is {@code down} while telemetry says so (link-down until link-up, either direction),
 * else {@code drained} while an operator drained it, else {@code up}. Mutators are synchronized (the
 * watcher, HTTP and the link-event listener call them from their own threads); readers use the volatile
 * {@link #current()}.
 */
final class SnapshotKeeper {
    private final Path file;
    private final SnapshotStore store;
    private final SnapshotSink sink; // null: HTTP only
    private final Consumer<String> info;
    private final Consumer<String> problem;
    private final DeviceProvisioning devices; // null: nothing is provisioned

    private final Set<String> drained = new TreeSet<>();
    private final Set<String> down = new TreeSet<>();
    private volatile Snapshot current;
    private volatile String fileError;  // the file's last problem, until a good edit
    private volatile String kafkaError; // the last publish failure, until a publish succeeds
    private volatile boolean publishPending;

    private Map<String, String> publishedDeviceStates = Map.of(); // guarded by this

    SnapshotKeeper(Path file, SnapshotStore store, SnapshotSink sink, Consumer<String> info, Consumer<String> problem) {
        this(file, store, sink, info, problem, null);
    }

    /** @param devices provisions every plan to the switches with a gNMI endpoint; null for none */
    SnapshotKeeper(Path file, SnapshotStore store, SnapshotSink sink, Consumer<String> info, Consumer<String> problem,
                     DeviceProvisioning devices) {
        this.file = file;
        this.store = store;
        this.sink = sink;
        this.info = info;
        this.problem = problem;
        this.devices = devices;
        if (devices != null) {
            devices.onStatesChanged(this::onDeviceStatesChanged);
        }
    }

    /**
     * Publishes the next version when a switch's provisioning state changed since the last snapshot
     * (the provisioner calls this, debounced). Error texts and sync times ride along but alone do not
     * make a new version.
     */
    synchronized void onDeviceStatesChanged() {
        Snapshot cur = current;
        if (devices == null || cur == null) {
            return;
        }
        Map<String, String> now = devices.stateNames();
        if (!now.equals(publishedDeviceStates)) {
            Map<String, Integer> counts = new java.util.TreeMap<>();
            now.values().forEach(s -> counts.merge(s, 1, Integer::sum));
            republish(cur, "device states " + counts);
        }
    }

    /** Plans the file for the first time; throws (one line) when it is unusable, so the process can exit 2. */
    synchronized void start() throws FabricFileException {
        long t0 = System.nanoTime();
        Fabric fabric = FabricFileLoader.read(file);
        accept(fabric, ms(t0, System.nanoTime()));
    }

    /** Re-plans after an edit; returns true when a new version was published. Never throws. */
    synchronized boolean onFileChanged() {
        long t0 = System.nanoTime();
        Fabric fabric;
        try {
            fabric = FabricFileLoader.read(file);
        } catch (FabricFileException e) {
            reject(e.getMessage());
            return false;
        }
        long readMs = ms(t0, System.nanoTime());
        Snapshot cur = current;
        if (cur != null && cur.fabricId().equals(fabric.id()) && cur.fabric().equals(FabricJson.toTree(fabric))) {
            fileError = null; // touched, or a bad edit undone
            return false;
        }
        try {
            accept(fabric, readMs);
            return true;
        } catch (FabricFileException e) {
            reject(e.getMessage());
            return false;
        }
    }

    /**
     * What an operator's drain or undrain did.
     *
     * @param version the version that carries the state (unchanged when the link already was in it)
     * @param changed whether this call made a new version
     * @param state   the link's state in that version: drained, up, or down (telemetry's down wins)
     */
    record DrainResult(long version, boolean changed, String state) {
    }

    /**
     * An operator drains a link ({@code true}: no new paths over it) or returns it to service.
     *
     * @throws IllegalArgumentException the link is not in the fabric
     */
    synchronized DrainResult setDrained(String linkId, boolean drain) {
        Snapshot cur = requireLink(linkId);
        boolean changed = drain ? drained.add(linkId) : drained.remove(linkId);
        long version = changed ? republish(cur, "link " + linkId + (drain ? " drained" : " returned to service"))
                : cur.version();
        String state = down.contains(linkId) ? "down" : drained.contains(linkId) ? "drained" : "up";
        return new DrainResult(version, changed, state);
    }

    /**
     * Telemetry saw a link go down ({@code true}) or come back. Unknown links are ignored with a note:
     * the collector may still be on an older fabric.
     */
    synchronized void setDown(String linkId, boolean isDown) {
        Snapshot cur = current;
        if (cur == null || cur.plan().fabric().link(linkId) == null) {
            problem.accept("ignoring link " + (isDown ? "down" : "up") + " for " + linkId + ": not in the fabric");
            return;
        }
        boolean changed = isDown ? down.add(linkId) : down.remove(linkId);
        if (changed) {
            republish(cur, "link " + linkId + (isDown ? " down" : " up"));
        }
    }

    /** Publishes the current snapshot again if Kafka refused it last time. */
    synchronized void retryPublish() {
        Snapshot cur = current;
        if (publishPending && cur != null) {
            publish(cur);
        }
    }

    Snapshot current() {
        return current;
    }

    /** Health for GET /healthz: the served version and the last problem, if any is still unresolved. */
    Map<String, Object> status() {
        Snapshot cur = current;
        String error = fileError != null ? fileError : kafkaError;
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("status", error == null ? "ok" : "degraded");
        s.put("fabricId", cur == null ? null : cur.fabricId());
        s.put("version", cur == null ? null : cur.version());
        s.put("kafka", sink == null ? "disabled" : publishPending ? "pending" : "published");
        s.put("lastError", error);
        return s;
    }

    /** @param readMs how long reading and validating the file took, for the log line */
    private void accept(Fabric fabric, long readMs) throws FabricFileException {
        long t0 = System.nanoTime();
        Snapshot cur = current;
        FabricPlan previous;
        long lastVersion;
        if (cur != null && cur.fabricId().equals(fabric.id())) {
            previous = cur.plan();
            lastVersion = cur.version();
        } else {
            JsonNode earlier = latestKnown(fabric.id());
            previous = earlier == null ? null : previousPlan(earlier);
            restoreLinkStates(earlier);
            lastVersion = Math.max(earlier == null ? 0 : earlier.path("version").asLong(0),
                    cur == null ? 0 : cur.version());
        }
        FabricPlan plan = FabricFileLoader.plan(file, fabric, previous);
        provision(plan);
        long t1 = System.nanoTime();
        // Links that left the fabric take their states with them.
        drained.removeIf(id -> fabric.link(id) == null);
        down.removeIf(id -> fabric.link(id) == null);
        Snapshot next = snapshot(plan, lastVersion + 1);
        long t2 = System.nanoTime();
        fileError = null;
        install(next);
        info.accept("fabric " + fabric.id() + " version " + next.version() + ": " + fabric.nodes().size() + " nodes, "
                + fabric.links().size() + " links; read " + readMs + " ms, plan " + ms(t0, t1) + " ms, snapshot "
                + next.json().length / 1024
                + " KiB in " + ms(t1, t2) + " ms"
                + (sink == null ? "" : ", publish " + ms(t2, System.nanoTime()) + " ms")
                + publishedNote());
    }

    /** Same plan, new link states: the next version without re-planning. */
    private long republish(Snapshot cur, String why) {
        Snapshot next;
        try {
            next = snapshot(cur.plan(), cur.version() + 1);
        } catch (FabricFileException e) {
            throw new IllegalStateException(e.getMessage(), e); // the same plan serialized before
        }
        install(next);
        info.accept("fabric " + next.fabricId() + " version " + next.version() + ": " + why + publishedNote());
        return next.version();
    }

    /** Hands the plan to the southbound; one bad intent must not stop the snapshot from being published. */
    private void provision(FabricPlan plan) {
        if (devices == null) {
            return;
        }
        try {
            devices.onPlan(plan);
        } catch (RuntimeException e) {
            problem.accept("provisioning the plan of " + plan.fabric().id() + " failed: " + e);
        }
    }

    private Snapshot snapshot(FabricPlan plan, long version) throws FabricFileException {
        Map<String, LinkState> states = new LinkedHashMap<>();
        drained.forEach(id -> states.put(id, LinkState.DRAINED));
        down.forEach(id -> states.put(id, LinkState.DOWN)); // down wins over drained
        try {
            // Compact: snapshots of large fabrics are MBs on Kafka and over HTTP; indentation adds a third.
            ObjectNode tree = SnapshotJson.toTree(plan, states, version);
            if (devices != null) {
                publishedDeviceStates = devices.stateNames();
                if (!publishedDeviceStates.isEmpty()) {
                    tree.set("deviceStates", devices.snapshotStates());
                }
            }
            byte[] json = FabricJson.mapper().writer().without(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsBytes(tree);
            return new Snapshot(plan.fabric().id(), version, FabricJson.toTree(plan.fabric()), plan, json);
        } catch (JsonProcessingException | RuntimeException e) {
            throw new FabricFileException(file + ": snapshot: " + e.getMessage());
        }
    }

    private void install(Snapshot next) {
        current = next;
        try {
            store.save(next.fabricId(), next.json());
        } catch (IOException e) {
            problem.accept("cannot keep the snapshot in " + store.file(next.fabricId()) + ": " + e.getMessage());
        }
        publish(next);
    }

    private static long ms(long fromNs, long toNs) {
        return (toNs - fromNs) / 1_000_000;
    }

    private String publishedNote() {
        return publishPending ? " (not yet on Kafka)" : sink == null ? "" : ", published";
    }

    private Snapshot requireLink(String linkId) {
        Snapshot cur = current;
        Link link = cur == null ? null : cur.plan().fabric().link(linkId);
        if (link == null) {
            throw new IllegalArgumentException("link \"" + linkId + "\" is not in the fabric");
        }
        return cur;
    }

    private void publish(Snapshot s) {
        if (sink == null) {
            return;
        }
        try {
            sink.publish(s.fabricId(), s.json());
            if (publishPending) {
                info.accept("fabric " + s.fabricId() + " version " + s.version() + " published to " + sink.describe());
            }
            publishPending = false;
            kafkaError = null;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            boolean first = !publishPending;
            publishPending = true;
            kafkaError = "publishing version " + s.version() + " to " + sink.describe() + " failed: " + e.getMessage();
            if (first) {
                problem.accept(kafkaError + " (retrying)");
            }
        }
    }

    /** The newest earlier snapshot of this fabric, from the state directory or Kafka; null if none. */
    private JsonNode latestKnown(String fabricId) {
        JsonNode stored = store.load(fabricId);
        JsonNode published = null;
        if (sink != null) {
            try {
                published = sink.latest(fabricId);
            } catch (Exception e) {
                problem.accept("cannot read the last snapshot from " + sink.describe() + ": " + e.getMessage());
            }
        }
        if (stored == null) {
            return published;
        }
        if (published == null) {
            return stored;
        }
        return published.path("version").asLong(0) >= stored.path("version").asLong(0) ? published : stored;
    }

    private FabricPlan previousPlan(JsonNode snapshot) {
        try {
            return SnapshotJson.planFromTree(snapshot);
        } catch (PlanException | RuntimeException e) {
            problem.accept("ignoring the previous plan (" + e.getMessage() + "): ids are allocated afresh");
            return null;
        }
    }

    private void restoreLinkStates(JsonNode snapshot) {
        drained.clear();
        down.clear();
        if (snapshot == null) {
            return;
        }
        try {
            SnapshotJson.linkStatesFromTree(snapshot).forEach((id, state) -> {
                if (state == LinkState.DRAINED) {
                    drained.add(id);
                } else if (state == LinkState.DOWN) {
                    down.add(id);
                }
            });
        } catch (PlanException | RuntimeException e) {
            problem.accept("ignoring the previous link states (" + e.getMessage() + "): all links up");
        }
    }

    private void reject(String message) {
        fileError = message;
        Snapshot cur = current;
        problem.accept(message + (cur == null ? "" : "; still serving version " + cur.version()));
    }
}
