package io.weft.telemetry.stream;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import io.weft.telemetry.CounterRate;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Binary form of {@link LinkDirection} for the per-direction state store and its changelog. Binary,
 * not JSON, because it is written once per sample (hundreds of thousands per second); versioned by
 * its first byte so that a changed layout can still read old changelogs or refuse them clearly.
 */
public final class LinkDirectionSerde implements Serde<LinkDirection> {
    private static final byte FORMAT = 1;

    @Override
    public Serializer<LinkDirection> serializer() {
        return (topic, d) -> d == null ? null : write(d);
    }

    @Override
    public Deserializer<LinkDirection> deserializer() {
        return (topic, bytes) -> bytes == null ? null : read(bytes);
    }

    static byte[] write(LinkDirection d) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(160);
        try (DataOutputStream o = new DataOutputStream(bytes)) {
            o.writeByte(FORMAT);
            o.writeDouble(d.capacityGbps);
            o.writeBoolean(d.octets.started());
            o.writeLong(d.octets.lastTimestampNs());
            o.writeLong(d.octets.lastValue());
            o.writeBoolean(d.packetsStarted);
            o.writeLong(d.packetsTimestampNs);
            o.writeLong(d.packets);
            o.writeLong(d.discards);
            o.writeInt(d.queues.size());
            for (Map.Entry<String, LinkDirection.QueueCounters> e : d.queues.entrySet()) {
                LinkDirection.QueueCounters q = e.getValue();
                o.writeUTF(e.getKey());
                o.writeLong(q.timestampNs);
                o.writeLong(q.transmit);
                o.writeLong(q.ecnMarked);
                o.writeLong(q.dropped);
                o.writeLong(q.transmitDelta);
                o.writeLong(q.ecnMarkedDelta);
                o.writeLong(q.droppedDelta);
            }
            o.writeLong(d.lastSampleNs);
            o.writeDouble(d.rateGbps);
            o.writeDouble(d.utilisation);
            o.writeDouble(d.ewma);
            o.writeDouble(d.dropRate);
            o.writeDouble(d.ecnFraction);
            o.writeBoolean(d.operStatus != null);
            if (d.operStatus != null) {
                o.writeUTF(d.operStatus);
            }
            o.writeBoolean(d.hot);
            o.writeInt(d.samplesAbove);
            o.writeByte(d.down.ordinal());
            o.writeLong(d.frozenSinceNs);
            o.writeDouble(d.ewmaBeforeFreeze);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static LinkDirection read(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            byte format = in.readByte();
            if (format != FORMAT) {
                throw new IllegalStateException("link direction state: unknown format " + format
                        + " (expected " + FORMAT + ")");
            }
            LinkDirection d = new LinkDirection(in.readDouble());
            boolean started = in.readBoolean();
            long ts = in.readLong();
            long value = in.readLong();
            if (started) {
                d.octets = CounterRate.resume(d.capacityGbps, ts, value);
            }
            d.packetsStarted = in.readBoolean();
            d.packetsTimestampNs = in.readLong();
            d.packets = in.readLong();
            d.discards = in.readLong();
            int queues = in.readInt();
            for (int i = 0; i < queues; i++) {
                String name = in.readUTF();
                LinkDirection.QueueCounters q = new LinkDirection.QueueCounters();
                q.timestampNs = in.readLong();
                q.transmit = in.readLong();
                q.ecnMarked = in.readLong();
                q.dropped = in.readLong();
                q.transmitDelta = in.readLong();
                q.ecnMarkedDelta = in.readLong();
                q.droppedDelta = in.readLong();
                d.queues.put(name, q);
            }
            d.lastSampleNs = in.readLong();
            d.rateGbps = in.readDouble();
            d.utilisation = in.readDouble();
            d.ewma = in.readDouble();
            d.dropRate = in.readDouble();
            d.ecnFraction = in.readDouble();
            d.operStatus = in.readBoolean() ? in.readUTF() : null;
            d.hot = in.readBoolean();
            d.samplesAbove = in.readInt();
            d.down = LinkDirection.DownCause.values()[in.readByte()];
            d.frozenSinceNs = in.readLong();
            d.ewmaBeforeFreeze = in.readDouble();
            return d;
        } catch (IOException e) {
            throw new IllegalStateException("link direction state: truncated record (" + bytes.length + " bytes)", e);
        }
    }
}
