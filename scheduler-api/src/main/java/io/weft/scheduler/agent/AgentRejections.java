package io.weft.scheduler.agent;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.weft.contracts.FlowReport;
import io.weft.scheduler.events.EventLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What each NIC's agent refused to apply of its profile (bad carrier, unknown format, peer without
 * address), from its reports. Agents report every second; a change of a NIC's list (new
 * rejections, or none any more) becomes one {@code agent-rejected} event on {@code /v1/events}
 * naming the NIC, the entries, fields and reasons, and {@code weft_agents_rejected_entries} counts
 * the current total. A report without the field (or with an empty one) clears the NIC's list.
 */
@Component
class AgentRejections {
    private static final Logger LOG = LoggerFactory.getLogger(AgentRejections.class);

    private final EventLog events;
    private final TransactionTemplate tx;
    private final Map<String, List<FlowReport.Rejection>> latest = new ConcurrentHashMap<>();

    AgentRejections(EventLog events, TransactionTemplate tx, MeterRegistry meters) {
        this.events = events;
        this.tx = tx;
        Gauge.builder("weft.agents.rejected.entries", latest, m -> m.values().stream().mapToInt(List::size).sum())
                .description("profile entries (or peers) the NICs' agents last reported refusing").register(meters);
    }

    /** Records the report's rejections; an event when they differ from the NIC's previous ones. */
    void record(String nic, FlowReport report) {
        List<FlowReport.Rejection> now = report.rejected();
        List<FlowReport.Rejection> before = latest.put(nic, List.copyOf(now));
        if (now.equals(before) || (before == null && now.isEmpty())) {
            return;
        }
        if (!now.isEmpty()) {
            LOG.warn("agent of {} refused {} profile entries, first {}: {}", nic, now.size(), now.get(0).field(),
                    now.get(0).reason());
        }
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("nic", nic);
        payload.put("timestampNs", Long.toUnsignedString(report.timestampNs()));
        payload.put("rejected", now.stream().map(AgentRejections::asJson).toList());
        tx.executeWithoutResult(s -> events.append("agent-rejected", nic, payload));
    }

    /** One rejection as the event carries it: the report's own shape (entry absent when the whole peer was refused). */
    private static Map<String, String> asJson(FlowReport.Rejection r) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("peer", r.peer());
        if (r.entry() != null) {
            m.put("entry", r.entry());
        }
        m.put("field", r.field());
        m.put("reason", r.reason());
        return m;
    }

    /** The NIC's rejections as last reported (empty when none or never reported). */
    List<FlowReport.Rejection> of(String nic) {
        return latest.getOrDefault(nic, List.of());
    }
}
