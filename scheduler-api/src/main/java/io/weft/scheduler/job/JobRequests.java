package io.weft.scheduler.job;

import java.util.ArrayList;
import java.util.List;

import io.weft.placement.JobSpec;
import io.weft.scheduler.web.ApiException;

/**
 * Maps a {@link JobRequest} onto the engine's {@link JobSpec} (whose {@code Patterns.expand} does
 * the expansion and NIC checks, naming the same request fields). Only what the spec cannot tell
 * apart is checked here: a missing demand and fields given to the wrong pattern.
 */
final class JobRequests {
    static final String DEFAULT_TENANT = "default";

    private JobRequests() {
    }

    static JobSpec toSpec(String jobId, String tenant, JobRequest r) {
        boolean explicit = r.pattern() == Pattern.EXPLICIT;
        if (!explicit && r.demandGbps() == null) {
            throw ApiException.badRequest("demandGbps", "required for pattern " + r.pattern());
        }
        if (explicit && r.endpoints() != null) {
            throw ApiException.badRequest("endpoints", "not used by pattern explicit; list flows instead");
        }
        if (!explicit && r.flows() != null) {
            throw ApiException.badRequest("flows", "only pattern explicit takes flows");
        }
        if (r.concurrentPeers() != null && r.pattern() != Pattern.ALL_TO_ALL) {
            throw ApiException.badRequest("concurrentPeers", "only used by pattern all-to-all");
        }
        if (r.order() != null && r.pattern() != Pattern.RING) {
            throw ApiException.badRequest("order", "only used by pattern ring");
        }
        if (r.multipath() != null) {
            if (!MultipathRequest.supported(r.multipath().granularity())) {
                throw ApiException.badRequest("multipath.granularity", "must be 8 or 16");
            }
            if (r.qpSlices() != null && r.qpSlices() > 1) {
                throw ApiException.badRequest("qpSlices",
                        "must be 1 or absent with multipath (its paths are the slices)");
            }
        }
        List<JobSpec.FlowSpec> flows = new ArrayList<>();
        if (r.flows() != null) {
            for (int i = 0; i < r.flows().size(); i++) {
                JobRequest.FlowRequest f = r.flows().get(i);
                if (f.demandGbps() == null && r.demandGbps() == null) {
                    throw ApiException.badRequest("flows[" + i + "].demandGbps", "required (no job-wide demandGbps)");
                }
                flows.add(new JobSpec.FlowSpec(f.src(), f.dst(), f.demandGbps() == null ? 0 : f.demandGbps()));
            }
        }
        return new JobSpec(jobId, tenant, r.pattern().jsonName(), r.endpoints(),
                r.demandGbps() == null ? 0 : r.demandGbps(), r.qpSlices() == null ? 1 : r.qpSlices(),
                r.concurrentPeers() == null ? 0 : r.concurrentPeers(), r.order(), flows);
    }

    /** The pattern flow index k of an engine flow id {@code <job>/<k>} or {@code <job>/<k>.<slice>}. */
    static int flowIndex(String jobId, String flowId) {
        String rest = flowId.substring(jobId.length() + 1);
        int dot = rest.indexOf('.');
        return Integer.parseInt(dot < 0 ? rest : rest.substring(0, dot));
    }
}
