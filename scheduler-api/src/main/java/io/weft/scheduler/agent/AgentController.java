package io.weft.scheduler.agent;


import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.weft.contracts.ContractException;
import io.weft.contracts.FlowReport;
import io.weft.scheduler.config.LimitsProperties;
import io.weft.scheduler.fabric.Placement;
import io.weft.scheduler.web.ApiException;
import io.weft.scheduler.web.Ids;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The NIC agent API. {@code GET /v1/agents/{nic}/paths?since=&wait=} is a long-poll: it answers at
 * once with the NIC's EV profile when its version is newer than {@code since} (or when
 * {@code since} is absent); otherwise it waits up to {@code wait} seconds (capped by
 * {@code weft.scheduler.limits.long-poll-max-wait-seconds}) and then answers 304 (nothing newer)
 * or 204 (the NIC never had a path). A waiting poll holds no thread.
 */
@RestController
@Tag(name = "agents", description = "NIC agents: EV profiles by long-poll, flow reports (scope agent, bound to NICs)")
class AgentController {
    /** The report's schema, the contract file itself (relative to contracts/openapi/). */
    static final String FLOW_REPORT_SCHEMA = "../schemas/flow-report.schema.json";
    private static final Logger LOG = LoggerFactory.getLogger(AgentController.class);

    private final PathBoard board;
    private final ProfileReader profiles;
    private final ReportSink reports;
    private final Placement placement;
    private final LimitsProperties limits;
    private final PollWriters wakers;
    private final PathStreams streams;
    private final AgentRejections rejections;

    AgentController(PathBoard board, ProfileReader profiles, ReportSink reports, Placement placement,
                    LimitsProperties limits, PollWriters wakers, PathStreams streams, AgentRejections rejections) {
        this.rejections = rejections;
        this.board = board;
        this.streams = streams;
        this.wakers = wakers;
        this.profiles = profiles;
        this.reports = reports;
        this.placement = placement;
        this.limits = limits;
    }

    @GetMapping(path = "/v1/agents/{nic}/paths", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Long-poll the NIC's EV profile", description = "Answers at once when the NIC's version is "
            + "newer than since (or since is absent); else waits up to wait seconds. Answers carry Weft-Version; a "
            + "profile answer also Weft-Published-Us, when the service published that version to agents (epoch "
            + "microseconds, right after its commit; absent when unknown).")
    @ApiResponse(responseCode = "200", description = "the current profile")
    @ApiResponse(responseCode = "304", description = "nothing newer than since within wait seconds")
    @ApiResponse(responseCode = "204", description = "the NIC never had a path")
    @ApiResponse(responseCode = "404", description = "not a NIC of the current fabric",
            content = @Content(mediaType = "application/problem+json",
                    schema = @Schema(implementation = ProblemDetail.class)))
    @ApiResponse(responseCode = "503", description = "no fabric yet (the service is starting); poll again",
            content = @Content(mediaType = "application/problem+json",
                    schema = @Schema(implementation = ProblemDetail.class)))
    DeferredResult<ResponseEntity<EvProfile>> paths(
            @PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String nic,
            @RequestParam(required = false) @Min(0) Long since,
            @RequestParam(defaultValue = "0") @Min(0) @Max(86_400) int wait) {
        requireNic(nic);
        int waitSeconds = Math.min(wait, limits.longPollMaxWaitSeconds());
        DeferredResult<ResponseEntity<EvProfile>> result = new DeferredResult<>(waitSeconds * 1000L + 5_000L);
        if (since == null || board.version(nic) > since) {
            result.setResult(ResponseEntity.ok(profiles.current(nic)));
            return result;
        }
        if (waitSeconds == 0) {
            result.setResult(nothingNewer(nic));
            return result;
        }
        TimeoutWheel.Deadline deadline = new TimeoutWheel.Deadline();
        PathBoard.Waiter w = board.park(nic, since, v -> {
            deadline.cancel();
            wakers.execute(() -> answer(result, nic));
        }, () -> {
            deadline.cancel();
            result.setResult(nothingNewer(nic));
        });
        if (w == null) {
            result.setResult(ResponseEntity.ok(profiles.current(nic)));
            return result;
        }
        // Our own timer, not the servlet's: the answer is a normal 304/204, not an error.
        TimeoutWheel.INSTANCE.schedule(deadline, waitSeconds * 1000L, () -> {
            if (board.unpark(nic, w)) {
                result.setResult(nothingNewer(nic));
            }
        });
        result.onCompletion(() -> {
            board.unpark(nic, w);
            deadline.cancel();
        });
        result.onError(e -> board.unpark(nic, w));
        return result;
    }

    @GetMapping(path = "/v1/agents/{nic}/paths/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(summary = "Stream the NIC's EV profile (server-sent events)", description = "One long-lived "
            + "response instead of repeated long-polls: an event 'profile' (id = the version, data = the EvProfile "
            + "JSON) at once when the NIC's version is newer than since (or since is absent), then one for every "
            + "newer version; comments every 30 s keep it open. An event may carry a comment ':published-us=N', when "
            + "the service published that version (epoch microseconds). It ends after an hour or when the service "
            + "stops: reconnect with since = the last id (or, as EventSource clients do, with the header "
            + "Last-Event-ID; "
            + "since wins when both are given). Agents fall back to the long-poll where this is absent.")
    @ApiResponse(responseCode = "200", description = "the stream: each 'profile' event's data is an EvProfile",
            content = @Content(mediaType = MediaType.TEXT_EVENT_STREAM_VALUE,
                    schema = @Schema(implementation = EvProfile.class)))
    @ApiResponse(responseCode = "404", description = "not a NIC of the current fabric",
            content = @Content(mediaType = "application/problem+json",
                    schema = @Schema(implementation = ProblemDetail.class)))
    @ApiResponse(responseCode = "503", description = "no fabric yet (the service is starting); retry",
            content = @Content(mediaType = "application/problem+json",
                    schema = @Schema(implementation = ProblemDetail.class)))
    SseEmitter stream(@PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String nic,
            @RequestParam(required = false) @Min(0) Long since,
            @Parameter(in = ParameterIn.HEADER, name = "Last-Event-ID", description = "the id (version) of the last "
                    + "event received: as since, when since is absent", schema = @Schema(type = "integer",
                    format = "int64", minimum = "0"))
            @RequestHeader(name = "Last-Event-ID", required = false) String lastEventId) {
        requireNic(nic);
        Long from = since != null ? since : parseLastEventId(lastEventId);
        return streams.open(nic, from == null ? -1 : from);
    }

    /** Null when absent; an empty or non-numeric value is a 400 naming the header. */
    private static Long parseLastEventId(String header) {
        if (header == null) {
            return null;
        }
        String v = header.strip();
        try {
            if (v.matches("[0-9]{1,19}")) {
                return Long.parseLong(v);
            }
        } catch (NumberFormatException e) {
            // above Long.MAX_VALUE: the same answer as any other bad value
        }
        throw ApiException.badRequest("Last-Event-ID", "must be a profile version, a non-negative 64-bit "
                + "integer (got '" + header + "')");
    }

    private void answer(DeferredResult<ResponseEntity<EvProfile>> result, String nic) {
        try {
            result.setResult(ResponseEntity.ok(profiles.current(nic)));
        } catch (RuntimeException e) {
            LOG.error("profile of {} could not be read: {}", nic, e.toString());
            result.setErrorResult(e);
        }
    }

    private ResponseEntity<EvProfile> nothingNewer(String nic) {
        long v = board.version(nic);
        return ResponseEntity.status(v == 0 ? HttpStatus.NO_CONTENT : HttpStatus.NOT_MODIFIED)
                .header("Weft-Version", Long.toString(v)).build();
    }

    /** 202 once Kafka has the report. */
    @PostMapping(path = "/v1/agents/{nic}/reports", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Forward a flow report to weft.telemetry.flows", description = "The report's 'rejected' "
            + "entries (what the agent refused to apply) are not forwarded: when they differ from the NIC's previous "
            + "report they become an 'agent-rejected' event (GET /v1/events) and the weft_agents_rejected_entries "
            + "gauge (all NICs).")
    @ApiResponse(responseCode = "202", description = "Kafka has the report")
    @ApiResponse(responseCode = "400", description = "bad report; 'field' names the culprit",
            content = @Content(mediaType = "application/problem+json",
                    schema = @Schema(implementation = ProblemDetail.class)))
    @ApiResponse(responseCode = "503", description = "Kafka unavailable; retry",
            content = @Content(mediaType = "application/problem+json",
                    schema = @Schema(implementation = ProblemDetail.class)))
    ResponseEntity<Void> report(@PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String nic,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(ref = FLOW_REPORT_SCHEMA)))
            @RequestBody byte[] body) {
        FlowReport report = readReport(body);
        requireNic(nic);
        if (!report.nic().equals(nic)) {
            throw ApiException.badRequest("nic", "report is for '" + report.nic() + "' but was posted for '" + nic
                    + "'");
        }
        rejections.record(nic, report);
        // The topic's consumers read flows; the rejections are the service's (events, metrics).
        reports.send(nic, report.withoutRejections().toJson());
        return ResponseEntity.accepted().build();
    }

    /** The contract's strict reader decides; its field ({@code flows[0].bytes}) goes into the 400. */
    private static FlowReport readReport(byte[] body) {
        try {
            return FlowReport.fromJson(body);
        } catch (ContractException e) {
            throw ApiException.badRequest(e.field().equals("$") ? "body" : e.field(), e.getMessage());
        }
    }

    private void requireNic(String nic) {
        if (!placement.view().isNic(nic)) {
            throw ApiException.notFound("nic", "'" + nic + "' is not a NIC of the current fabric");
        }
    }
}
