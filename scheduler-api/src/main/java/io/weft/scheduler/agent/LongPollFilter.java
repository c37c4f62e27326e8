package io.weft.scheduler.agent;

import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.weft.scheduler.config.LimitsProperties;
import io.weft.scheduler.fabric.Placement;
import io.weft.scheduler.web.Problems;
import jakarta.annotation.PreDestroy;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * The fast path of {@code GET /v1/agents/{nic}/paths}: answers well-formed long-polls straight on
 * the servlet API, writing the NIC's profile bytes (serialised once per version by
 * {@link ProfileBytes}) through a raw {@link AsyncContext}. Ten thousand agents woken by one job
 * change then cost ten thousand small writes, not ten thousand async re-dispatches through Spring
 * MVC with a message converter each.
 *
 * <p>Same contract as {@link AgentController#paths}: 200 with the profile when the NIC's version is
 * newer than {@code since} (or {@code since} is absent), else wait up to {@code wait} seconds
 * (capped) and answer 304, or 204 when the NIC never had a path, with a {@code Weft-Version}
 * header. Anything this filter does not fully understand (a malformed or out-of-range parameter, an
 * unknown NIC, an Accept header that excludes JSON) falls through to the controller, which owns
 * the problem+json errors and the OpenAPI description. Runs after {@code BearerAuthFilter}, so the
 * caller is already authenticated and allowed for this NIC.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 30)
class LongPollFilter extends OncePerRequestFilter {
    private static final Logger LOG = LoggerFactory.getLogger(LongPollFilter.class);
    private static final String PREFIX = "/v1/agents/";
    private static final String SUFFIX = "/paths";
    /** The route as the controller maps it (the uri tag of http.server.requests). */
    static final String ROUTE = "/v1/agents/{nic}/paths";
    /** Largest accepted wait, as the controller's {@code @Max}. */
    static final int MAX_WAIT_SECONDS = 86_400;
    /** Writing woken polls is kept off the committing thread, on a few threads of its own. */
    private static final int WAKE_THREADS = 2;

    private final PathBoard board;
    private final ProfileBytes profiles;
    private final Placement placement;
    private final LimitsProperties limits;
    private final ExecutorService wakers = Executors.newFixedThreadPool(WAKE_THREADS, r -> {
        Thread t = new Thread(r, "weft-longpoll-write");
        t.setDaemon(true);
        return t;
    });

    LongPollFilter(PathBoard board, ProfileBytes profiles, Placement placement, LimitsProperties limits) {
        this.board = board;
        this.profiles = profiles;
        this.placement = placement;
        this.limits = limits;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        if (!"GET".equals(request.getMethod())) {
            return true;
        }
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return nicOf(path) == null;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String nic = nicOf(request.getRequestURI().substring(request.getContextPath().length()));
        long since = parseSince(request.getParameter("since"));
        int wait = parseWait(request.getParameter("wait"));
        if (nic == null || since == BAD || wait < 0 || !acceptsJson(request.getHeader("Accept"))
                || !placement.view().isNic(nic)) {
            chain.doFilter(request, response);
            return;
        }
        // Spring MVC would have named the route in the request metrics; it does not see this request.
        ServerHttpObservationFilter.findObservationContext(request).ifPresent(c -> c.setPathPattern(ROUTE));
        int waitSeconds = Math.min(wait, limits.longPollMaxWaitSeconds());
        if (since == ABSENT || board.version(nic) > since) {
            try {
                writeProfile(response, nic);
            } catch (RuntimeException e) {
                unreadable(response, nic, e);
            }
            return;
        }
        if (waitSeconds == 0) {
            writeNothingNewer(response, nic);
            return;
        }
        AsyncContext ctx = request.startAsync(request, response);
        // The servlet timer is only a backstop: our own wheel answers first with a normal 304/204.
        ctx.setTimeout(waitSeconds * 1000L + 5_000L);
        // Listen before parking: a publish may wake (and complete) the poll before park() returns.
        Unparker unparker = new Unparker(nic, ctx);
        ctx.addListener(unparker);
        PathBoard.Waiter w = board.park(nic, since, v -> wakers.execute(() -> complete(ctx, nic, true)));
        if (w == null) {
            complete(ctx, nic, true);
            return;
        }
        unparker.waiter = w;
        TimeoutWheel.INSTANCE.schedule(waitSeconds * 1000L, () -> {
            if (board.unpark(nic, w)) {
                complete(ctx, nic, false);
            }
        });
    }

    /** Answers a parked poll once: with the profile when woken, else 304/204. */
    private void complete(AsyncContext ctx, String nic, boolean woken) {
        try {
            HttpServletResponse response = (HttpServletResponse) ctx.getResponse();
            if (woken) {
                writeProfile(response, nic);
            } else {
                writeNothingNewer(response, nic);
            }
        } catch (IOException e) {
            // The agent went away: it polls again and gets the current profile.
            LOG.debug("long-poll of {} not answered: {}", nic, e.toString());
        } catch (RuntimeException e) {
            unreadable((HttpServletResponse) ctx.getResponse(), nic, e);
        } finally {
            try {
                ctx.complete();
            } catch (IllegalStateException alreadyDone) {
                // the container completed it (client gone, backstop timeout)
            }
        }
    }

    private void writeProfile(HttpServletResponse response, String nic) throws IOException {
        ProfileBytes.Json p = profiles.current(nic);
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType("application/json");
        response.setContentLength(p.bytes().length);
        response.getOutputStream().write(p.bytes());
    }

    /** The profile could not be read (database trouble): 503, the agent polls again. */
    private static void unreadable(HttpServletResponse response, String nic, RuntimeException e) {
        LOG.error("profile of {} could not be read: {}", nic, e.toString());
        if (response.isCommitted()) {
            return;
        }
        try {
            response.reset();
            Problems.write(response, HttpStatus.SERVICE_UNAVAILABLE, "nic", "the profile of '" + nic
                    + "' could not be read; poll again");
        } catch (IOException | RuntimeException gone) {
            // the agent went away as well
        }
    }

    private void writeNothingNewer(HttpServletResponse response, String nic) {
        long v = board.version(nic);
        response.setStatus(v == 0 ? HttpServletResponse.SC_NO_CONTENT : HttpServletResponse.SC_NOT_MODIFIED);
        response.setHeader("Weft-Version", Long.toString(v));
    }

    /** Removes the waiter when the container ends the request first (client gone, backstop timeout). */
    private final class Unparker implements AsyncListener {
        private final String nic;
        private final AsyncContext ctx;
        /** Null until parked; a poll completed before that was never left parked. */
        private volatile PathBoard.Waiter waiter;

        Unparker(String nic, AsyncContext ctx) {
            this.nic = nic;
            this.ctx = ctx;
        }

        private boolean unpark() {
            PathBoard.Waiter w = waiter;
            return w != null && board.unpark(nic, w);
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            if (unpark()) {
                complete(ctx, nic, false);
            }
        }

        @Override
        public void onError(AsyncEvent event) {
            unpark();
        }

        @Override
        public void onComplete(AsyncEvent event) {
            unpark();
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            // not re-started
        }
    }

    static final long ABSENT = -1;
    static final long BAD = -2;

    /** The NIC id of {@code /v1/agents/{nic}/paths}, or null for any other path. */
    static String nicOf(String path) {
        if (!path.startsWith(PREFIX) || !path.endsWith(SUFFIX)) {
            return null;
        }
        String nic = path.substring(PREFIX.length(), path.length() - SUFFIX.length());
        return nic.isEmpty() || nic.indexOf('/') >= 0 || nic.indexOf('%') >= 0 || nic.indexOf(';') >= 0 ? null : nic;
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

    @PreDestroy
    void stop() {
        wakers.shutdownNow();
    }
}
