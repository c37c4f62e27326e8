package io.weft.telemetry.stream;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.contracts.ContractException;
import io.weft.contracts.FlowReport;
import io.weft.telemetry.DeadLetter;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * weft.telemetry.flows: validates NIC flow reports ({@link FlowReport}, strictly), counts reports and
 * flows, and keeps the per-flow view ({@link FlowView}) of every NIC in a store: a report lists every
 * flow of its NIC, so it replaces the NIC's flows (flows it no longer lists are removed). A report
 * older than the one held for its NIC is ignored. An invalid report goes to the dead-letter topic as
 * {@code flow-report-invalid}.
 */
final class FlowReportProcessor implements Processor<String, byte[], String, DeadLetter> {
    static final String INVALID = "flow-report-invalid";

    private final String storeName;
    private final TelemetryCounters counters;
    private final Clock clock;
    private ProcessorContext<String, DeadLetter> context;
    private KeyValueStore<String, String> flows;

    FlowReportProcessor(String storeName, TelemetryCounters counters, Clock clock) {
        this.storeName = storeName;
        this.counters = counters;
        this.clock = clock;
    }

    @Override
    public void init(ProcessorContext<String, DeadLetter> context) {
        this.context = context;
        this.flows = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        counters.count("flows.reports");
        String text = record.value() == null ? "" : new String(record.value(), StandardCharsets.UTF_8);
        try {
            JsonNode report = Json.MAPPER.readTree(text);
            counters.add("flows.flows", FlowReport.fromTree(report).flows().size());
            remember(report);
        } catch (Exception e) {
            // Details name the field JSON-path style, as the collector's other dead letters do.
            String detail = e instanceof ContractException c ? (c.field().equals("$") ? "" : "$.") + c.getMessage()
                    : e instanceof IllegalArgumentException ? e.getMessage() : "record is not JSON";
            counters.problem("deadletter." + INVALID, detail);
            RecordMetadata m = context.recordMetadata().orElse(null);
            context.forward(record.withValue(new DeadLetter(m == null ? "unknown" : m.topic(),
                    m == null ? 0 : m.partition(), m == null ? 0 : Math.max(0, m.offset()), record.key(), INVALID,
                    detail, clock.instant(), text)));
        }
    }

    private void remember(JsonNode report) throws IOException {
        String nic = report.get("nic").asText();
        long reportNs = Long.parseUnsignedLong(report.get("timestampNs").asText());
        Map<String, JsonNode> held = new HashMap<>();
        try (KeyValueIterator<String, String> it = flows.prefixScan(nic + ' ', new StringSerializer())) {
            while (it.hasNext()) {
                KeyValue<String, String> kv = it.next();
                held.put(kv.key, Json.MAPPER.readTree(kv.value));
            }
        }
        for (JsonNode h : held.values()) {
            if (Long.compareUnsigned(Long.parseUnsignedLong(h.get("timestampNs").asText()), reportNs) > 0) {
                counters.count("flows.stale-reports");
                return;
            }
        }
        for (JsonNode f : report.get("flows")) {
            String key = FlowView.key(nic, f.get("flowId").asText());
            flows.put(key, Json.MAPPER.writeValueAsString(FlowView.of(nic, reportNs, f, held.remove(key))));
        }
        for (String gone : held.keySet()) {
            flows.delete(gone);
        }
    }
}
