package io.weft.scheduler.events;

import java.io.IOException;
import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.weft.scheduler.web.ApiException;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** {@code GET /v1/events}: server-sent events; {@code Last-Event-ID} replays what was missed. */
@RestController
@Tag(name = "events", description = "Server-sent events: job-created, job-released, flows-replaced, link-drained, "
        + "link-undrained, link-drain-handover, link-drain-handed-over, agent-rejected, multipath-respread")
class EventsController {
    /** SSE streams stay open for an hour; clients reconnect with Last-Event-ID. */
    private static final long STREAM_TIMEOUT_MS = 3_600_000L;

    private final EventLog log;

    EventsController(EventLog log) {
        this.log = log;
    }

    @GetMapping(path = "/v1/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(summary = "Stream events; Last-Event-ID replays what was missed (up to 1000)",
            description = "Every stream opens (after any replay) with a 'hello' event whose id is where the client "
                    + "now stands: reconnect from it. A first connection (no Last-Event-ID) may ask for the latest "
                    + "events first with 'recent'.")
    SseEmitter events(@Parameter(in = ParameterIn.HEADER, name = "Last-Event-ID",
                    schema = @Schema(type = "integer", format = "int64", minimum = "0"))
            @RequestHeader(name = "Last-Event-ID", required = false) String lastEventIdHeader,
            @Parameter(in = ParameterIn.QUERY, name = "recent",
                    description = "Without Last-Event-ID: replay the latest N events (oldest first) before the hello, "
                            + "so a client that opens just after something happened still sees it. Ignored when "
                            + "Last-Event-ID is given (that replay wins).",
                    schema = @Schema(type = "integer", format = "int32", minimum = "0", maximum = "1000"))
            @RequestParam(name = "recent", required = false) String recentParam) throws IOException {
        Long lastEventId = parseLastEventId(lastEventIdHeader);
        int recent = parseRecent(recentParam);
        SseEmitter emitter = new SseEmitter(STREAM_TIMEOUT_MS);
        // Subscribe before replaying: an event committed in between may then arrive twice (clients
        // drop ids they have seen) but is never lost.
        log.subscribe(emitter);
        long position = lastEventId == null ? log.lastId() : lastEventId;
        List<EventLog.Event> replay = lastEventId != null ? log.since(lastEventId)
                : recent > 0 ? log.latest(recent) : List.of();
        for (EventLog.Event e : replay) {
            EventLog.send(emitter, e);
            position = Math.max(position, e.id());
        }
        // The hello names where the client stands, so its next reconnect resumes from there, and gives
        // every stream a first event at once, even a resumed one with nothing missed.
        emitter.send(SseEmitter.event().name("hello").id(Long.toString(position)).data("{}"));
        return emitter;
    }

    /** 0 when absent; anything but 0-1000 is a 400 naming the parameter. */
    private static int parseRecent(String param) {
        if (param == null) {
            return 0;
        }
        if (param.matches("[0-9]{1,4}") && Integer.parseInt(param) <= EventLog.MAX_REPLAY) {
            return Integer.parseInt(param);
        }
        throw ApiException.badRequest("recent", "must be an integer from 0 to " + EventLog.MAX_REPLAY + " (got '"
                + param + "')");
    }

    /** Null when absent; an empty or non-numeric value is a 400 (Spring would take "" for absent). */
    private static Long parseLastEventId(String header) {
        if (header == null) {
            return null;
        }
        try {
            if (header.matches("[0-9]{1,19}")) {
                return Long.parseLong(header);
            }
        } catch (NumberFormatException e) {
            // above Long.MAX_VALUE: the same answer as any other bad value
        }
        throw ApiException.badRequest("Last-Event-ID", "must be a non-negative 64-bit event id (got '" + header + "')");
    }
}
