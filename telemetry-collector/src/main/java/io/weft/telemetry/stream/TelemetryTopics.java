package io.weft.telemetry.stream;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

import io.weft.contracts.LinkLoad;
import io.weft.contracts.TopicValue;
import io.weft.contracts.Topics;
import io.weft.telemetry.DeadLetter;
import io.weft.telemetry.config.TelemetryKafkaProperties;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.TopicNameExtractor;

/**
 * The topics the collector reads and writes (contracts/topics.md) with their serdes, in one place.
 * Inputs are read as raw bytes so that a rejected record reaches the dead-letter topic unchanged;
 * outputs are the contract's JSON. Keys are UTF-8 strings everywhere.
 */
public record TelemetryTopics(String fabric, String interfaces, String flows, String hotspots, String linksLoad,
                              String deadletter) {

    /** The catalogue's names (contracts/topics.json). */
    public static final TelemetryTopics DEFAULT = new TelemetryTopics(Topics.FABRIC, Topics.TELEMETRY_INTERFACES,
            Topics.TELEMETRY_FLOWS, Topics.HOTSPOTS, Topics.LINKS_LOAD, Topics.TELEMETRY_DEADLETTER);

    public TelemetryTopics {
        Objects.requireNonNull(fabric, "fabric");
        Objects.requireNonNull(interfaces, "interfaces");
        Objects.requireNonNull(flows, "flows");
        Objects.requireNonNull(hotspots, "hotspots");
        Objects.requireNonNull(linksLoad, "linksLoad");
        Objects.requireNonNull(deadletter, "deadletter");
    }

    public static TelemetryTopics of(TelemetryKafkaProperties k) {
        return new TelemetryTopics(k.fabricTopic(), k.interfacesTopic(), k.flowsTopic(), k.hotspotsTopic(),
                k.linksLoadTopic(), k.deadletterTopic());
    }

    /** Raw input records: string key, bytes value. */
    static final Consumed<String, byte[]> RAW = Consumed.with(Serdes.String(), Serdes.ByteArray());

    /**
     * weft.telemetry.interfaces as it arrives: the key (the switch, for partitioning) stays bytes, since
     * only a dead letter needs it as text; decoding it on every record was a share of the per-record cost.
     */
    static final Consumed<byte[], byte[]> RAW_KEYS = Consumed.with(Serdes.ByteArray(), Serdes.ByteArray());

    /**
     * Everything the interfaces' processor writes, through one sink: a dead letter or a contract value
     * (a load or a hotspot event), each in its topic's JSON.
     */
    static final Produced<String, Object> OUTPUT = Produced.with(Serdes.String(), writeOnly((topic, v) -> {
        if (v == null) {
            return null;
        }
        if (v instanceof TopicValue e) {
            return e.toJsonBytes();
        }
        if (v instanceof DeadLetter d) {
            return d.toJson().getBytes(StandardCharsets.UTF_8);
        }
        throw new IllegalArgumentException("no output topic takes a " + v.getClass().getName());
    }));

    /** The topic of an output of {@link #OUTPUT}: dead letters, loads and hotspot events each to their own. */
    TopicNameExtractor<String, Object> outputTopic() {
        return (key, value, context) -> value instanceof DeadLetter ? deadletter
                : value instanceof LinkLoad ? linksLoad : hotspots;
    }

    static final Produced<String, DeadLetter> DEAD_LETTERS = Produced.with(Serdes.String(), writeOnly(
            (topic, d) -> d == null ? null : d.toJson().getBytes(StandardCharsets.UTF_8)));

    /** Output values are only ever written by the collector; readers parse the contract JSON. */
    private static <T> Serde<T> writeOnly(Serializer<T> serializer) {
        return Serdes.serdeFrom(serializer, (topic, bytes) -> {
            throw new UnsupportedOperationException("the collector does not read back " + topic);
        });
    }
}
