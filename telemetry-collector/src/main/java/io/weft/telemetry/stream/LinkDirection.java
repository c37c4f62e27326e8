package io.weft.telemetry.stream;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;

import io.weft.contracts.HotspotEvent;
import io.weft.contracts.LinkLoad;
import io.weft.contracts.TopicValue;
import io.weft.telemetry.Counter;
import io.weft.telemetry.CounterRate;
import io.weft.telemetry.InterfaceSample;
import io.weft.telemetry.config.DetectionProperties;

/**
 * The state of one link direction and the decisions taken on it, sample by sample: octet rate
 * (wrap, reset, duplicates and gaps per {@link CounterRate}), utilisation, drop rate, ECN-marked
 * fraction, EWMA, hotspot hysteresis and link down / up. Mutable; saved between samples in the
 * processor's state store by {@link LinkDirectionSerde}. Not thread-safe (one partition owns it).
 *
 * <p>Rules, in the order they are applied to a sample:
 * <ol>
 *   <li>oper-status DOWN takes the direction down (link-down); UP brings it back (link-up) unless it
 *       is down because its counters froze, which only moving counters undo;</li>
 *   <li>a rate sample updates utilisation and EWMA (utilisation alpha * new + (1 - alpha) * old);</li>
 *   <li>counters frozen: a rate sample with no new octets starts (or extends) a frozen span; when the
 *       span reaches frozenTimeoutMs and the EWMA before the span was at least
 *       frozenExpectedUtilisation, the direction goes down; octets moving again bring it up;</li>
 *   <li>hysteresis: not hot and EWMA above high for samplesToEnter successive rate samples:
 *       hotspot-start; hot and EWMA below low: hotspot-end. Between low and high nothing changes.</li>
 *   <li>with the queue-drop rule on, each queue sample of the sending port is judged too: not hot and
 *       more than highDropFraction of the offered packets dropped for samplesToEnter successive
 *       samples, or one sample above atOnceDropFraction when that is set: hotspot-start; the end then
 *       also needs the drop fraction at most lowDropFraction.</li>
 * </ol>
 */
public final class LinkDirection {
    /** Why a direction is down. */
    enum DownCause { NONE, OPER_STATUS, FROZEN }

    /** Per queue: baselines and the latest deltas of transmit / ECN-marked / dropped packets. */
    static final class QueueCounters {
        long timestampNs;
        long transmit;
        long ecnMarked;
        long dropped;
        long transmitDelta;
        long ecnMarkedDelta;
        long droppedDelta;
    }

    // Octet counter of this direction.
    double capacityGbps;
    CounterRate octets;
    // Interface packet counters of this direction (drop rate).
    boolean packetsStarted;
    long packetsTimestampNs;
    long packets;
    long discards;
    // Output queues (ECN fraction, queue drops), sender side only.
    final Map<String, QueueCounters> queues = new TreeMap<>();
    // Latest measurements; NaN = not known yet.
    long lastSampleNs;
    double rateGbps = Double.NaN;
    double utilisation = Double.NaN;
    double ewma = Double.NaN;
    double dropRate = Double.NaN;
    double ecnFraction = Double.NaN;
    String operStatus;
    // Decisions.
    boolean hot;
    int samplesAbove;
    /** Successive queue samples above the drop threshold; not saved (a restore starts counting again). */
    int samplesDropping;
    DownCause down = DownCause.NONE;
    long frozenSinceNs = -1;
    double ewmaBeforeFreeze = Double.NaN;

    LinkDirection(double capacityGbps) {
        this.capacityGbps = capacityGbps;
        this.octets = new CounterRate(capacityGbps);
    }

    /** A new, empty direction of this capacity. */
    public static LinkDirection fresh(double capacityGbps) {
        return new LinkDirection(capacityGbps);
    }

    /**
     * Applies one interface or queue sample of the interface measuring {@code arc}; adds to {@code out}
     * what it changed (a {@link LinkLoad} for every new rate or status, {@link HotspotEvent}s for every
     * decision). {@code now} gives a decision's detectedAt; it is asked only when there is one.
     *
     * @return whether the state decisions are taken from changed: hot or not, the count towards
     *     hotspot-start, down or not, the frozen span, the oper-status (not the measurements: rates,
     *     EWMA, counter baselines). The processor saves such a direction within a second, the others
     *     less often.
     */
    public boolean apply(InterfaceSample s, MeasuredArc arc, DetectionProperties p, Ids ids, Supplier<Instant> now,
                         List<TopicValue> out) {
        boolean wasHot = hot;
        int wasAbove = samplesAbove;
        DownCause wasDown = down;
        long wasFrozenSinceNs = frozenSinceNs;
        String wasOperStatus = operStatus;
        applySample(s, arc, p, ids, now, out);
        return hot != wasHot || samplesAbove != wasAbove || down != wasDown || frozenSinceNs != wasFrozenSinceNs
                || !Objects.equals(operStatus, wasOperStatus);
    }

    private void applySample(InterfaceSample s, MeasuredArc arc, DetectionProperties p, Ids ids,
                             Supplier<Instant> now, List<TopicValue> out) {
        if (arc.capacityGbps() != capacityGbps) {
            // The fabric changed the link's capacity: keep the baseline, judge wraps by the new line rate.
            capacityGbps = arc.capacityGbps();
            octets = octets.started() ? CounterRate.resume(capacityGbps, octets.lastTimestampNs(), octets.lastValue())
                    : new CounterRate(capacityGbps);
        }
        if (s.queue() != null) {
            if (arc.side() == MeasuredArc.Side.SENDER) {
                queueSample(s);
                dropRule(arc, s.timestampNs(), p, ids, now, out);
            }
            return;
        }
        boolean sender = arc.side() == MeasuredArc.Side.SENDER;
        boolean changed = false;
        if (s.operStatus() != null && !s.operStatus().equals(operStatus)) {
            operStatus = s.operStatus();
            changed = true;
            if (operStatus.equals("DOWN") && down == DownCause.NONE) {
                down = DownCause.OPER_STATUS;
                out.add(event(HotspotEvent.Kind.LINK_DOWN, arc, s.timestampNs(), now, ids, Double.NaN));
            } else if (operStatus.equals("UP") && down == DownCause.OPER_STATUS) {
                down = DownCause.NONE;
                out.add(event(HotspotEvent.Kind.LINK_UP, arc, s.timestampNs(), now, ids, Double.NaN));
            }
        }
        packetSample(s, sender);
        Long octetValue = s.counters().get(sender ? Counter.OUT_OCTETS : Counter.IN_OCTETS);
        if (octetValue != null) {
            long previousNs = octets.lastTimestampNs();
            CounterRate.Result r = octets.update(s.timestampNs(), octetValue);
            if (r.kind().hasRate()) {
                double previousEwma = ewma;
                rateGbps = r.rateGbps();
                utilisation = rateGbps / capacityGbps;
                ewma = Double.isNaN(ewma) ? utilisation : p.ewmaAlpha() * utilisation + (1 - p.ewmaAlpha()) * ewma;
                lastSampleNs = s.timestampNs();
                changed = true;
                frozen(r.deltaOctets() == 0, previousNs, previousEwma, arc, s.timestampNs(), p, ids, now, out);
                hysteresis(arc, s.timestampNs(), p, ids, now, out);
            }
        }
        if (changed && !Double.isNaN(rateGbps)) {
            out.add(new LinkLoad(arc.fabricId(), arc.linkId(), arc.toNode(), s.timestampNs(), rateGbps, capacityGbps,
                    utilisation, dropRate, ecnFraction, operStatus, hot));
        }
    }

    private void frozen(boolean still, long previousNs, double previousEwma, MeasuredArc arc, long sampleNs,
                        DetectionProperties p, Ids ids, Supplier<Instant> now, List<TopicValue> out) {
        if (!still) {
            frozenSinceNs = -1;
            if (down == DownCause.FROZEN) {
                down = DownCause.NONE;
                out.add(event(HotspotEvent.Kind.LINK_UP, arc, sampleNs, now, ids, Double.NaN));
            }
            return;
        }
        if (frozenSinceNs < 0) {
            frozenSinceNs = previousNs;
            ewmaBeforeFreeze = previousEwma;
        }
        boolean expected = ewmaBeforeFreeze >= p.frozenExpectedUtilisation(); // false for NaN
        if (expected && down == DownCause.NONE && sampleNs - frozenSinceNs >= p.frozenTimeoutMs() * 1_000_000L) {
            down = DownCause.FROZEN;
            out.add(event(HotspotEvent.Kind.LINK_DOWN, arc, sampleNs, now, ids, Double.NaN));
        }
    }

    private void hysteresis(MeasuredArc arc, long sampleNs, DetectionProperties p, Ids ids, Supplier<Instant> now,
                            List<TopicValue> out) {
        if (!hot) {
            if (ewma > p.highUtilisation()) {
                samplesAbove++;
                if (samplesAbove >= p.samplesToEnter()) {
                    hot = true;
                    samplesAbove = 0;
                    out.add(event(HotspotEvent.Kind.HOTSPOT_START, arc, sampleNs, now, ids, p.highUtilisation()));
                }
            } else {
                samplesAbove = 0;
            }
        } else if (ewma < p.lowUtilisation() && !(p.dropRuleOn() && queueDropFraction() > p.lowDropFraction())) {
            hot = false;
            samplesDropping = 0;
            out.add(event(HotspotEvent.Kind.HOTSPOT_END, arc, sampleNs, now, ids, p.lowUtilisation()));
        }
    }

    private void dropRule(MeasuredArc arc, long sampleNs, DetectionProperties p, Ids ids, Supplier<Instant> now,
                          List<TopicValue> out) {
        if (!p.dropRuleOn() || hot) {
            return;
        }
        double fraction = queueDropFraction();
        if (fraction > p.highDropFraction()) {
            samplesDropping++;
            boolean atOnce = p.atOnceDropFraction() > 0 && fraction > p.atOnceDropFraction();
            if (atOnce || samplesDropping >= p.samplesToEnter()) {
                hot = true;
                samplesDropping = 0;
                samplesAbove = 0;
                out.add(event(HotspotEvent.Kind.HOTSPOT_START, arc, sampleNs, now, ids,
                        atOnce ? p.atOnceDropFraction() : p.highDropFraction()));
            }
        } else {
            samplesDropping = 0;
        }
    }

    /**
     * Dropped / (transmitted + dropped) packets over every queue's latest interval; 0 when the queues
     * offered nothing (no packets, no drops) or report none.
     */
    double queueDropFraction() {
        long sent = 0;
        long dropped = 0;
        for (QueueCounters c : queues.values()) {
            sent += c.transmitDelta;
            dropped += c.droppedDelta;
        }
        return sent + dropped == 0 ? 0 : (double) dropped / (sent + dropped);
    }

    private void packetSample(InterfaceSample s, boolean sender) {
        Long pk = s.counters().get(sender ? Counter.OUT_PKTS : Counter.IN_PKTS);
        Long dc = s.counters().get(sender ? Counter.OUT_DISCARDS : Counter.IN_DISCARDS);
        if (pk == null || dc == null) {
            return;
        }
        if (packetsStarted && s.timestampNs() <= packetsTimestampNs) {
            return; // duplicate or out of order
        }
        if (packetsStarted && Long.compareUnsigned(pk, packets) >= 0 && Long.compareUnsigned(dc, discards) >= 0) {
            // Packet counters wrap after centuries: a decrease is a reset, and gives no ratio.
            dropRate = ratio(dc - discards, (pk - packets) + (dc - discards));
        }
        packetsStarted = true;
        packetsTimestampNs = s.timestampNs();
        packets = pk;
        discards = dc;
    }

    private void queueSample(InterfaceSample s) {
        Long tx = s.counters().get(Counter.TRANSMIT_PKTS);
        Long ecn = s.counters().get(Counter.ECN_MARKED_PKTS);
        Long dropped = s.counters().get(Counter.DROPPED_PKTS);
        if (tx == null) {
            return;
        }
        QueueCounters q = queues.get(s.queue());
        if (q == null) {
            q = new QueueCounters();
            q.timestampNs = s.timestampNs();
            q.transmit = tx;
            q.ecnMarked = ecn == null ? 0 : ecn;
            q.dropped = dropped == null ? 0 : dropped;
            queues.put(s.queue(), q);
            return;
        }
        if (s.timestampNs() <= q.timestampNs) {
            return;
        }
        long e = ecn == null ? q.ecnMarked : ecn;
        long d = dropped == null ? q.dropped : dropped;
        boolean reset = Long.compareUnsigned(tx, q.transmit) < 0 || Long.compareUnsigned(e, q.ecnMarked) < 0
                || Long.compareUnsigned(d, q.dropped) < 0;
        q.transmitDelta = reset ? 0 : tx - q.transmit;
        q.ecnMarkedDelta = reset ? 0 : e - q.ecnMarked;
        q.droppedDelta = reset ? 0 : d - q.dropped;
        q.timestampNs = s.timestampNs();
        q.transmit = tx;
        q.ecnMarked = e;
        q.dropped = d;
        // Over all queues of the port, each with its latest interval: marks / transmitted packets.
        long sumTx = 0;
        long sumEcn = 0;
        for (QueueCounters c : queues.values()) {
            sumTx += c.transmitDelta;
            sumEcn += c.ecnMarkedDelta;
        }
        if (sumTx > 0) {
            ecnFraction = Math.min(1.0, (double) sumEcn / sumTx);
        }
    }

    private static double ratio(long part, long whole) {
        if (whole <= 0) {
            return Double.NaN;
        }
        return Math.max(0, Math.min(1.0, (double) part / whole));
    }

    private HotspotEvent event(HotspotEvent.Kind kind, MeasuredArc arc, long sampleNs, Supplier<Instant> now, Ids ids,
                               double threshold) {
        return new HotspotEvent(ids.next(), kind, arc.linkId(), arc.toNode(), sampleNs, now.get(),
                Double.isNaN(ewma) ? Double.NaN : Math.max(0, ewma), dropRate, ecnFraction, threshold);
    }

    public boolean hot() {
        return hot;
    }

    public boolean down() {
        return down != DownCause.NONE;
    }

    public double ewma() {
        return ewma;
    }

    /** Source of event ids (random UUIDs in service, counters in tests). */
    @FunctionalInterface
    public interface Ids {
        String next();
    }
}
