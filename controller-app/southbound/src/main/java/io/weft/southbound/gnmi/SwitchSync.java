package io.weft.southbound.gnmi;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.gnmi.proto.Path;
import java.util.function.Function;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

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
    private Map<String, String> confirmed; // op key to digest; null: unknown, Get before diffing
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

    /** The ops to send with their JSON: from the intent if still there, else rendered again. */
    private List<IntentOp> withJson(List<IntentOp> ops) {
        boolean missing = false;
        for (IntentOp op : ops) {
            missing |= op.json() == null;
        }
        if (!missing) {
            return ops;
        }
        Function<String, ? extends JsonNode> src;
        synchronized (this) {
            src = source;
        }
        Map<String, IntentOp> fresh = IntentOps.read(id, src.apply(id));
        List<IntentOp> out = new ArrayList<>();
        for (IntentOp op : ops) {
            IntentOp f = fresh.get(op.key());
            if (f == null || !f.digest().equals(op.digest())) {
                throw new IllegalStateException("rendering " + id + " again gave a different " + op.key());
            }
            out.add(op.json() != null ? op : f);
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
        List<IntentOp> replace = List.of();
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
                confirmed = new HashMap<>(session.get(want.values()));
            }
            replace = new ArrayList<>();
            for (IntentOp op : want.values()) {
                if (!op.digest().equals(confirmed.get(op.key()))) {
                    replace.add(op);
                }
            }
            Map<String, Path> delete = new LinkedHashMap<>(owned);
            delete.keySet().removeAll(want.keySet());
            if (replace.isEmpty() && delete.isEmpty()) {
                owned.keySet().retainAll(want.keySet());
                for (IntentOp op : want.values()) {
                    owned.put(op.key(), op.path());
                }
                inSync();
                stripIfCurrent(want);
                return Outcome.DONE;
            }
            replace = withJson(replace);
            session.set(replace, delete.values());
            sets++;
            opsSent += replace.size() + delete.size();
            lastPushOps = replace.size() + delete.size();
            owned.keySet().removeAll(delete.keySet());
            confirmed.keySet().removeAll(delete.keySet());
            for (IntentOp op : replace) {
                owned.put(op.key(), op.path());
            }
            Map<String, String> got = session.get(replace);
            List<String> differ = new ArrayList<>();
            for (IntentOp op : replace) {
                String v = got.get(op.key());
                if (op.digest().equals(v)) {
                    confirmed.put(op.key(), v);
                } else {
                    confirmed.remove(op.key());
                    differ.add(op.key());
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
            return failed(e, replace);
        } catch (Exception e) {
            // The channel could not even be built (unreadable certificate, bad address syntax).
            dropSession();
            reject("cannot open a gNMI channel to " + target.endpoint() + ": " + e);
            return Outcome.WAIT_FOR_CHANGE;
        }
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

    private Outcome failed(StatusRuntimeException e, List<IntentOp> sent) {
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
            log.accept("gnmi: " + msg + (sent.isEmpty() ? "" : " (pushing " + first(keys(sent)) + ")"));
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
    private static String named(String message, List<IntentOp> sent) {
        for (IntentOp op : sent) {
            String plain = op.key().substring(op.key().indexOf(':') + 1);
            if (message.contains(plain)) {
                return op.key();
            }
        }
        return first(keys(sent));
    }

    private static List<String> keys(List<IntentOp> ops) {
        List<String> k = new ArrayList<>();
        for (IntentOp op : ops) {
            k.add(op.key());
        }
        return k;
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
