package io.weft.placement;

import java.util.List;

/**
 * A job as a user describes it (the job file; later the POST /v1/jobs body): a traffic pattern over
 * NIC endpoints, or an explicit flow list. {@link Patterns#expand} turns it into a {@link Job}.
 *
 * @param name job id, unique among placed jobs
 * @param tenant tenant (VRF) whose decap function ends every path; "default" when absent
 * @param pattern ring | tree | all-to-all | pipeline | explicit
 * @param endpoints NIC ids in rank order (not for explicit)
 * @param demandGbps demand of each pattern flow (before slicing); default for explicit flows
 * @param qpSlices QP slices per flow (each slice its own path and EV), at least 1
 * @param concurrentPeers all-to-all only: peers each rank sends to at once (shifts 1..n); 0 = all
 * @param order ring only: "given" keeps the endpoint order, "auto" groups ranks by leaf
 * @param flows explicit flows
 */
public record JobSpec(String name, String tenant, String pattern, List<String> endpoints, double demandGbps,
                      int qpSlices, int concurrentPeers, String order, List<FlowSpec> flows) {
    public static final List<String> PATTERNS = List.of("ring", "tree", "all-to-all", "pipeline", "explicit");

    public JobSpec {
        endpoints = endpoints == null ? List.of() : List.copyOf(endpoints);
        flows = flows == null ? List.of() : List.copyOf(flows);
        tenant = tenant == null ? "default" : tenant;
        order = order == null ? "given" : order;
    }

    /** A pattern job with one slice per flow, given order, all peers. */
    public static JobSpec of(String name, String pattern, List<String> endpoints, double demandGbps) {
        return new JobSpec(name, "default", pattern, endpoints, demandGbps, 1, 0, "given", List.of());
    }

    public JobSpec withSlices(int slices) {
        return new JobSpec(name, tenant, pattern, endpoints, demandGbps, slices, concurrentPeers, order, flows);
    }

    public JobSpec withOrder(String o) {
        return new JobSpec(name, tenant, pattern, endpoints, demandGbps, qpSlices, concurrentPeers, o, flows);
    }

    public JobSpec withConcurrentPeers(int n) {
        return new JobSpec(name, tenant, pattern, endpoints, demandGbps, qpSlices, n, order, flows);
    }

    /** One explicit flow; demandGbps 0 means "the job's demandGbps". */
    public record FlowSpec(String src, String dst, double demandGbps) {
    }
}
