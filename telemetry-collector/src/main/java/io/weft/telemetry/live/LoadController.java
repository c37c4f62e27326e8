package io.weft.telemetry.live;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The current load of every link direction (contracts/openapi/telemetry-collector.yaml):
 * {@code GET /v1/links/load} once, {@code GET /v1/links/load/stream} as server-sent events.
 */
@RestController
class LoadController {
    private final LoadStreams streams;

    LoadController(LoadStreams streams) {
        this.streams = streams;
    }

    @GetMapping(path = "/v1/links/load", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<String> current() {
        // Written by Jackson 2 as the contract's JSON; a String body is sent as is.
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(streams.snapshotJson());
    }

    @GetMapping(path = "/v1/links/load/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    SseEmitter stream(@RequestHeader(name = "Last-Event-ID", required = false) String lastEventId) {
        return streams.open(lastEventId);
    }
}
