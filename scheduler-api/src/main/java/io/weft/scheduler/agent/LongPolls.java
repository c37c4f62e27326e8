package io.weft.scheduler.agent;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.weft.auth.Caller;
import io.weft.auth.TokenStore;
import io.weft.scheduler.auth.AccessPolicy;
import io.weft.scheduler.config.LimitsProperties;
import io.weft.scheduler.fabric.Placement;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The fast path of {@code GET /v1/agents/{nic}/paths}, run by {@link LongPollHandler} in front of
 * the servlet context. Ten thousand agents woken by one job change then cost ten thousand small
 * non-blocking writes of bytes serialised once per NIC version ({@link ProfileBytes}), with no
 * servlet async re-dispatch, filter chain or request observation per answer (those were ~80 µs of
 * CPU per woken poll, most of the time it took to reach every agent).
 *
 * <p>Same contract as {@link AgentController#paths}: 200 with the profile when the NIC's version is
 * newer than {@code since} (or {@code since} is absent), else wait up to {@code wait} seconds
 * (capped) and answer 304, or 204 when the NIC never had a path, with a {@code Weft-Version}
 * header. It takes only requests it fully understands and that the caller's token allows: anything
 * else (no or unknown token, another NIC's token, a malformed or repeated parameter, an unknown
 * NIC, an Accept header that excludes JSON) goes on to the servlet chain, whose filters and
 * controller own the 401/403/4xx problem+json answers and the OpenAPI description.
 *
 * <p>Answers are timed in {@code weft.agent.polls} by answer and by whether the poll waited, instead
 * of {@code http.server.requests}: a waiting poll's duration is the agent's wait, not service time.
 */
@Component
class LongPolls implements SmartLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(LongPolls.class);
    private static final String PREFIX = "/v1/agents/";
    private static final String SUFFIX = "/paths";
    private static final String BEARER = "Bearer ";
    /** Largest accepted wait, as the controller's {@code @Max}. */
    static final int MAX_WAIT_SECONDS = 86_400;
    private static final HttpField JSON = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "application/json");
    private static final byte[] UNREADABLE_PREFIX = ("{\"type\":\"about:blank\",\"title\":\"Service Unavailable\","
            + "\"status\":503,\"detail\":\"the profile of '").getBytes(StandardCharsets.UTF_8);
    private static final byte[] UNREADABLE_SUFFIX = "' could not be read; poll again\",\"field\":\"nic\"}"
            .getBytes(StandardCharsets.UTF_8);

    static final long ABSENT = -1;
    static final long BAD = -2;

    private final PathBoard board;
    private final ProfileBytes profiles;
    private final Placement placement;
    private final LimitsProperties limits;
    private final TokenStore tokens;
    private final Map<String, Timer> timers;
    /** Set until the service has started and once it stops: polls are answered at once, never parked. */
    private volatile boolean stopping = true;
    private final StreamFastPath streams;

    LongPolls(PathBoard board, ProfileBytes profiles, Placement placement, LimitsProperties limits,
              TokenStore tokens, StreamFastPath streams, MeterRegistry meters) {
        this.board = board;
        this.streams = streams;
        this.profiles = profiles;
        this.placement = placement;
        this.limits = limits;
        this.tokens = tokens;
        this.timers = Map.of(
                key(200, false), timer(meters, "profile", false), key(200, true), timer(meters, "profile", true),
                key(304, false), timer(meters, "not-modified", false), key(304, true),
                        timer(meters, "not-modified", true),
                key(204, false), timer(meters, "no-content", false), key(204, true), timer(meters, "no-content", true));
    }

    private static Timer timer(MeterRegistry meters, String answer, boolean waited) {
        return Timer.builder("weft.agent.polls").description("agent path polls answered by the fast path, from "
                        + "arrival to answer (a waiting poll's time includes its wait)")
                .tag("answer", answer).tag("waited", Boolean.toString(waited)).register(meters);
    }

    private static String key(int status, boolean waited) {
        return status + (waited ? "w" : "");
    }

    /** Answers (now or later) a poll it fully understands and returns true; else false, touching nothing. */
    boolean take(Request request, Response response, Callback callback) {
        if (streams.take(request, response, callback, stopping)) {
            return true;
        }
        Poll poll = accept(request);
        if (poll == null) {
            return false;
        }
        if (poll.since == ABSENT || board.version(poll.nic) > poll.since) {
            answer(poll, response, callback, true, false);
            return true;
        }
        int waitSeconds = Math.min(poll.waitSeconds, limits.longPollMaxWaitSeconds());
        if (waitSeconds == 0) {
            answer(poll, response, callback, false, false);
            return true;
        }
        if (stopping) {
            answer(poll, response, callback, false, false);
            return true;
        }
        TimeoutWheel.Deadline deadline = new TimeoutWheel.Deadline();
        // The board wakes on a fan-out thread, in batches: answer right there.
        PathBoard.Waiter w = board.park(poll.nic, poll.since, v -> {
            deadline.cancel();
            answer(poll, response, callback, true, true);
        }, () -> {
            deadline.cancel();
            answer(poll, response, callback, false, true);
        });
        if (w == null) {
            answer(poll, response, callback, true, false);
            return true;
        }
        if (stopping && board.unpark(poll.nic, w)) {
            // stop() released the waiters just before this one was parked
            answer(poll, response, callback, false, false);
            return true;
        }
        TimeoutWheel.INSTANCE.schedule(deadline, waitSeconds * 1000L, () -> {
            if (board.unpark(poll.nic, w)) {
                answer(poll, response, callback, false, true);
            }
        });
        // A connection failure (agent gone, idle timeout) frees the waiter at once.
        request.addFailureListener(failure -> {
            if (board.unpark(poll.nic, w)) {
                deadline.cancel();
                callback.failed(failure);
            }
        });
        return true;
    }

    /** A poll this handler takes on itself, or null to leave the request to the servlet chain. */
    private Poll accept(Request request) {
        if (!"GET".equals(request.getMethod())) {
            return null;
        }
        // The raw path: an encoded NIC id is left to the controller, which decodes it.
        String nic = nicOf(request.getHttpURI().getPath());
        if (nic == null) {
            return null;
        }
        long since = ABSENT;
        int wait = 0;
        String query = request.getHttpURI().getQuery();
        if (query != null && !query.isEmpty()) {
            boolean sawSince = false;
            boolean sawWait = false;
            for (String pair : query.split("&", -1)) {
                if (pair.startsWith("since=") && !sawSince) {
                    sawSince = true;
                    since = parseSince(pair.substring(6));
                } else if (pair.startsWith("wait=") && !sawWait) {
                    sawWait = true;
                    wait = parseWait(pair.substring(5));
                } else {
                    return null; // repeated, encoded or unknown parameters: the controller decides
                }
            }
        }
        if (since == BAD || wait < 0) {
            return null;
        }
        HttpFields headers = request.getHeaders();
        if (!acceptsJson(headers.get(HttpHeader.ACCEPT)) || !allowed(headers.get(HttpHeader.AUTHORIZATION), nic)
                || !placement.ready() || !placement.view().isNic(nic)) {
            return null;
        }
        return new Poll(nic, since, wait, System.nanoTime());
    }

    /** True when the bearer token is known and may read this NIC's paths; else the auth filter answers. */
    private boolean allowed(String authorization, String nic) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return false;
        }
        Caller caller = tokens.lookup(authorization.substring(BEARER.length()).trim()).orElse(null);
        return caller != null && AccessPolicy.deny("GET", PREFIX + nic + SUFFIX, caller) == null;
    }

    /** Answers once: the profile when {@code newer}, else 304/204; then completes the request. */
    private void answer(Poll poll, Response response, Callback callback, boolean newer, boolean waited) {
        // Counted before the bytes leave: an agent that reads the metrics right after its answer
        // must find it counted.
        try {
            if (newer) {
                ProfileBytes.Json p = profiles.current(poll.nic);
                response.setStatus(200);
                HttpFields.Mutable h = response.getHeaders();
                h.put(JSON);
                h.put(HttpHeader.CONTENT_LENGTH, p.bytes().length);
                h.put(p.versionHeader());
                if (p.published() != null) {
                    h.put(p.published());
                }
                record(poll, 200, waited);
                response.write(true, ByteBuffer.wrap(p.bytes()), callback);
            } else {
                long v = board.version(poll.nic);
                int status = v == 0 ? 204 : 304;
                response.setStatus(status);
                response.getHeaders().put("Weft-Version", Long.toString(v));
                record(poll, status, waited);
                callback.succeeded();
            }
        } catch (RuntimeException e) {
            unreadable(poll.nic, response, callback, e);
        }
    }

    private void record(Poll poll, int status, boolean waited) {
        timers.get(key(status, waited)).record(System.nanoTime() - poll.arrivedNs, TimeUnit.NANOSECONDS);
    }

    /** The profile could not be read (database trouble): 503, the agent polls again. */
    private static void unreadable(String nic, Response response, Callback callback, RuntimeException e) {
        LOG.error("profile of {} could not be read: {}", nic, e.toString());
        if (response.isCommitted()) {
            callback.failed(e);
            return;
        }
        byte[] name = nic.getBytes(StandardCharsets.UTF_8);
        ByteBuffer body = ByteBuffer.allocate(UNREADABLE_PREFIX.length + name.length + UNREADABLE_SUFFIX.length)
                .put(UNREADABLE_PREFIX).put(name).put(UNREADABLE_SUFFIX).flip();
        response.setStatus(503);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/problem+json");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.remaining());
        response.write(true, body, callback);
    }

    private record Poll(String nic, long since, int waitSeconds, long arrivedNs) {
    }

    /** The NIC id of {@code /v1/agents/{nic}/paths}, or null for any other path. */
    static String nicOf(String path) {
        if (path == null || !path.startsWith(PREFIX) || !path.endsWith(SUFFIX)) {
            return null;
        }
        String nic = path.substring(PREFIX.length(), path.length() - SUFFIX.length());
        return nic.isEmpty() || nic.indexOf('/') >= 0 || nic.indexOf('%') >= 0 || nic.indexOf(';') >= 0
                || nic.indexOf('"') >= 0 || nic.indexOf('\\') >= 0 ? null : nic;
    }

    /** {@link #ABSENT}, {@link #BAD} (left to the controller's validation) or the version. */
    static long parseSince(String text) {
        if (text == null) {
            return ABSENT;
        }
        if (text.isEmpty() || text.length() > 18) {
            return BAD;
        }
        long v = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return BAD;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** Seconds, 0 when absent, -1 when malformed or out of range (left to the controller). */
    static int parseWait(String text) {
        if (text == null) {
            return 0;
        }
        long v = parseSince(text);
        return v < 0 || v > MAX_WAIT_SECONDS ? -1 : (int) v;
    }

    /** True unless an Accept header is present that names neither JSON nor a wildcard. */
    static boolean acceptsJson(String accept) {
        return accept == null || accept.isBlank() || accept.contains("*/*") || accept.contains("application/*")
                || accept.contains("application/json");
    }

    /** Runs before the web server's graceful shutdown, which would otherwise wait for every parked poll. */
    @Override
    public void stop() {
        stopping = true;
        int released = board.releaseAll();
        int ended = streams.endAll();
        if (released > 0 || ended > 0) {
            LOG.info("stopping: answered {} waiting agent long-polls with 'nothing newer', ended {} profile streams",
                    released, ended);
        }
    }

    @Override
    public void start() {
        stopping = false;
    }

    @Override
    public boolean isRunning() {
        return !stopping;
    }

    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE;
    }

}
