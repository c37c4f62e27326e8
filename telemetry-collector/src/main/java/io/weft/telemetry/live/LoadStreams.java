package io.weft.telemetry.live;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.weft.contracts.HotspotEvent;
import io.weft.contracts.LinkLoad;
import io.weft.contracts.TopicValue;
import io.weft.telemetry.config.LiveProperties;
import io.weft.telemetry.stream.TelemetryCounters;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The open load streams and what they are sent. On connect: a {@code snapshot} event (every
 * direction), or, when the client's Last-Event-ID is a position of this process, a {@code loads} event
 * with what changed since. Then, at most once per {@code intervalMs}, one {@code loads} event with the
 * directions changed since the previous one (a direction updated ten times in between is sent once),
 * and every hotspot event as it arrives ({@code hotspot}, never held back).
 * <p>
 * Every write happens on one thread, so the events of a client are in order and a client's first
 * event and the broadcasts cannot interleave. A client that cannot be written to is dropped; it
 * reconnects with its Last-Event-ID.
 */
@Component
public class LoadStreams implements SmartLifecycle {
    static final String SNAPSHOT = "snapshot";
    static final String LOADS = "loads";
    static final String HOTSPOT = "hotspot";

    private final LiveLoads loads;
    private final LiveProperties live;
    private final TelemetryCounters counters;
    private final List<SseEmitter> clients = new CopyOnWriteArrayList<>();
    private volatile ScheduledExecutorService writer;

    LoadStreams(LiveLoads loads, LiveProperties live, TelemetryCounters counters) {
        this.loads = loads;
        this.live = live;
        this.counters = counters;
    }

    /** A new stream, starting where {@code lastEventId} (may be null) says the client stands. */
    SseEmitter open(String lastEventId) {
        SseEmitter emitter = new SseEmitter(0L); // no timeout: the stream lives as long as the client
        emitter.onCompletion(() -> clients.remove(emitter));
        emitter.onError(e -> clients.remove(emitter));
        emitter.onTimeout(() -> clients.remove(emitter));
        ScheduledExecutorService w = writer;
        if (w == null) {
            emitter.complete();
            return emitter;
        }
        w.execute(() -> {
            long from = resumeFrom(lastEventId);
            LiveLoads.View first = from < 0 ? loads.snapshot() : loads.since(from);
            if (send(emitter, from < 0 ? SNAPSHOT : LOADS, first)) {
                clients.add(emitter);
                counters.add("live.streams-opened", 1);
            }
        });
        return emitter;
    }

    /** The seq to resume from, or -1 when the id is absent, malformed, of another epoch or in the future. */
    long resumeFrom(String lastEventId) {
        if (lastEventId == null) {
            return -1;
        }
        int colon = lastEventId.indexOf(':');
        if (colon < 0 || !lastEventId.substring(0, colon).equals(loads.epoch())) {
            return -1;
        }
        try {
            long seq = Long.parseLong(lastEventId.substring(colon + 1));
            return seq >= 0 && seq <= loads.seq() ? seq : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Every direction now, in the shape of a {@code snapshot} event (GET /v1/links/load). */
    String snapshotJson() {
        return json(loads.snapshot(), false);
    }

    /** Sends a hotspot event to every client (called by the feed's thread; written on the writer's). */
    void hotspot(HotspotEvent event) {
        ScheduledExecutorService w = writer;
        if (w == null) {
            return;
        }
        String data = event.toJson();
        w.execute(() -> {
            for (SseEmitter c : clients) {
                write(c, SseEmitter.event().name(HOTSPOT).data(data));
            }
        });
    }

    private void tick() {
        LiveLoads.View changed = loads.drainChanged();
        if (changed == null || clients.isEmpty()) {
            return;
        }
        String data = json(changed, true);
        for (SseEmitter c : clients) {
            write(c, SseEmitter.event().name(LOADS).id(id(changed)).data(data));
        }
        counters.add("live.deltas", 1);
    }

    private void keepalive() {
        for (SseEmitter c : clients) {
            write(c, SseEmitter.event().comment("keepalive"));
        }
    }

    private boolean send(SseEmitter emitter, String name, LiveLoads.View view) {
        return write(emitter, SseEmitter.event().name(name).id(id(view)).data(json(view, !name.equals(SNAPSHOT))));
    }

    private boolean write(SseEmitter emitter, SseEmitter.SseEventBuilder event) {
        try {
            emitter.send(event);
            return true;
        } catch (IOException | IllegalStateException e) {
            // The client went away (or the emitter was completed): it reconnects with its Last-Event-ID.
            clients.remove(emitter);
            emitter.completeWithError(e);
            return false;
        }
    }

    private static String id(LiveLoads.View v) {
        return v.epoch() + ":" + v.seq();
    }

    /** A snapshot or delta event's data; each load is written by its contract type. */
    static String json(LiveLoads.View v, boolean delta) {
        byte[] bytes = TopicValue.bytes(g -> {
            g.writeStartObject();
            g.writeNumberField("schemaVersion", 1);
            g.writeStringField("epoch", v.epoch());
            if (delta) {
                g.writeNumberField("fromSeq", v.fromSeq());
            }
            g.writeNumberField("seq", v.seq());
            g.writeArrayFieldStart("loads");
            for (LinkLoad load : v.loads()) {
                load.write(g);
            }
            g.writeEndArray();
            if (delta) {
                g.writeArrayFieldStart("removed");
                for (String key : v.removed()) {
                    g.writeString(key);
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        });
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public void start() {
        ScheduledExecutorService w = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "weft-live-loads-writer");
            t.setDaemon(true);
            return t;
        });
        w.scheduleWithFixedDelay(guarded(this::tick), live.intervalMs(), live.intervalMs(), TimeUnit.MILLISECONDS);
        w.scheduleWithFixedDelay(guarded(this::keepalive), live.keepaliveMs(),
                live.keepaliveMs(), TimeUnit.MILLISECONDS);
        writer = w;
    }

    /** A failing tick must not cancel the schedule (a thrown exception would). */
    private Runnable guarded(Runnable r) {
        return () -> {
            try {
                r.run();
            } catch (RuntimeException e) {
                counters.problem("live.write-failed", e.toString());
            }
        };
    }

    @Override
    public void stop() {
        ScheduledExecutorService w = writer;
        writer = null;
        if (w != null) {
            w.shutdownNow();
        }
        for (SseEmitter c : clients) {
            c.complete();
        }
        clients.clear();
    }

    @Override
    public boolean isRunning() {
        return writer != null;
    }
}
