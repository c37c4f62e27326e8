package io.weft.telemetry.stream;

import java.nio.charset.StandardCharsets;
import java.time.Clock;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.telemetry.DeadLetter;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * weft.telemetry.flows: validates NIC flow reports ({@link FlowReportCheck}) and counts reports and
 * flows; an invalid report goes to the dead-letter topic as {@code flow-report-invalid}. The per-flow
 * / per-EV view is not built yet: the scheduler reads the same topic for its own purposes.
 */
final class FlowReportProcessor implements Processor<String, byte[], String, DeadLetter> {
    static final String INVALID = "flow-report-invalid";

    private final TelemetryCounters counters;
    private final Clock clock;
    private ProcessorContext<String, DeadLetter> context;

    FlowReportProcessor(TelemetryCounters counters, Clock clock) {
        this.counters = counters;
        this.clock = clock;
    }

    @Override
    public void init(ProcessorContext<String, DeadLetter> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, byte[]> record) {
        counters.count("flows.reports");
        String text = record.value() == null ? "" : new String(record.value(), StandardCharsets.UTF_8);
        try {
            JsonNode report = Json.MAPPER.readTree(text);
            counters.add("flows.flows", FlowReportCheck.check(report));
        } catch (Exception e) {
            String detail = e instanceof IllegalArgumentException ? e.getMessage() : "record is not JSON";
            counters.problem("deadletter." + INVALID, detail);
            RecordMetadata m = context.recordMetadata().orElse(null);
            context.forward(record.withValue(new DeadLetter(m == null ? "unknown" : m.topic(),
                    m == null ? 0 : m.partition(), m == null ? 0 : Math.max(0, m.offset()), record.key(), INVALID,
                    detail, clock.instant(), text)));
        }
    }
}
