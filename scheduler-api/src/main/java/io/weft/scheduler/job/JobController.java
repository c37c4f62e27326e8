package io.weft.scheduler.job;

import java.net.URI;

import io.weft.scheduler.auth.Caller;
import io.weft.scheduler.config.LimitsProperties;
import io.weft.scheduler.job.JobViews.History;
import io.weft.scheduler.job.JobViews.JobSummary;
import io.weft.scheduler.job.JobViews.JobView;
import io.weft.scheduler.job.JobViews.Page;
import io.weft.scheduler.web.ApiException;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.springframework.http.HttpStatus;
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
    @PostMapping("/v1/jobs")
    ResponseEntity<JobView> create(@RequestAttribute(Caller.ATTRIBUTE) Caller caller,
            @RequestHeader(name = "Idempotency-Key", required = false)
            @Size(min = 1, max = 200) @Pattern(regexp = "[\\x21-\\x7e]+", message = "must be printable ASCII")
            String idempotencyKey,
            @Valid @RequestBody JobRequest request) {
        JobService.Created c = jobs.create(caller, idempotencyKey, request);
        return ResponseEntity.status(c.replay() ? HttpStatus.OK : HttpStatus.CREATED)
                .location(URI.create("/v1/jobs/" + c.job().id()))
                .body(c.job());
    }

    @GetMapping("/v1/jobs")
    Page<JobSummary> list(@RequestParam(required = false) @Size(min = 1, max = 100) String tenant,
            @RequestParam(required = false) @Pattern(regexp = "ACTIVE|RELEASED", message = "must be ACTIVE or RELEASED")
            String state,
            @RequestParam(defaultValue = "0") @Min(0) @Max(1_000_000) int page,
            @RequestParam(defaultValue = "50") @Min(1) int size) {
        if (size > limits.maxPageSize()) {
            throw ApiException.badRequest("size", "at most " + limits.maxPageSize());
        }
        return store.list(tenant, state, page, size);
    }

    @GetMapping("/v1/jobs/{id}")
    JobView get(@PathVariable String id) {
        return store.find(id).orElseThrow(() -> ApiException.notFound("id", "no job '" + id + "'"));
    }

    @DeleteMapping("/v1/jobs/{id}")
    JobView release(@RequestAttribute(Caller.ATTRIBUTE) Caller caller, @PathVariable String id) {
        return jobs.release(caller, id);
    }

    @GetMapping("/v1/jobs/{id}/history")
    History history(@PathVariable String id) {
        return store.history(id).orElseThrow(() -> ApiException.notFound("id", "no job '" + id + "'"));
    }
}
