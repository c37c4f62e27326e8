package io.weft.southbound.gnmi;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.gnmi.proto.Path;
import com.github.gnmi.proto.Update;
import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;

/**
 * One switch as the provisioner sees it: its target, the latest intent, what the switch last
 * confirmed by Get, and its state. {@link #sync} runs on a provisioner worker, never two at once for
 * the same switch (the provisioner's scheduling fields below guarantee it); the status fields are
 * volatile so that readers on other threads see a consistent-enough view.
 */
final class SwitchSync {
    /** The outcome of one sync attempt, telling the provisioner what to schedule next. */
    enum Outcome { DONE, RETRY, WAIT_FOR_CHANGE }

    final String id;
    private final ChannelFactory channels;
    private final long rpcTimeoutMs;
    private final Consumer<String> log;

    // Written by the provisioner (under its lock), read by the worker.
    volatile GnmiTarget target;
    volatile boolean verifyDue; // read the switch back before diffing (reconnect, periodic resync)
    // The latest intent (guarded by this object's monitor: the worker strips it once confirmed) and
    // how to render it again when a stripped op must be re-sent (drift, restart).
    private Map<String, IntentOp> desired = Map.of();
    private Function<String, ? extends JsonNode> source;

    // Worker-only.
    private GnmiSession session;
    private GnmiTarget sessionTarget;
    private boolean capabilitiesOk;
    private Map<String, IntentOp> confirmed; // op key to what the switch confirmed (no JSON); null: unknown, Get first
    private Status.Code lastFailure;
    private final Map<String, Path> owned = new LinkedHashMap<>(); // paths Weft set and has not deleted

    // Scheduling, guarded by the provisioner's lock.
    boolean queued;
    boolean running;
    boolean rerun;
    boolean backoffPending;
    int failures;
    boolean removed;

    // Status.
    private volatile DeviceState state = DeviceState.PENDING;
    private volatile String lastError;
    private volatile long sinceMs = System.currentTimeMillis();
    private volatile long lastSyncMs;
    private volatile long opsSent;
    private volatile long sets;
    private volatile int lastPushOps;

    SwitchSync(String id, GnmiTarget target, ChannelFactory channels, long rpcTimeoutMs, Consumer<String> log) {
        this.id = id;
        this.target = target;
        this.channels = channels;
        this.rpcTimeoutMs = rpcTimeoutMs;
        this.log = log;
    }

    /** Whether the switch ever had a valid intent (changes can only be applied to one). */
    synchronized boolean hasIntent() {
        return source != null;
    }

    synchronized Map<String, IntentOp> desired() {
        return desired;
    }

    synchronized void desire(Map<String, IntentOp> ops, Function<String, ? extends JsonNode> renderAgain) {
        desired = ops;
        source = renderAgain;
    }

    /** Drops the JSON of a confirmed intent (only digests stay), unless a newer intent replaced it meanwhile. */
    private synchronized void stripIfCurrent(Map<String, IntentOp> confirmedIntent) {
        if (desired != confirmedIntent) {
            return;
        }
        Map<String, IntentOp> stripped = new LinkedHashMap<>();
        for (IntentOp op : confirmedIntent.values()) {
            stripped.put(op.key(), op.withoutJson());
        }
        desired = stripped;
    }

    /** The ops to send with their JSON, by key: from the intent if still there, else rendered again. */
    private Map<String, IntentOp> withJson(List<IntentOp> ops) {
        Map<String, IntentOp> out = new LinkedHashMap<>();
        boolean missing = false;
        for (IntentOp op : ops) {
            missing |= op.json() == null;
            out.put(op.key(), op);
        }
        if (!missing) {
            return out;
        }
        Function<String, ? extends JsonNode> src;
        synchronized (this) {
            src = source;
        }
        Map<String, IntentOp> fresh = IntentOps.read(id, src.apply(id));
        for (IntentOp op : ops) {
            IntentOp f = fresh.get(op.key());
            if (f == null || !f.sameValue(op)) {
                throw new IllegalStateException("rendering " + id + " again gave a different " + op.key());
            }
            if (op.json() == null) {
                out.put(op.key(), f);
            }
        }
        return out;
    }

    DeviceStatus status() {
        GnmiTarget t = target;
        return new DeviceStatus(id, t.endpoint(), state, lastError, sinceMs, lastSyncMs, opsSent, sets, lastPushOps);
    }

    DeviceState state() {
        return state;
    }

    /** A newer intent arrived: the device is pending unless it is down or refused (that state still holds). */
    void markPending() {
        if (state == DeviceState.IN_SYNC) {
            setState(DeviceState.PENDING, null);
        }
    }

    /**
     * Brings the switch to the latest intent: connect and check capabilities if needed, read back if
     * the confirmed config is unknown, Set only the ops that differ plus deletes of what Weft no longer
     * wants, Get those ops to confirm.
     *
     * @return whether the switch is in sync, needs a retry with backoff, or waits for a new intent / resync
     */
    Outcome sync() {
        Map<String, IntentOp> want = desired();
        List<String> sent = new ArrayList<>();
        boolean noIntent;
        synchronized (this) {
            noIntent = source == null;
        }
        if (noIntent) {
            // Never had a valid intent (the first one was malformed): nothing to confirm, not "in sync".
            setState(DeviceState.PENDING, "switch " + id + " has no valid intent yet");
            return Outcome.WAIT_FOR_CHANGE;
        }
        try {
            ensureSession();
            if (confirmed == null || verifyDue) {
                verifyDue = false;
                confirmed = readBack(want.values());
            }
            Diff diff = diff(want);
            Map<String, Path> delete = new LinkedHashMap<>(owned);
            delete.keySet().removeAll(want.keySet());
            if (diff.isEmpty() && delete.isEmpty()) {
                owned.keySet().retainAll(want.keySet());
                for (IntentOp op : want.values()) {
                    owned.put(op.key(), op.path());
                }
                inSync();
                stripIfCurrent(want);
                return Outcome.DONE;
            }
            List<IntentOp> needJson = new ArrayList<>(diff.whole);
            for (Map.Entry<IntentOp, RouteChanges> e : diff.routeOps.entrySet()) {
                for (int i : e.getValue().replace) {
                    if (e.getKey().routeBytes(e.getKey().routes().ids[i]) == null) {
                        needJson.add(e.getKey());
                        break;
                    }
                }
            }
            Map<String, IntentOp> full = withJson(needJson);
            List<Update> updates = new ArrayList<>();
            List<Path> readBack = new ArrayList<>();
            List<Path> deletes = new ArrayList<>(delete.values());
            Map<String, Long> routeHashes = new HashMap<>();
            for (IntentOp op : diff.whole) {
                IntentOp f = full.get(op.key());
                updates.add(GnmiSession.update(f.path(), ByteString.copyFrom(f.json())));
                readBack.add(f.path());
                sent.add(op.key());
            }
            for (Map.Entry<IntentOp, RouteChanges> e : diff.routeOps.entrySet()) {
                IntentOp op = e.getKey();
                IntentOp f = full.getOrDefault(op.key(), op);
                RouteIndex r = op.routes();
                for (int i : e.getValue().replace) {
                    Path p = RouteIndex.path(op.path(), r.ids[i]);
                    byte[] route = op.routeBytes(r.ids[i]);
                    updates.add(GnmiSession.update(p,
                            ByteString.copyFrom(route != null ? route : f.routeBytes(r.ids[i]))));
                    readBack.add(p);
                    String key = GnmiPaths.format(p);
                    routeHashes.put(key, r.hashes[i]);
                    sent.add(key);
                }
                for (String gone : e.getValue().delete) {
                    Path p = RouteIndex.path(op.path(), gone);
                    deletes.add(p);
                    sent.add(GnmiPaths.format(p));
                }
            }
            session.setUpdates(updates, deletes);
            sets++;
            opsSent += updates.size() + deletes.size();
            lastPushOps = updates.size() + deletes.size();
            owned.keySet().removeAll(delete.keySet());
            confirmed.keySet().removeAll(delete.keySet());
            for (IntentOp op : diff.whole) {
                owned.put(op.key(), op.path());
            }
            Map<String, byte[]> got = session.getRaw(readBack);
            List<String> differ = new ArrayList<>();
            for (IntentOp op : diff.whole) {
                IntentOp f = full.get(op.key()); // carries the digest when op (changed route by route) has none
                byte[] v = got.get(op.key());
                if (v != null && f.digest().equals(GnmiSession.digest(v, f.digest()))) {
                    confirmed.put(op.key(), f.withoutJson());
                } else {
                    confirmed.remove(op.key());
                    differ.add(op.key());
                }
            }
            for (Map.Entry<IntentOp, RouteChanges> e : diff.routeOps.entrySet()) {
                IntentOp op = e.getKey();
                boolean all = true;
                for (int i : e.getValue().replace) {
                    String key = GnmiPaths.format(RouteIndex.path(op.path(), op.routes().ids[i]));
                    byte[] v = got.get(key);
                    if (v == null || !routeConfirmed(v, routeHashes.get(key))) {
                        all = false;
                        differ.add(key);
                    }
                }
                if (all) {
                    confirmed.put(op.key(), op.withoutJson());
                } else {
                    confirmed.remove(op.key()); // read the whole instance back before the next diff
                }
            }
            if (!differ.isEmpty()) {
                String msg = "switch " + id + " accepted the Set but reads back a different value at " + first(differ);
                log.accept("gnmi: " + msg);
                setState(DeviceState.PENDING, msg);
                return Outcome.RETRY;
            }
            inSync();
            stripIfCurrent(want);
            return Outcome.DONE;
        } catch (GnmiSession.UnsupportedSwitchException e) {
            dropSession();
            reject(e.getMessage());
            return Outcome.WAIT_FOR_CHANGE;
        } catch (StatusRuntimeException e) {
            return failed(e, sent);
        } catch (Exception e) {
            // The channel could not even be built (unreadable certificate, bad address syntax).
            dropSession();
            reject("cannot open a gNMI channel to " + target.endpoint() + ": " + e);
            return Outcome.WAIT_FOR_CHANGE;
        }
    }

    /** What differs between the intent and what the switch confirmed: whole ops, and single routes of instances. */
    private static final class Diff {
        final List<IntentOp> whole = new ArrayList<>();
        final Map<IntentOp, RouteChanges> routeOps = new LinkedHashMap<>();

        boolean isEmpty() {
            return whole.isEmpty() && routeOps.isEmpty();
        }
    }

    /** Routes of one instance to replace (indexes into its RouteIndex) and to delete (ids). */
    private static final class RouteChanges {
        final List<Integer> replace = new ArrayList<>();
        final List<String> delete = new ArrayList<>();
    }

    /**
     * An op the switch confirmed with the same digest is left alone. A network instance whose shell
     * (config, protocols) is as confirmed gets only its changed routes (replaced) and its vanished
     * ones (deleted), unless that is most of them; anything else is replaced whole.
     */
    private Diff diff(Map<String, IntentOp> want) {
        Diff d = new Diff();
        for (IntentOp op : want.values()) {
            IntentOp c = confirmed.get(op.key());
            if (c != null && op.digest() != null && op.digest().equals(c.digest())) {
                continue;
            }
            RouteIndex w = op.routes();
            RouteIndex h = c == null ? null : c.routes();
            if (w == null || h == null || w.shellDigest != h.shellDigest) {
                d.whole.add(op);
                continue;
            }
            RouteChanges rc = new RouteChanges();
            if (w.ids == h.ids || java.util.Arrays.equals(w.ids, h.ids)) {
                // The same routes in the same places (a route-level change of what the switch confirmed).
                for (int i = 0; i < w.size(); i++) {
                    if (w.hashes[i] != h.hashes[i]) {
                        rc.replace.add(i);
                    }
                }
            } else {
                Map<String, Long> have = h.byId();
                for (int i = 0; i < w.size(); i++) {
                    Long was = have.remove(w.ids[i]);
                    if (was == null || was != w.hashes[i]) {
                        rc.replace.add(i);
                    }
                }
                rc.delete.addAll(have.keySet());
            }
            if (rc.replace.isEmpty() && rc.delete.isEmpty()) {
                if (op.digest() == null || c.digest() == null) {
                    continue; // same shell and route hashes: every byte of the value is accounted for
                }
                d.whole.add(op); // same routes and shell yet another digest: only a whole replace can tell
            } else if (2 * (rc.replace.size() + rc.delete.size()) > w.size() + 1) {
                d.whole.add(op); // most of it changed: one value is smaller than many paths
            } else {
                d.routeOps.put(op, rc);
            }
        }
        return d;
    }

    /**
     * Reads every op back: what the switch holds, as stripped ops (digest and route hashes). A value
     * in canonical form as sent is confirmed by its bytes' digest; anything else is parsed.
     */
    private Map<String, IntentOp> readBack(java.util.Collection<IntentOp> ops) {
        List<Path> paths = new ArrayList<>();
        for (IntentOp op : ops) {
            paths.add(op.path());
        }
        Map<String, byte[]> raw = session.getRaw(paths);
        Map<String, IntentOp> out = new HashMap<>();
        for (IntentOp op : ops) {
            byte[] v = raw.get(op.key());
            if (v == null) {
                continue;
            }
            if (CanonicalJson.digest(v).equals(op.digest())) {
                out.put(op.key(), op.withoutJson());
                continue;
            }
            JsonNode tree = GnmiSession.parse(v);
            if (tree == null) {
                continue;
            }
            CanonicalJson.Canonical c = CanonicalJson.canonical(tree);
            out.put(op.key(), new IntentOp(op.key(), op.path(), CanonicalJson.digest(c.bytes), null,
                    c.routes == null ? null : c.routes.withoutRanges()));
        }
        return out;
    }

    /** Whether a read-back route is the one sent: its bytes as they are if canonical, else canonicalised. */
    private static boolean routeConfirmed(byte[] raw, long expected) {
        if (CanonicalJson.hash64(raw, 0, raw.length) == expected) {
            return true;
        }
        JsonNode tree = GnmiSession.parse(raw);
        if (tree == null) {
            return false;
        }
        byte[] canonical = CanonicalJson.bytes(tree);
        return CanonicalJson.hash64(canonical, 0, canonical.length) == expected;
    }

    private void ensureSession() throws Exception {
        GnmiTarget t = target;
        if (session != null && !t.equals(sessionTarget)) {
            dropSession();
        }
        if (session == null) {
            session = new GnmiSession(t, channels.open(t), rpcTimeoutMs);
            sessionTarget = t;
            capabilitiesOk = false;
            confirmed = null;
        }
        if (!capabilitiesOk) {
            session.checkCapabilities();
            capabilitiesOk = true;
        }
    }

    private Outcome failed(StatusRuntimeException e, List<String> sent) {
        Status.Code code = e.getStatus().getCode();
        String text = describe(e);
        if (code == Status.Code.INVALID_ARGUMENT || code == Status.Code.FAILED_PRECONDITION) {
            // A Set is all or nothing: nothing of this push applied. Read back before the next attempt.
            confirmed = null;
            reject("switch " + id + " rejected the Set of " + named(text, sent) + ": " + text);
            return Outcome.WAIT_FOR_CHANGE;
        }
        if (code == Status.Code.UNAUTHENTICATED || code == Status.Code.PERMISSION_DENIED
                || code == Status.Code.UNIMPLEMENTED) {
            dropSession();
            reject("switch " + id + " refused the session: " + text);
            return Outcome.WAIT_FOR_CHANGE;
        }
        // Transport trouble (refused, reset, TLS failure, deadline): a fresh channel and a read-back next time,
        // since a Set cut off in flight may or may not have been applied.
        dropSession();
        String msg = "switch " + id + " at " + target.endpoint() + " unreachable: " + text;
        // One line per outage and cause, not per retry (deadline texts differ in their timings).
        if (state != DeviceState.UNREACHABLE || code != lastFailure) {
            log.accept("gnmi: " + msg + (sent.isEmpty() ? "" : " (pushing " + first(sent) + ")"));
        }
        lastFailure = code;
        setState(DeviceState.UNREACHABLE, msg);
        return Outcome.RETRY;
    }

    private void reject(String msg) {
        if (state != DeviceState.REJECTED || !msg.equals(lastError)) {
            log.accept("gnmi: " + msg);
        }
        setState(DeviceState.REJECTED, msg);
    }

    private void inSync() {
        lastSyncMs = System.currentTimeMillis();
        setState(DeviceState.IN_SYNC, null);
    }

    private void setState(DeviceState s, String error) {
        if (s != state) {
            sinceMs = System.currentTimeMillis();
        }
        lastError = error;
        state = s;
    }

    void dropSession() {
        if (session != null) {
            session.close();
        }
        session = null;
        sessionTarget = null;
        capabilitiesOk = false;
        confirmed = null;
    }

    /** The op path the switch's message names, else the paths that were sent (shortened). */
    private static String named(String message, List<String> sent) {
        // Longest first: a route's path contains its instance's path.
        List<String> byLength = new ArrayList<>(sent);
        byLength.sort((a, b) -> b.length() - a.length());
        for (String key : byLength) {
            String plain = key.substring(key.indexOf(':') + 1);
            if (message.contains(plain)) {
                return key;
            }
        }
        return first(sent);
    }

    private static String first(List<String> keys) {
        if (keys.isEmpty()) {
            return "(deletes only)";
        }
        return keys.size() == 1 ? keys.get(0) : keys.get(0) + " and " + (keys.size() - 1) + " more";
    }

    private static String describe(StatusRuntimeException e) {
        Status s = e.getStatus();
        StringBuilder b = new StringBuilder(s.getCode().name());
        if (s.getDescription() != null) {
            b.append(": ").append(s.getDescription());
        }
        Throwable c = s.getCause();
        while (c != null && c.getCause() != null) {
            c = c.getCause();
        }
        if (c != null && c.getMessage() != null && (s.getDescription() == null
                || !s.getDescription().contains(c.getMessage()))) {
            b.append(" (").append(c.getClass().getSimpleName()).append(": ").append(c.getMessage()).append(')');
        }
        return b.toString();
    }
}
