package io.weft.systemtests;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.weft.contracts.Topics;
import io.weft.fabric.Endpoint;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.fabric.Role;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The switches' telemetry as gnmic would publish it: every {@code tickMs}, one record per switch on
 * {@code weft.telemetry.interfaces} (key = switch, a JSON array with one {@code event} per port, as
 * gnmic sends one subscription response), carrying in/out octets as uint64 strings and oper-status.
 *
 * <p>Every port sends and receives at a background utilisation; a test raises one link direction
 * ({@link #setUtilisation}) or takes a link down ({@link #setOperStatus}). Counters grow by
 * utilisation x capacity x the real time between ticks, so the collector computes exactly the
 * utilisation that was set, whatever the scheduling jitter. Timestamps are the wall clock.
 */
final class ScriptedSwitches implements AutoCloseable {
    static final String TOPIC = Topics.TELEMETRY_INTERFACES;
    /** Below the collector's frozen-counter floor would make idle ports look dead; well below its thresholds. */
    static final double BACKGROUND_UTILISATION = 0.10;

    /** One switch port and the counters it reports. */
    private static final class Port {
        final String node;
        final String name;
        final double capacityGbps;
        double outUtilisation = BACKGROUND_UTILISATION;
        double inUtilisation = BACKGROUND_UTILISATION;
        String operStatus = "UP";
        long outOctets;
        long inOctets;

        Port(String node, String name, double capacityGbps, long start) {
            this.node = node;
            this.name = name;
            this.capacityGbps = capacityGbps;
            this.outOctets = start;
            this.inOctets = start / 2;
        }
    }

    private final Fabric fabric;
    private final KafkaProducer<String, String> producer;
    /** switch → its ports, in fabric order. */
    private final Map<String, List<Port>> bySwitch = new LinkedHashMap<>();
    private final Map<String, Port> byKey = new LinkedHashMap<>();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "scripted-switches");
        t.setDaemon(true);
        return t;
    });
    private long lastTickNs = -1;
    private long records;
    private volatile RuntimeException failure;

    ScriptedSwitches(Fabric fabric, KafkaProducer<String, String> producer) {
        this.fabric = fabric;
        this.producer = producer;
        long start = 1L << 40; // far from zero, so the collector's first sample is a plain baseline
        for (Link l : fabric.links()) {
            for (Endpoint e : List.of(l.a(), l.b())) {
                Node n = fabric.node(e.node());
                if (n.role() == Role.NIC || e.port() == null) {
                    continue; // gnmic polls switches only
                }
                Port p = new Port(e.node(), e.port(), l.capacityGbps(), start);
                bySwitch.computeIfAbsent(e.node(), k -> new ArrayList<>()).add(p);
                byKey.put(e.node() + "/" + e.port(), p);
            }
        }
    }

    /** Starts ticking every {@code tickMs}. */
    ScriptedSwitches start(long tickMs) {
        ticker.scheduleAtFixedRate(this::tickSafely, 0, tickMs, TimeUnit.MILLISECONDS);
        return this;
    }

    /**
     * Sets the utilisation of one link direction (towards {@code toNode}) from the next tick on. The
     * collector measures it where gnmic can see it: the sending switch port's out-octets, or, when a
     * NIC sends, the receiving switch port's in-octets.
     */
    synchronized void setUtilisation(String linkId, String toNode, double utilisation) {
        Link l = link(linkId);
        Endpoint to = l.a().node().equals(toNode) ? l.a() : l.b();
        if (!to.node().equals(toNode)) {
            throw new IllegalArgumentException("toNode: " + toNode + " is not an end of " + linkId);
        }
        Endpoint from = l.otherEnd(toNode);
        if (fabric.node(from.node()).role() == Role.NIC) {
            port(to).inUtilisation = utilisation;
        } else {
            port(from).outUtilisation = utilisation;
        }
    }

    /** Sets several link directions ("link>toNode" → utilisation) in the same tick. */
    synchronized void setUtilisations(Map<String, Double> byArc) {
        byArc.forEach((arc, u) -> {
            int gt = arc.indexOf('>');
            setUtilisation(arc.substring(0, gt), arc.substring(gt + 1), u);
        });
    }

    /**
     * Sets both switch ports of a link to oper-status {@code status} ("UP" / "DOWN"); a down port's
     * counters stop, an up one's resume at the background utilisation.
     */
    synchronized void setOperStatus(String linkId, String status) {
        Link l = link(linkId);
        for (Endpoint e : List.of(l.a(), l.b())) {
            Port p = byKey.get(e.node() + "/" + e.port());
            if (p == null) {
                continue;
            }
            p.operStatus = status;
            double u = status.equals("UP") ? BACKGROUND_UTILISATION : 0;
            p.outUtilisation = u;
            p.inUtilisation = u;
        }
    }

    /** The switch port that sends the direction of {@code linkId} towards {@code toNode} ("leaf1 eth9"). */
    String measuringPort(String linkId, String toNode) {
        Link l = link(linkId);
        Endpoint from = l.otherEnd(toNode);
        return from.node() + " " + from.port();
    }

    synchronized long records() {
        return records;
    }

    private Link link(String linkId) {
        Link l = fabric.link(linkId);
        if (l == null) {
            throw new IllegalArgumentException("linkId: no link '" + linkId + "' in fabric " + fabric.id());
        }
        return l;
    }

    private Port port(Endpoint e) {
        Port p = byKey.get(e.node() + "/" + e.port());
        if (p == null) {
            throw new IllegalArgumentException("no switch port " + e.node() + " " + e.port());
        }
        return p;
    }

    private void tickSafely() {
        try {
            tick();
        } catch (RuntimeException e) {
            // Kept for the test to report: an exception would silently cancel every later tick.
            failure = e;
            throw e;
        }
    }

    private synchronized void tick() {
        Instant now = Instant.now();
        long ns = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        double seconds = lastTickNs < 0 ? 0 : (ns - lastTickNs) / 1e9;
        lastTickNs = ns;
        for (var e : bySwitch.entrySet()) {
            StringBuilder rec = new StringBuilder(256 * e.getValue().size()).append('[');
            for (Port p : e.getValue()) {
                double bytesPerSecond = p.capacityGbps * 1e9 / 8;
                p.outOctets += (long) (p.outUtilisation * bytesPerSecond * seconds);
                p.inOctets += (long) (p.inUtilisation * bytesPerSecond * seconds);
                if (rec.length() > 1) {
                    rec.append(',');
                }
                rec.append("{\"name\":\"weft-ifcounters\",\"timestamp\":").append(ns)
                        .append(",\"tags\":{\"source\":\"").append(p.node).append(":57400\",\"target\":\"")
                        .append(p.node).append("\",\"interface_name\":\"").append(p.name)
                        .append("\",\"subscription-name\":\"weft-ifcounters\"},\"values\":{")
                        .append("\"openconfig:/interfaces/interface/state/counters/out-octets\":\"")
                        .append(Long.toUnsignedString(p.outOctets)).append("\",")
                        .append("\"/interfaces/interface/state/counters/in-octets\":\"")
                        .append(Long.toUnsignedString(p.inOctets)).append("\",")
                        .append("\"/interfaces/interface/state/oper-status\":\"").append(p.operStatus)
                        .append("\"}}");
            }
            rec.append(']');
            producer.send(new ProducerRecord<>(TOPIC, e.getKey(), rec.toString()));
            records++;
        }
    }

    /** Throws what stopped the ticks, if anything did. */
    void check() {
        RuntimeException f = failure;
        if (f != null) {
            throw new IllegalStateException("the scripted switches stopped: " + f, f);
        }
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        try {
            ticker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(java.time.Duration.ofSeconds(5));
    }
}
