package io.weft.scheduler.agent;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.weft.scheduler.auth.AccessPolicy;
import io.weft.scheduler.auth.Caller;
import io.weft.scheduler.auth.TokenStore;
import io.weft.scheduler.fabric.Placement;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.springframework.stereotype.Component;

/**
 * The fast path of {@code GET /v1/agents/{nic}/paths/stream}, beside {@link LongPolls} in front of the
 * servlet chain: a stream is a Jetty response kept open, and every newer profile version is one
 * write of bytes built once per NIC version ({@code event:profile}, {@code id:}, {@code data:} the
 * profile JSON of {@link ProfileBytes}). Measured through Spring's {@code SseEmitter} ({@link PathStreams})
 * an event cost more than a whole long-poll answer; here it is one non-blocking write.
 *
 * <p>Same contract as {@link AgentController#stream}; it takes only requests it fully understands and
 * that the caller's token allows (else the servlet chain answers, with the same problem+json as
 * everywhere). A stream parks on the {@link PathBoard} between events, is not counted as a waiting
 * long-poll, and writes a comment every {@link PathStreams#HEARTBEAT_MS} so that Jetty's idle timeout
 * never cuts it and a vanished agent is noticed.
 */
@Component
class StreamFastPath {
    private static final String PREFIX = "/v1/agents/";
    private static final String SUFFIX = "/paths/stream";
    private static final String BEARER = "Bearer ";
    private static final HttpField EVENT_STREAM = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "text/event-stream");
    private static final HttpField NO_CACHE = new PreEncodedHttpField(HttpHeader.CACHE_CONTROL, "no-cache");
    private static final byte[] HEARTBEAT = ":\n\n".getBytes(StandardCharsets.US_ASCII);

    private final PathBoard board;
    private final ProfileBytes profiles;
    private final Placement placement;
    private final TokenStore tokens;
    private final PollWriters writers;
    private final PathStreams streams;
    /** The event bytes of each NIC's latest version, built once and written to all its streams. */
    private final Map<String, Event> events = new ConcurrentHashMap<>();

    private record Event(long version, byte[] bytes) {
    }

    StreamFastPath(PathBoard board, ProfileBytes profiles, Placement placement, TokenStore tokens,
                   PollWriters writers, PathStreams streams) {
        this.board = board;
        this.profiles = profiles;
        this.placement = placement;
        this.tokens = tokens;
        this.writers = writers;
        this.streams = streams;
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
        Stream s = new Stream(nic, since, response, callback);
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

    /** The event of the NIC's latest version, built once per version. */
    private Event event(String nic) {
        ProfileBytes.Json p = profiles.current(nic);
        Event e = events.get(nic);
        if (e != null && e.version() >= p.version()) {
            return e;
        }
        return events.compute(nic, (k, old) -> {
            if (old != null && old.version() >= p.version()) {
                return old;
            }
            byte[] head = ("event:profile\nid:" + p.version() + "\ndata:").getBytes(StandardCharsets.US_ASCII);
            byte[] b = new byte[head.length + p.bytes().length + 2];
            System.arraycopy(head, 0, b, 0, head.length);
            System.arraycopy(p.bytes(), 0, b, head.length, p.bytes().length);
            b[b.length - 2] = '\n';
            b[b.length - 1] = '\n';
            return new Event(p.version(), b);
        });
    }

    /** One open stream: at most one write in flight; a wake during a write is sent after it. */
    private final class Stream {
        private final String nic;
        private final Response response;
        private final Callback callback;
        private final TimeoutWheel.Deadline heartbeat = new TimeoutWheel.Deadline();
        private long sent;
        private PathBoard.Waiter waiter;
        private boolean writing;
        private boolean wakePending;
        private boolean endPending;
        private boolean finished;

        Stream(String nic, long since, Response response, Callback callback) {
            this.nic = nic;
            this.sent = since;
            this.response = response;
            this.callback = callback;
        }

        synchronized void start() {
            streams.opened();
            if (sent < 0 || board.version(nic) > sent) {
                sendLatest();
            } else {
                // Commits the response: the agent sees the stream open before any change.
                write((":v" + sent + "\n\n").getBytes(StandardCharsets.US_ASCII));
            }
            beat();
        }

        synchronized void wake() {
            if (finished) {
                return;
            }
            if (writing) {
                wakePending = true;
                return;
            }
            sendLatest();
        }

        /** Writes the latest version if newer than the one sent, then parks for the next. */
        private void sendLatest() {
            Event e;
            try {
                e = event(nic);
            } catch (RuntimeException ex) {
                fail(ex); // profile unreadable (database trouble): the agent reconnects
                return;
            }
            if (sent < 0 || e.version() > sent) {
                sent = e.version();
                write(e.bytes());
            } else {
                park();
            }
        }

        private void park() {
            if (finished) {
                return;
            }
            waiter = board.park(nic, sent, v -> writers.execute(this::wake), () -> writers.execute(this::end), false);
            if (waiter == null) {
                writers.execute(this::wake);
            }
        }

        private void write(byte[] bytes) {
            writing = true;
            response.write(false, ByteBuffer.wrap(bytes), Callback.from(this::written, this::fail));
        }

        private synchronized void written() {
            writing = false;
            if (finished) {
                return;
            }
            if (endPending) {
                end();
                return;
            }
            if (wakePending) {
                wakePending = false;
                sendLatest();
                return;
            }
            if (waiter != null) {
                board.unpark(nic, waiter); // a no-op when a publish already took it
            }
            park();
        }

        private void beat() {
            TimeoutWheel.INSTANCE.schedule(heartbeat, PathStreams.HEARTBEAT_MS, () -> writers.execute(() -> {
                synchronized (this) {
                    if (finished) {
                        return;
                    }
                    if (!writing) {
                        writing = true;
                        response.write(false, ByteBuffer.wrap(HEARTBEAT), Callback.from(this::beaten, this::fail));
                    }
                }
                beat();
            }));
        }

        private synchronized void beaten() {
            writing = false;
            if (finished) {
                return;
            }
            if (endPending) {
                end();
            } else if (wakePending) {
                wakePending = false;
                sendLatest();
            }
        }

        /** The service stops: end the response; the agent reconnects elsewhere or after the restart. */
        synchronized void end() {
            if (finished) {
                return;
            }
            if (writing) {
                endPending = true;
                return;
            }
            finish();
            response.write(true, ByteBuffer.allocate(0), callback);
        }

        /** The connection failed (agent gone, write error): free the waiter, fail the request once. */
        synchronized void fail(Throwable failure) {
            if (finished) {
                return;
            }
            finish();
            callback.failed(failure);
        }

        private void finish() {
            finished = true;
            heartbeat.cancel();
            if (waiter != null) {
                board.unpark(nic, waiter);
            }
            streams.closed();
        }
    }
}
