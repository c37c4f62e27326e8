package io.weft.scheduler.events;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import tools.jackson.databind.ObjectMapper;

/**
 * What happened (job created/released, flows re-placed, drains), stored in the {@code events}
 * table inside the caller's transaction and pushed to SSE subscribers only after it commits, so a
 * client never sees an event for a change that was rolled back. Reconnecting clients resume from
 * {@code Last-Event-ID} out of the table.
 *
 * <p>Appends are serialized by a transaction-scoped advisory lock taken just before the insert, so
 * events commit in id order: a sequence alone hands out ids at insert, and a transaction that took
 * a lower id but committed after a higher one would be skipped by a client resuming from the higher
 * one. Every caller appends as its transaction's last write, so the lock is held only to the commit.
 *
 * <p>Every replica streams every replica's events: each append also notifies {@link #CHANNEL_PREFIX}
 * (delivered at commit) with the event id and this replica's tag; the version feed's connection
 * LISTENs there and hands other replicas' ids to {@link #relay}, which reads and pushes them.
 */
@Component
public class EventLog implements SmartLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(EventLog.class);
    /** Events replayed to a reconnecting client at most; older ones are gone for it. */
    static final int MAX_REPLAY = 1000;
    /** Notification channel of committed events, per schema (like the ledger's version channel). */
    public static final String CHANNEL_PREFIX = "weft_events_";
    /** The advisory lock class of Weft's locks (as the writer lease's), keyed per schema below. */
    private static final int LOCK_CLASS = 0x57454654;

    public record Event(long id, String type, String subject, Map<String, Object> payload, Instant at) {
    }

    private final JdbcClient jdbc;
    private final ObjectMapper json;
    private final List<SseEmitter> subscribers = new CopyOnWriteArrayList<>();
    private volatile boolean running;
    /** Tells this replica's notifications from the others' (its own are pushed after commit). */
    private final String replicaTag = java.util.UUID.randomUUID().toString();
    private volatile String schema;

    EventLog(JdbcClient jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** Appends an event; must run inside a transaction. */
    public void append(String type, String subject, Map<String, Object> payload) {
        String body = json.writeValueAsString(payload);
        jdbc.sql("select pg_advisory_xact_lock(?, hashtext(?))").params(LOCK_CLASS, "weft-events:" + schema())
                .query((rs, n) -> null).list();
        var row = jdbc.sql("insert into events (type, subject, payload) values (?, ?, cast(? as jsonb)) "
                        + "returning id, at")
                .params(type, subject, body)
                .query((rs, n) -> new Event(rs.getLong(1), type, subject, payload, rs.getTimestamp(2).toInstant()))
                .single();
        jdbc.sql("select pg_notify(?, ?)").params(channel(), row.id() + " " + replicaTag).query((rs, n) -> null).list();
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                broadcast(row);
            }
        });
    }

    /** Events after {@code afterId}, oldest first (at most {@link #MAX_REPLAY}). */
    public List<Event> since(long afterId) {
        return jdbc.sql("select id, type, subject, payload::text, at from events where id > ? order by id limit ?")
                .params(afterId, MAX_REPLAY)
                .query(this::row)
                .list();
    }

    /** The channel this schema's events are notified on. */
    public String channel() {
        return CHANNEL_PREFIX + schema();
    }

    private String schema() {
        String s = schema;
        if (s == null) {
            s = jdbc.sql("select current_schema()").query(String.class).single();
            schema = s;
        }
        return s;
    }

    /**
     * Pushes the events of other replicas named by notification payloads ("id tag") to this
     * replica's subscribers; this replica's own were pushed when they committed.
     */
    public void relay(List<String> payloads) {
        List<Long> ids = new java.util.ArrayList<>();
        for (String p : payloads) {
            int cut = p.indexOf(' ');
            if (cut > 0 && !p.substring(cut + 1).equals(replicaTag)) {
                ids.add(Long.parseLong(p.substring(0, cut)));
            }
        }
        if (ids.isEmpty() || subscribers.isEmpty()) {
            return;
        }
        jdbc.sql("select id, type, subject, payload::text, at from events where id = any(?) order by id")
                .param(ids.toArray(new Long[0]))
                .query(this::row)
                .list()
                .forEach(this::broadcast);
    }

    /** The latest {@code n} events, oldest first (a first connection's look back). */
    public List<Event> latest(int n) {
        return jdbc.sql("select id, type, subject, payload::text, at from "
                        + "(select * from events order by id desc limit ?) latest order by id")
                .param(n)
                .query(this::row)
                .list();
    }

    /** One row of {@code select id, type, subject, payload::text, at from events}. */
    private Event row(java.sql.ResultSet rs, int rowNum) throws java.sql.SQLException {
        return new Event(rs.getLong(1), rs.getString(2), rs.getString(3), readMap(rs.getString(4)),
                rs.getTimestamp(5).toInstant());
    }

    public long lastId() {
        return jdbc.sql("select coalesce(max(id), 0) from events").query(Long.class).single();
    }

    public void subscribe(SseEmitter emitter) {
        subscribers.add(emitter);
        Runnable drop = () -> subscribers.remove(emitter);
        emitter.onCompletion(drop);
        emitter.onTimeout(drop);
        emitter.onError(e -> drop.run());
    }

    public int subscriberCount() {
        return subscribers.size();
    }

    void broadcast(Event e) {
        for (SseEmitter s : subscribers) {
            try {
                send(s, e);
            } catch (IOException | IllegalStateException ex) {
                // The client went away. End its request too: a stream that is only forgotten stays
                // an open request until its timeout, and holds up a graceful shutdown until then.
                subscribers.remove(s);
                LOG.debug("dropping SSE subscriber: {}", ex.toString());
                try {
                    s.completeWithError(ex);
                } catch (RuntimeException alreadyDone) {
                    // completed by the container in the meantime
                }
            }
        }
    }

    static void send(SseEmitter s, Event e) throws IOException {
        s.send(SseEmitter.event().id(Long.toString(e.id())).name(e.type())
                .data(Map.of("id", e.id(), "type", e.type(), "subject", e.subject(), "at", e.at().toString(),
                        "payload", e.payload())));
    }

    /**
     * Ends every stream when the service stops, before the web server's graceful shutdown (which
     * would otherwise wait for each open stream); clients reconnect with Last-Event-ID and lose nothing.
     */
    @Override
    public void stop() {
        running = false;
        if (!subscribers.isEmpty()) {
            LOG.info("stopping: closing {} event streams", subscribers.size());
        }
        for (SseEmitter s : subscribers) {
            subscribers.remove(s);
            try {
                s.complete();
            } catch (RuntimeException ex) {
                LOG.debug("closing an SSE stream failed: {}", ex.toString());
            }
        }
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> readMap(String text) {
        return json.readValue(text, Map.class);
    }
}
