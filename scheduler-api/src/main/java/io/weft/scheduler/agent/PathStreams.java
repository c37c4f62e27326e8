package io.weft.scheduler.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The streaming variant of the agent contract, {@code GET /v1/agents/{nic}/paths/stream?since=}, for
 * the requests {@link StreamFastPath} leaves to the servlet chain (and its OpenAPI description): one
 * long-lived response per agent in which every newer version of the NIC's profile is one server-sent
 * event ({@code event: profile}, {@code id:} the version, {@code data:} the EvProfile JSON). A path
 * change then costs one write per agent instead of an answer plus the agent's next request.
 *
 * <p>A stream is a {@link PathBoard} waiter that parks itself again after each event, so it shares
 * the long-poll's wake path (profiles read and serialised once per NIC version, writes on the
 * {@link PollWriters}). Comments every {@link #HEARTBEAT_MS} keep it under Jetty's idle timeout and
 * reveal agents that are gone. It ends after {@link #STREAM_TIMEOUT_MS} (the agent reconnects with
 * the last id as {@code since}) and when the service stops.
 */
@Component
class PathStreams {
    private static final Logger LOG = LoggerFactory.getLogger(PathStreams.class);
    static final long STREAM_TIMEOUT_MS = 3_600_000L;
    /** Well under server.jetty.connection-idle-timeout (90 s). */
    static final long HEARTBEAT_MS = 30_000L;

    private final PathBoard board;
    private final ProfileBytes profiles;
    private final PollWriters writers;
    private final AtomicInteger open = new AtomicInteger();

    PathStreams(PathBoard board, ProfileBytes profiles, PollWriters writers, MeterRegistry meters) {
        this.board = board;
        this.profiles = profiles;
        this.writers = writers;
        Gauge.builder("weft.agent.streams", open, AtomicInteger::get)
                .description("open agent profile streams (GET /v1/agents/{nic}/paths/stream)").register(meters);
    }

    /** Counts a stream opened (here or by {@link StreamFastPath}) in weft.agent.streams. */
    void opened() {
        open.incrementAndGet();
    }

    void closed() {
        open.decrementAndGet();
    }

    /** Opens a stream; since &lt; 0 sends the current profile at once. */
    SseEmitter open(String nic, long since) {
        Stream s = new Stream(nic, since, new SseEmitter(STREAM_TIMEOUT_MS));
        opened();
        s.emitter.onCompletion(s::close);
        s.emitter.onTimeout(s::close);
        s.emitter.onError(e -> s.close());
        s.start();
        return s.emitter;
    }

    private final class Stream {
        private final String nic;
        private final SseEmitter emitter;
        private final TimeoutWheel.Deadline heartbeat = new TimeoutWheel.Deadline();
        private long sent;
        private PathBoard.Waiter waiter;
        private boolean closed;
        /** Still counted in the open-streams gauge (close() may run more than once). */
        private boolean counted = true;

        Stream(String nic, long since, SseEmitter emitter) {
            this.nic = nic;
            this.sent = since;
            this.emitter = emitter;
        }

        synchronized void start() {
            if (board.version(nic) > sent || sent < 0) {
                send();
            } else {
                try {
                    // Commits the response: the agent sees the stream open before any change.
                    emitter.send(SseEmitter.event().comment("v" + sent));
                } catch (IOException e) {
                    closed = true;
                    emitter.completeWithError(e);
                    return;
                }
                park();
            }
            beat();
        }

        /** Parks for a version newer than the one sent; one already there is sent right away. */
        private void park() {
            if (closed) {
                return;
            }
            waiter = board.park(nic, sent, v -> writers.execute(this::wake), emitter::complete, false);
            if (waiter == null) {
                writers.execute(this::wake);
            }
        }

        synchronized void wake() {
            if (!closed) {
                send();
            }
        }

        private void send() {
            try {
                ProfileBytes.Json p = profiles.current(nic);
                if (p.version() > sent || sent < 0) {
                    emitter.send(SseEmitter.event().name("profile").id(Long.toString(p.version()))
                            .data(new String(p.bytes(), StandardCharsets.UTF_8)));
                    sent = p.version();
                }
                park();
            } catch (IOException | RuntimeException e) {
                // The agent is gone (or the profile unreadable): end the stream; it reconnects.
                LOG.debug("profile stream of {} ended: {}", nic, e.toString());
                closed = true;
                emitter.completeWithError(e);
            }
        }

        private void beat() {
            TimeoutWheel.INSTANCE.schedule(heartbeat, HEARTBEAT_MS, () -> writers.execute(() -> {
                synchronized (this) {
                    if (closed) {
                        return;
                    }
                    try {
                        emitter.send(SseEmitter.event().comment("v" + sent));
                    } catch (IOException | RuntimeException e) {
                        closed = true;
                        emitter.completeWithError(e);
                        return;
                    }
                }
                beat();
            }));
        }

        synchronized void close() {
            if (!counted) {
                return;
            }
            counted = false;
            closed();
            closed = true;
            heartbeat.cancel();
            if (waiter != null) {
                board.unpark(nic, waiter);
            }
        }
    }
}
