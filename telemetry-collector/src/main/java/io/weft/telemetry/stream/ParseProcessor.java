package io.weft.telemetry.stream;

import java.time.Clock;
import java.util.List;

import io.weft.telemetry.DeadLetter;
import io.weft.telemetry.GnmicEventParser;
import io.weft.telemetry.InterfaceSample;
import io.weft.telemetry.Parsed;
import io.weft.telemetry.Samples;
import io.weft.telemetry.TelemetryFormatException;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * weft.telemetry.interfaces record to samples: forwards one {@link Samples} (all the record's events),
 * or one {@link DeadLetter} for a record that cannot be normalised (all or nothing, see
 * {@link GnmicEventParser}). Needs the Processor API for the record's partition and offset, which
 * the dead letter carries.
 */
final class ParseProcessor implements Processor<String, byte[], String, Parsed> {
    private final GnmicEventParser parser = new GnmicEventParser();
    private final TelemetryCounters counters;
    private final Clock clock;
    private ProcessorContext<String, Parsed> context;

    ParseProcessor(TelemetryCounters counters, Clock clock) {
        this.counters = counters;
        this.clock = clock;
    }

    @Override
    public void init(ProcessorContext<String, Parsed> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, byte[]> record) {
        counters.count("interfaces.records");
        List<InterfaceSample> samples;
        try {
            samples = parser.parseUtf8(record.value());
        } catch (TelemetryFormatException e) {
            counters.problem("deadletter." + e.code().code(), e.getMessage());
            RecordMetadata m = context.recordMetadata().orElse(null);
            DeadLetter d = DeadLetter.of(m == null ? "unknown" : m.topic(), m == null ? 0 : m.partition(),
                    m == null ? 0 : Math.max(0, m.offset()), record.key(), record.value(), e, clock.instant());
            context.forward(record.withValue(d));
            return;
        }
        context.forward(record.withValue(new Samples(samples)));
    }
}
