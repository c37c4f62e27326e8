package io.weft.telemetry.stream;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/flows?nic=<id>}: the latest view of every flow a NIC reported ({@link FlowView}),
 * from this instance's Streams store. 400 problem+json for a missing or malformed nic, 503 while the
 * topology is not running.
 */
@RestController
class FlowController {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    private final StreamsRunner runner;

    FlowController(StreamsRunner runner) {
        this.runner = runner;
    }

    @GetMapping("/v1/flows")
    ResponseEntity<?> flows(@RequestParam(name = "nic", required = false) String nic) throws JsonProcessingException {
        if (nic == null || !ID.matcher(nic).matches()) {
            return problem(HttpStatus.BAD_REQUEST, "nic: required, a fabric node id (letters, digits, . _ -)", "nic");
        }
        List<String> views;
        try {
            views = runner.flows(nic);
        } catch (IllegalStateException | InvalidStateStoreException e) {
            return problem(HttpStatus.SERVICE_UNAVAILABLE, "flows are not available: " + e.getMessage(), null);
        }
        List<Object> flows = new ArrayList<>();
        for (String v : views) {
            flows.add(Json.MAPPER.readValue(v, Map.class));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("nic", nic);
        out.put("flows", flows);
        return ResponseEntity.ok(out);
    }

    private static ResponseEntity<ProblemDetail> problem(HttpStatus status, String detail, String parameter) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        if (parameter != null) {
            p.setTitle("Bad request parameter");
            p.setProperty("parameter", parameter);
        }
        return ResponseEntity.status(status).body(p);
    }
}
