package io.weft.scheduler.events;

import java.io.IOException;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** {@code GET /v1/events}: server-sent events; {@code Last-Event-ID} replays what was missed. */
@RestController
@Tag(name = "events", description = "Server-sent events: job-created, job-released, flows-replaced, link-drained")
class EventsController {
    /** SSE streams stay open for an hour; clients reconnect with Last-Event-ID. */
    private static final long STREAM_TIMEOUT_MS = 3_600_000L;

    private final EventLog log;

    EventsController(EventLog log) {
        this.log = log;
    }

    @GetMapping(path = "/v1/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(summary = "Stream events; Last-Event-ID replays what was missed (up to 1000)")
    SseEmitter events(@RequestHeader(name = "Last-Event-ID", required = false) Long lastEventId) throws IOException {
        SseEmitter emitter = new SseEmitter(STREAM_TIMEOUT_MS);
        // Subscribe before replaying: an event committed in between may then arrive twice (clients
        // drop ids they have seen) but is never lost.
        log.subscribe(emitter);
        if (lastEventId != null) {
            for (EventLog.Event e : log.since(lastEventId)) {
                EventLog.send(emitter, e);
            }
        } else {
            // Tell the client where it starts, so its first reconnect can resume from here.
            emitter.send(SseEmitter.event().name("hello").id(Long.toString(log.lastId())).data("{}"));
        }
        return emitter;
    }
}
