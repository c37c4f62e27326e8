package io.weft.scheduler.job;

import java.net.URI;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.weft.auth.Caller;
import io.weft.scheduler.config.LimitsProperties;
import io.weft.scheduler.job.JobViews.History;
import io.weft.scheduler.job.JobViews.JobSummary;
import io.weft.scheduler.job.JobViews.JobView;
import io.weft.scheduler.job.JobViews.Page;
import io.weft.scheduler.web.ApiException;
import io.weft.scheduler.web.Ids;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The jobs API for AI job schedulers (scope {@code scheduler}; operators may read). */
@RestController
@Tag(name = "jobs", description = "AI job schedulers: submit, list, read, release (scope scheduler; operator reads)")
class JobController {
    private final JobService jobs;
    private final JobStore store;
    private final LimitsProperties limits;

    JobController(JobService jobs, JobStore store, LimitsProperties limits) {
        this.jobs = jobs;
        this.store = store;
        this.limits = limits;
    }

    /** 201 with the placed job; 200 with the same job when an Idempotency-Key is replayed. */
    @PostMapping(path = "/v1/jobs", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Place a job", description = "Expands the pattern, places every flow slice and returns "
            + "paths and encodings. With Idempotency-Key, a retry returns the first answer (200).")
    @ApiResponse(responseCode = "201", description = "placed")
    @ApiResponse(responseCode = "200", description = "idempotent replay of an earlier request")
    @ApiResponse(responseCode = "400", description = "bad request; 'field' names the culprit",
            content = @Content(mediaType = "application/problem+json",
                    schema = @Schema(implementation = ProblemDetail.class)))
    @ApiResponse(responseCode = "409",
            description = "refused: no path, or the admission limit maxLinkLoad cannot be met",
                    content = @Content(mediaType = "application/problem+json",
                            schema = @Schema(implementation = ProblemDetail.class)))
    @ApiResponse(responseCode = "422", description = "Idempotency-Key reused with a different body",
            content = @Content(mediaType = "application/problem+json",
                    schema = @Schema(implementation = ProblemDetail.class)))
    @StandbyWriteResponse
    ResponseEntity<JobView> create(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
            @RequestHeader(name = "Idempotency-Key", required = false)
            @Size(min = 1, max = 200) @Pattern(regexp = "^[\\x21-\\x7e]+$", message = "must be printable ASCII")
            String idempotencyKey,
            @Valid @RequestBody JobRequest request) {
        JobService.Created c = jobs.create(caller, idempotencyKey, request);
        return ResponseEntity.status(c.replay() ? HttpStatus.OK : HttpStatus.CREATED)
                .location(URI.create("/v1/jobs/" + c.job().id()))
                .body(c.job());
    }

    @GetMapping(path = "/v1/jobs", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "List jobs, oldest first, optionally by tenant and state")
    Page<JobSummary> list(@RequestParam(required = false) @Size(min = 1, max = 100)
            @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String tenant,
            @RequestParam(required = false) @Pattern(regexp = "^(ACTIVE|RELEASED)$",
                    message = "must be ACTIVE or RELEASED")
            String state,
            @RequestParam(defaultValue = "0") @Min(0) @Max(1_000_000) int page,
            @RequestParam(defaultValue = "50") @Min(1) int size) {
        if (size > limits.maxPageSize()) {
            throw ApiException.badRequest("size", "at most " + limits.maxPageSize());
        }
        return store.list(tenant, state, page, size);
    }

    @GetMapping(path = "/v1/jobs/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "A job with its flows, current paths and encodings")
    @ApiResponse(responseCode = "200", description = "the job")
    @ApiResponse(responseCode = "404", description = "no such job",
            content = @Content(mediaType = "application/problem+json",
                    schema = @Schema(implementation = ProblemDetail.class)))
    JobView get(@PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String id) {
        return store.find(id).orElseThrow(() -> ApiException.notFound("id", "no job '" + id + "'"));
    }

    @DeleteMapping(path = "/v1/jobs/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Release a job (idempotent): its reservations go, its agents are told")
    @ApiResponse(responseCode = "200", description = "the job, released (also when it already was)")
    @ApiResponse(responseCode = "404", description = "no such job",
            content = @Content(mediaType = "application/problem+json",
                    schema = @Schema(implementation = ProblemDetail.class)))
    @StandbyWriteResponse
    JobView release(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
            @PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String id) {
        return jobs.release(caller, id);
    }

    @GetMapping(path = "/v1/jobs/{id}/history", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Every path change of the job's flows, with the reason")
    @ApiResponse(responseCode = "200", description = "the job's path changes, oldest first")
    @ApiResponse(responseCode = "404", description = "no such job",
            content = @Content(mediaType = "application/problem+json",
                    schema = @Schema(implementation = ProblemDetail.class)))
    History history(@PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String id) {
        return store.history(id).orElseThrow(() -> ApiException.notFound("id", "no job '" + id + "'"));
    }
}
