package io.weft.simulator.live;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.weft.contracts.FlowReport;
import io.weft.simulator.Routing;

/**
 * Posts what each simulated NIC agent measures, as nic-agent does every second:
 * {@code POST /v1/agents/{nic}/reports} (contracts/schemas/flow-report.schema.json) with every flow
 * of the NIC, its bytes, rate and lost packets; no ECN marks or CNPs (the fluid model has no queues),
 * no RTT. Fire and forget: a refused report is counted and the first one printed.
 */
final class FlowReporter {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI scheduler;
    private final String token;
    private final AtomicLong refused = new AtomicLong();

    FlowReporter(URI scheduler, String token) {
        this.scheduler = scheduler;
        this.token = token;
    }

    /** One report per NIC that has flows. */
    void report(List<LiveFabric.FlowSample> samples) {
        Instant now = Instant.now();
        long ts = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        Map<String, List<FlowReport.Flow>> byNic = new LinkedHashMap<>();
        for (LiveFabric.FlowSample s : samples) {
            LiveFabric.LiveFlow f = s.flow();
            boolean srv6 = f.routing().mode() == Routing.Mode.SRV6;
            byNic.computeIfAbsent(f.srcNic(), k -> new ArrayList<>()).add(new FlowReport.Flow(f.id(), f.jobId(),
                    f.dstNic(), srv6 ? null : f.routing().ev(), srv6 ? f.routing().carriers().get(0) : null,
                    s.bytes(), s.rateGbps(), 0, 0, Double.NaN, s.drops()));
        }
        byNic.forEach((nic, flows) -> {
            FlowReport body = new FlowReport(nic, ts, flows, List.of());
            HttpRequest req = HttpRequest.newBuilder(scheduler.resolve("/v1/agents/" + nic + "/reports"))
                    .timeout(Duration.ofSeconds(10))
                    .header("Authorization", "Bearer " + token)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toJson())).build();
            http.sendAsync(req, HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> {
                if (e != null || r.statusCode() / 100 != 2) {
                    if (refused.getAndIncrement() == 0) {
                        System.err.println("live: flow report of " + nic + " not accepted: "
                                + (e != null ? e.toString() : "HTTP " + r.statusCode() + " " + r.body()));
                    }
                }
            });
        });
    }

    long refused() {
        return refused.get();
    }
}
