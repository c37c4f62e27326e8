package io.weft.telemetry.stream;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** What the collector has seen: the Streams state and every counter (samples, dead letters per code, ...). */
@RestController
class StatusController {
    private final StreamsRunner runner;
    private final TelemetryCounters counters;

    StatusController(StreamsRunner runner, TelemetryCounters counters) {
        this.runner = runner;
        this.counters = counters;
    }

    @GetMapping("/v1/status")
    Map<String, Object> status() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("streams", runner.state());
        out.put("counters", counters.snapshot());
        return out;
    }
}
