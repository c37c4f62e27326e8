package io.weft.scheduler.agent;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.weft.auth.Caller;
import io.weft.auth.TokenStore;
import io.weft.scheduler.auth.AccessPolicy;
import io.weft.scheduler.fabric.Placement;
import jakarta.annotation.PreDestroy;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.IdleTimeout;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The fast path of {@code GET /v1/agents/{nic}/paths/stream}, beside {@link LongPolls} in front of the
 * servlet chain: a stream is a Jetty response kept open, and every newer profile version is one
 * write of bytes built once per NIC version ({@code :published-us=}, {@code event:profile},
 * {@code id:}, {@code data:} the profile JSON of {@link ProfileBytes}) and shared by all the NIC's
 * streams. Measured through Spring's {@code SseEmitter} ({@link PathStreams}) an event cost more than
 * a whole long-poll answer; here it is one non-blocking write.
 *
 * <p>The write goes to the connection's {@link EndPoint}, not through the response: Jetty commits
 * the headers ({@code Transfer-Encoding: chunked}, nothing of the body yet), and from then on the
 * stream writes whole HTTP/1.1 chunks whose framing is part of the shared bytes. Through the
 * response each event also ran Jetty's per-write channel state, the header checks of the HTTP
 * generator and the statistics and event wrappers, and dirtied cards for G1's refinement threads;
 * on the connection it is the socket write and little else (the bench's fan-out CPU per agent went
 * from about 23 to 12 µs). The end of the
 * stream goes through the response again, so Jetty writes the last chunk and completes the exchange.
 * Only HTTP/1.1 requests that keep the connection are taken (only they get a chunked response).
 *
 * <p>Fan-out: streams stay registered per NIC for their whole life (no re-parking per event). The
 * {@link PathBoard} calls {@link #fanOut} on a writer thread once per published NIC version, in
 * batches; it builds the event once and offers it to each stream. A stream has no lock: one atomic
 * state (idle, writing, done) guarantees one write in flight, and a stream that was writing when
 * a version arrived finds the NIC's newest event when its write completes.
 *
 * <p>Same contract as {@link AgentController#stream}; it takes only requests it fully understands and
 * that the caller's token allows (else the servlet chain answers, with the same problem+json as
 * everywhere). Streams are not counted as waiting long-polls. One sweep every
 * {@link PathStreams#HEARTBEAT_MS} writes a comment to every idle stream that had no write for that
 * long (below), so that Jetty's idle timeout never cuts it and a vanished agent is noticed. As
 * through the servlet chain, a stream ends after {@link PathStreams#STREAM_TIMEOUT_MS} (plus up to
 * {@link #END_SPREAD_MS}, so that agents that connected together do not all reconnect together); the
 * agent reconnects from its last id.
 *
 * <p>A stream written to within the last {@link PathStreams#HEARTBEAT_MS} gets no comment from a
 * sweep: its last write already told Jetty and the kernel what a heartbeat would (so two writes are
 * at most two periods apart, well under the idle timeout). A sweep of 10,000 streams is 10,000 socket
 * writes (about 100 ms of CPU here); skipping the streams a fan-out just wrote to keeps a sweep that
 * lands during a fan-out from competing with it for the cores.
 */
@Component
class StreamFastPath {
    private static final String PREFIX = "/v1/agents/";
    private static final String SUFFIX = "/paths/stream";
    private static final String BEARER = "Bearer ";
    private static final String LAST_EVENT_ID = "Last-Event-ID";
    private static final HttpField EVENT_STREAM = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "text/event-stream");
    private static final HttpField NO_CACHE = new PreEncodedHttpField(HttpHeader.CACHE_CONTROL, "no-cache");
    private static final Logger LOG = LoggerFactory.getLogger(StreamFastPath.class);
    private static final byte[] HEARTBEAT = chunk(":\n\n".getBytes(StandardCharsets.US_ASCII));
    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);
    /** Streams end up to this long after {@link PathStreams#STREAM_TIMEOUT_MS}, at random. */
    static final long END_SPREAD_MS = 300_000L;
    private static final long HEARTBEAT_NS = TimeUnit.MILLISECONDS.toNanos(PathStreams.HEARTBEAT_MS);

    private final PathBoard board;
    private final ProfileBytes profiles;
    private final Placement placement;
    private final TokenStore tokens;
    private final PollWriters writers;
    private final PathStreams streams;
    /** Each NIC's open streams and the event of its latest version. */
    private final Map<String, NicStreams> byNic = new ConcurrentHashMap<>();
    /** Every open stream, for the heartbeat sweep and the stop. */
    private final Set<Stream> all = ConcurrentHashMap.newKeySet();
    private final ScheduledFuture<?> heartbeats;

    /** The bytes of one version's event, built once and written to all the NIC's streams. */
    record Event(long version, byte[] bytes) {
    }

    /** A NIC's streams; {@code latest} only grows. */
    private static final class NicStreams {
        final CopyOnWriteArrayList<Stream> streams = new CopyOnWriteArrayList<>();
        volatile Event latest;
    }

    StreamFastPath(PathBoard board, ProfileBytes profiles, Placement placement, TokenStore tokens,
                   PollWriters writers, PathStreams streams) {
        this.board = board;
        this.profiles = profiles;
        this.placement = placement;
        this.tokens = tokens;
        this.writers = writers;
        this.streams = streams;
        board.onPublish(new PathBoard.Listener() {
            @Override
            public boolean interested(String nic) {
                NicStreams ns = byNic.get(nic);
                return ns != null && !ns.streams.isEmpty();
            }

            @Override
            public void published(String nic, long version) {
                fanOut(nic);
            }
        });
        heartbeats = TimeoutWheel.INSTANCE.repeat(() -> writers.execute(this::beatAll), PathStreams.HEARTBEAT_MS);
    }

    @PreDestroy
    void close() {
        heartbeats.cancel(false);
    }

    /** Takes a stream request it fully understands and returns true; else false, touching nothing. */
    boolean take(Request request, Response response, Callback callback, boolean stopping) {
        if (stopping || !"GET".equals(request.getMethod())) {
            return false;
        }
        String path = request.getHttpURI().getPath();
        if (path == null || !path.startsWith(PREFIX) || !path.endsWith(SUFFIX)) {
            return false;
        }
        String nic = LongPolls.nicOf(path.substring(0, path.length() - "/stream".length()));
        if (nic == null) {
            return false;
        }
        long since = LongPolls.ABSENT;
        String query = request.getHttpURI().getQuery();
        if (query != null && !query.isEmpty()) {
            if (!query.startsWith("since=") || query.indexOf('&') >= 0) {
                return false; // anything else: the controller decides
            }
            since = LongPolls.parseSince(query.substring(6));
            if (since == LongPolls.BAD) {
                return false;
            }
        }
        String lastEventId = request.getHeaders().get(LAST_EVENT_ID);
        if (since == LongPolls.ABSENT && lastEventId != null) {
            // An EventSource reconnecting: the id of its last event is the version it has.
            since = LongPolls.parseSince(lastEventId.strip());
            if (since == LongPolls.BAD) {
                return false; // the controller answers 400 naming the header
            }
        }
        if (request.getConnectionMetaData().getHttpVersion() != HttpVersion.HTTP_1_1
                || request.getHeaders().contains(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString())) {
            return false; // the chunks are written here: only a chunked response can carry them
        }
        String accept = request.getHeaders().get(HttpHeader.ACCEPT);
        if (accept != null && !accept.isBlank() && !accept.contains("*/*") && !accept.contains("text/*")
                && !accept.contains("text/event-stream")) {
            return false;
        }
        if (!allowed(request.getHeaders().get(HttpHeader.AUTHORIZATION), nic) || !placement.ready()
                || !placement.view().isNic(nic)) {
            return false;
        }
        response.setStatus(200);
        response.getHeaders().put(EVENT_STREAM);
        response.getHeaders().put(NO_CACHE);
        Stream s = new Stream(nic, byNic.computeIfAbsent(nic, k -> new NicStreams()), since, response, callback,
                request.getConnectionMetaData().getConnection().getEndPoint());
        request.addFailureListener(s::fail);
        s.start();
        return true;
    }

    private boolean allowed(String authorization, String nic) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return false;
        }
        Caller caller = tokens.lookup(authorization.substring(BEARER.length()).trim()).orElse(null);
        return caller != null && AccessPolicy.deny("GET", PREFIX + nic + SUFFIX, caller) == null;
    }

    /** The NIC's newest event, built once per version from {@link ProfileBytes}. */
    private Event event(String nic, NicStreams ns) {
        ProfileBytes.Json p = profiles.current(nic);
        Event e = ns.latest;
        if (e != null && e.version() >= p.version()) {
            return e;
        }
        synchronized (ns) { // once per NIC version, not per stream
            e = ns.latest;
            if (e == null || e.version() < p.version()) {
                e = encode(p);
                ns.latest = e;
            }
            return e;
        }
    }

    /**
     * One HTTP/1.1 chunk carrying {@code :published-us=<µs>} (when known), {@code event:profile},
     * {@code id:}, {@code data:}.
     */
    static Event encode(ProfileBytes.Json p) {
        String head = (p.publishedUs() > 0 ? ":published-us=" + p.publishedUs() + "\n" : "")
                + "event:profile\nid:" + p.version() + "\ndata:";
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        byte[] b = new byte[h.length + p.bytes().length + 2];
        System.arraycopy(h, 0, b, 0, h.length);
        System.arraycopy(p.bytes(), 0, b, h.length, p.bytes().length);
        b[b.length - 2] = '\n';
        b[b.length - 1] = '\n';
        return new Event(p.version(), chunk(b));
    }

    /** {@code data} framed as one whole chunk of a chunked HTTP/1.1 body: size in hex, CRLF, data, CRLF. */
    static byte[] chunk(byte[] data) {
        byte[] size = (Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[size.length + data.length + 2];
        System.arraycopy(size, 0, out, 0, size.length);
        System.arraycopy(data, 0, out, size.length, data.length);
        out[out.length - 2] = '\r';
        out[out.length - 1] = '\n';
        return out;
    }

    /** A newer version of the NIC was published: one event, offered to each of its streams. */
    void fanOut(String nic) {
        NicStreams ns = byNic.get(nic);
        if (ns == null || ns.streams.isEmpty()) {
            return;
        }
        Event e;
        try {
            e = event(nic, ns);
        } catch (RuntimeException ex) {
            // The profile is unreadable (database trouble): end the streams; agents reconnect and read again.
            LOG.warn("profile of {} could not be read; ending its {} streams: {}", nic,
                    ns.streams.size(), ex.toString());
            for (Stream s : ns.streams) {
                s.fail(ex);
            }
            return;
        }
        for (Stream s : ns.streams) {
            s.offer(e);
        }
    }

    /** True when a stream last written at {@code wroteNs} needs a heartbeat comment at {@code nowNs}. */
    static boolean beatDue(long nowNs, long wroteNs) {
        return nowNs - wroteNs >= HEARTBEAT_NS;
    }

    private void beatAll() {
        for (Stream s : all) {
            s.beat();
        }
    }

    /** The service stops: every stream ends; agents reconnect elsewhere or after the restart. */
    int endAll() {
        int n = 0;
        for (Stream s : all) {
            s.end();
            n++;
        }
        return n;
    }

    /**
     * One open stream. {@code state} allows one write in flight without a lock: whoever moves it
     * from IDLE to WRITING writes; the write's completion moves it back and then looks at the
     * NIC's newest event, so a version offered during a write is never lost.
     */
    private final class Stream implements Callback {
        private static final int IDLE = 0;
        private static final int WRITING = 1;
        private static final int DONE = 2;

        private final String nic;
        private final NicStreams home;
        private final Response response;
        private final Callback callback;
        /** The connection: events and heartbeats are written to it as whole chunks. */
        private final EndPoint endPoint;
        /** Its socket when the connection is plain TCP (not TLS): a chunk is first tried straight on it. */
        private final SocketChannel socket;
        /** WRITING from the start: the first writes (the response's commit, then a chunk) are {@link #start}'s. */
        private final AtomicInteger state = new AtomicInteger(WRITING);
        /** System.nanoTime() of the last write started (event, comment or the first). */
        private volatile long wroteNs = System.nanoTime();
        /** The version written last (or being written); since at first. */
        private volatile long sent;
        private volatile boolean endPending;
        /** System.nanoTime() after which the heartbeat sweep ends the stream. */
        private final long endAtNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PathStreams.STREAM_TIMEOUT_MS
                + ThreadLocalRandom.current().nextLong(END_SPREAD_MS));

        Stream(String nic, NicStreams home, long since, Response response, Callback callback, EndPoint endPoint) {
            this.nic = nic;
            this.home = home;
            this.sent = since;
            this.response = response;
            this.callback = callback;
            this.endPoint = endPoint;
            this.socket = endPoint instanceof SocketChannelEndPoint plain ? plain.getChannel() : null;
        }

        void start() {
            // Registered before the version is looked at: a publish in between is offered, finds
            // WRITING, and is picked up when this first write completes.
            home.streams.add(this);
            all.add(this);
            streams.opened();
            Event e = null;
            if (sent < 0 || board.version(nic) > sent) {
                try {
                    e = event(nic, home);
                } catch (RuntimeException ex) {
                    fail(ex); // profile unreadable (database trouble): the agent reconnects
                    return;
                }
            }
            byte[] first;
            if (e != null && (sent < 0 || e.version() > sent)) {
                sent = e.version();
                first = e.bytes();
            } else {
                // The agent sees the stream open before any change.
                first = chunk((":v" + sent + "\n\n").getBytes(StandardCharsets.US_ASCII));
            }
            // Jetty commits the headers and no body: every chunk after them is written here, whole.
            response.write(false, NOTHING.duplicate(), Callback.from(() -> write(first), this::fail));
        }

        /** Writes {@code e} unless it is not newer or a write is in flight (then its completion does). */
        void offer(Event e) {
            while (e.version() > sent) {
                if (state.compareAndSet(IDLE, WRITING)) {
                    if (e.version() > sent) {
                        sent = e.version();
                        write(e.bytes());
                    } else {
                        idle();
                    }
                    return;
                }
                if (state.get() != IDLE) {
                    return; // WRITING: succeeded() will look at home.latest; DONE: nothing to do
                }
            }
        }

        void beat() {
            if (System.nanoTime() - endAtNs > 0) {
                end();
                return;
            }
            if (beatDue(System.nanoTime(), wroteNs) && state.compareAndSet(IDLE, WRITING)) {
                write(HEARTBEAT);
            }
        }

        /**
         * Writes one whole chunk to the connection (the response is committed and has no chunk open).
         * On plain TCP it is first written straight to the (non-blocking) socket: a small event to an
         * agent that keeps up goes out whole in that one system call, which then is all the write
         * costs. Whatever the socket did not take, and everything on TLS, goes through the endpoint,
         * which finishes it when the socket drains.
         */
        private void write(byte[] chunk) {
            wroteNs = System.nanoTime();
            ByteBuffer b = ByteBuffer.wrap(chunk);
            if (socket != null) {
                try {
                    socket.write(b);
                } catch (IOException | RuntimeException x) {
                    fail(x);
                    return;
                }
                if (!b.hasRemaining()) {
                    if (endPoint instanceof IdleTimeout t) {
                        t.notIdle(); // as the endpoint's own writes do: the stream is not idle
                    }
                    succeeded();
                    return;
                }
            }
            endPoint.write(this, b);
        }

        /** A write completed: back to IDLE, then whatever arrived meanwhile (a newer version, the end). */
        @Override
        public void succeeded() {
            if (!state.compareAndSet(WRITING, IDLE)) {
                return; // failed meanwhile
            }
            idle();
        }

        private void idle() {
            Event e = home.latest;
            if (e != null && e.version() > sent) {
                offer(e);
            }
            if (endPending && state.compareAndSet(IDLE, WRITING)) {
                finishEnd();
            }
        }

        @Override
        public void failed(Throwable x) {
            fail(x);
        }

        @Override
        public InvocationType getInvocationType() {
            return InvocationType.NON_BLOCKING; // completions only start another non-blocking write
        }

        void end() {
            endPending = true;
            if (state.compareAndSet(IDLE, WRITING)) {
                finishEnd();
            }
        }

        /** Jetty writes the last chunk (every chunk before it is whole) and completes the exchange. */
        private void finishEnd() {
            state.set(DONE);
            forget();
            response.write(true, NOTHING.duplicate(), callback);
        }

        /** The connection failed (agent gone, write error): forget the stream, fail the request once. */
        void fail(Throwable failure) {
            if (state.getAndSet(DONE) == DONE) {
                return;
            }
            forget();
            callback.failed(failure);
        }

        private void forget() {
            home.streams.remove(this);
            all.remove(this);
            streams.closed();
        }
    }
}
