package io.weft.scheduler.job;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.weft.auth.Caller;
import io.weft.placement.Flow;
import io.weft.placement.Job;
import io.weft.placement.Patterns;
import io.weft.placement.PlacedFlow;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlacementException;
import io.weft.placement.PlacementResult;
import io.weft.placement.Unplaced;
import io.weft.scheduler.config.LimitsProperties;
import io.weft.scheduler.events.EventLog;
import io.weft.scheduler.fabric.Placement;
import io.weft.scheduler.job.JobStore.FlowRow;
import io.weft.scheduler.job.JobViews.JobView;
import io.weft.scheduler.web.ApiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import tools.jackson.databind.ObjectMapper;

/**
 * Admits and releases jobs: expands the request, places it with the engine, checks the admission
 * limit, and records job, flows, paths, versions, idempotency key and event in one transaction.
 * Both run as changes of the single writer ({@link Placement#write}): if the transaction fails the
 * engine's reservation is undone, so memory never holds a job the database does not; on a standby
 * replica both answer 503 with Retry-After.
 */
@Component
class JobService {
    private static final Logger LOG = LoggerFactory.getLogger(JobService.class);
    /** Admission limit comparisons tolerate float noise in the engine's utilisation sums. */
    private static final double LOAD_EPSILON = 1e-9;

    /** The answer to a create: the job and whether it was an idempotent replay. */
    record Created(JobView job, boolean replay) {
    }

    private final Placement placement;
    private final JobStore store;
    private final PathLedger ledger;
    private final EventLog events;
    private final LimitsProperties limits;
    private final ObjectMapper json;
    private final Timer placeTimer;

    JobService(Placement placement, JobStore store, PathLedger ledger, EventLog events,
               LimitsProperties limits, ObjectMapper json, MeterRegistry meters) {
        this.placement = placement;
        this.store = store;
        this.ledger = ledger;
        this.events = events;
        this.limits = limits;
        this.json = json;
        this.placeTimer = Timer.builder("weft.placement.latency").description("engine time to place one job")
                .publishPercentiles(0.5, 0.99).register(meters);
    }

    Created create(Caller caller, String idempotencyKey, JobRequest r) {
        String requestJson = json.writeValueAsString(r);
        String hash = sha256(requestJson);
        String tenant = r.tenant() == null ? JobRequests.DEFAULT_TENANT : r.tenant();
        Encoding encoding = r.encoding() == null ? Encoding.BOTH : r.encoding();
        return placement.write("place a job", w -> {
            if (idempotencyKey != null) {
                var earlier = store.idempotent(caller.name(), idempotencyKey);
                if (earlier.isPresent()) {
                    if (!earlier.get()[0].equals(hash)) {
                        throw ApiException.unprocessable("Idempotency-Key",
                                "key already used for a different request body");
                    }
                    return new Created(store.find(earlier.get()[1]).orElseThrow(), true);
                }
            }
            String jobId = "job-" + UUID.randomUUID();
            PlacementEngine engine = w.engine();
            Job job;
            try {
                job = Patterns.expand(JobRequests.toSpec(jobId, tenant, r), engine.index(), limits.maxFlowsPerJob())
                        .withHomePortsOnly(encoding.homePortsOnly(w.view().plan()));
            } catch (PlacementException e) {
                throw ApiException.badRequest(e.field(), e.getMessage());
            }
            PlacementResult result;
            MultipathPlacement.Outcome spread = null;
            Timer.Sample sample = Timer.start();
            long placeNs;
            try {
                if (r.multipath() != null) {
                    // An explicit qpSlices 1 says the stack sends each flow on one path (no spraying).
                    spread = Integer.valueOf(1).equals(r.qpSlices())
                            ? MultipathPlacement.onePath(engine, job, r.multipath(),
                                    "qpSlices 1: each flow allows one path (no spraying): one path per flow")
                            : MultipathPlacement.place(engine, w.view().plan(), job, r.multipath(), encoding,
                                    limits.multipathBudgetMs());
                    job = spread.job();
                    result = spread.result();
                } else {
                    result = engine.add(job);
                }
            } catch (PlacementException e) {
                throw ApiException.badRequest(e.field(), e.getMessage());
            } finally {
                placeNs = sample.stop(placeTimer);
            }
            List<FlowRow> rows = new ArrayList<>();
            for (Flow f : job.flows()) {
                rows.add(new FlowRow(f.id(), jobId, JobRequests.flowIndex(jobId, f.id()), f.slice(), f.srcNic(),
                        f.dstNic(), f.demandGbps()));
            }
            JobViews.MultipathView multipath = spread == null ? null : spread.view();
            String multipathJson = multipath == null ? null : json.writeValueAsString(multipath);
            Map<String, Double> weights = spread == null ? Map.of() : spread.weights();
            long storeStart = System.nanoTime();
            String refusal = refusal(r, encoding, result, jobId);
            if (refusal != null) {
                reject(w, jobId, result);
                throw ApiException.conflict(r.maxLinkLoad() != null && refusal.startsWith("max link load")
                        ? "maxLinkLoad" : null, refusal);
            }
            w.commit(status -> {
                store.insertJob(jobId, r, tenant, encoding, requestJson, result.quality().maxLoad(),
                        result.quality().collisions(), caller.name(), rows, multipathJson, weights);
                ledger.record(Changes.of(result, engine, jobId, "placed", "rebalanced:" + jobId));
                if (idempotencyKey != null) {
                    store.insertIdempotencyKey(caller.name(), idempotencyKey, hash, jobId);
                }
                Map<String, Object> payload = new LinkedHashMap<>();
                payload.put("jobId", jobId);
                payload.put("name", r.name());
                payload.put("tenant", tenant);
                payload.put("flows", rows.size());
                payload.put("maxLinkLoad", result.quality().maxLoad());
                payload.put("moved", result.moved().size());
                if (multipath != null) {
                    payload.put("multipath", multipath);
                }
                events.append("job-created", jobId, payload);
                return null;
            }, () -> undo(engine, jobId));
            long storeNs = System.nanoTime() - storeStart;
            JobView view = store.find(jobId).orElseThrow();
            LOG.info("job {} ({} flow slices): placed in {} ms, stored in {} ms, max link load {}", jobId, rows.size(),
                    placeNs / 1_000_000, storeNs / 1_000_000, result.quality().maxLoad());
            return new Created(view, false);
        });
    }

    /** Why the placed job must be refused (409), or null to admit it. */
    private static String refusal(JobRequest r, Encoding encoding, PlacementResult result, String jobId) {
        for (Unplaced u : result.unplaced()) {
            if (u.flow().job().equals(jobId)) {
                return "no path for flow " + u.flow().srcNic() + " -> " + u.flow().dstNic() + ": " + u.reason();
            }
        }
        if (encoding == Encoding.EV) {
            for (PlacedFlow p : result.placed()) {
                if (p.flow().job().equals(jobId) && p.encoding().ev() == null) {
                    return "flow " + p.flow().srcNic() + " -> " + p.flow().dstNic() + ": its path is not reachable "
                            + "by EV routing; use encoding srv6 or both";
                }
            }
        }
        double max = result.quality().maxLoad();
        if (r.maxLinkLoad() != null && max > r.maxLinkLoad() + LOAD_EPSILON) {
            return String.format(java.util.Locale.ROOT, "max link load would be %.4f, above the limit %.4f",
                    max, r.maxLinkLoad());
        }
        return null;
    }

    /**
     * Takes a refused job back out of the engine. Flows of other jobs the engine moved while
     * placing it stay where they are now (release does not move anything back), so those moves
     * are still recorded and announced.
     */
    private void reject(Placement.Writing w, String jobId, PlacementResult result) {
        PlacementEngine engine = w.engine();
        undo(engine, jobId);
        List<PathLedger.PathChange> moved = new ArrayList<>();
        for (String id : result.moved()) {
            PlacedFlow p = engine.placed(id);
            if (p != null && !p.flow().job().equals(jobId)) {
                moved.add(Changes.placed(p, "rebalanced:" + jobId));
            }
        }
        if (!moved.isEmpty()) {
            // Nothing to undo: those moves stand in the engine whether or not they are recorded
            // (as before this job came); a failure here is the request's 500.
            w.commit(status -> ledger.record(moved));
        }
    }

    private static void undo(PlacementEngine engine, String jobId) {
        try {
            engine.release(jobId);
        } catch (PlacementException e) {
            LOG.error("could not take job {} back out of the engine: {}", jobId, e.getMessage());
        }
    }

    /** Releases a job (idempotent: releasing a released job returns it unchanged). */
    JobView release(Caller caller, String id) {
        return placement.write("release a job", w -> {
            String state = store.state(id).orElseThrow(() -> ApiException.notFound("id", "no job '" + id + "'"));
            if (JobStore.ACTIVE.equals(state)) {
                PlacementEngine engine = placement.ready() ? w.engine() : null;
                boolean placed = engine != null && engine.jobIds().contains(id);
                if (placed) {
                    undo(engine, id);
                }
                // Releasing moved nothing else, so the engine is rebuilt from PostgreSQL if the
                // release cannot be recorded (the job is still active there).
                w.commit(status -> {
                    store.markReleased(id);
                    Map<String, Long> versions = ledger.retire(id, store.srcNics(id));
                    store.retireFlows(id, versions);
                    events.append("job-released", id, Map.of("jobId", id, "by", caller.name()));
                    return null;
                }, placed ? w::discardEngine : () -> { });
            }
            return store.find(id).orElseThrow();
        });
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }
}
