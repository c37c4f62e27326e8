package io.weft.telemetry.bench;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Role;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The collector's share of the closed loop, on the running broker + topology: the time from
 * producing the gnmic sample that makes a link hot to consuming its hotspot-start on weft.hotspots.
 * Each probe cools one switch-to-switch direction (five idle samples), then sends full-line samples
 * one at a time, each acknowledged, polling weft.hotspots in between; the latency is taken from the
 * send of the sample named by the event's sampleTimestampNs to the poll that returned the event.
 */
final class HotspotLatency {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long LINE_OCTETS_PER_S = 50_000_000_000L; // 400 Gbit/s

    private HotspotLatency() {
    }

    static void probe(String bootstrap, Fabric fabric, int probes, Map<String, Object> r) {
        Properties pp = new Properties();
        pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        pp.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        Properties cp = new Properties();
        cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        cp.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5);
        List<Double> latenciesMs = new ArrayList<>();
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(pp, new StringSerializer(), new ByteArraySerializer());
             KafkaConsumer<String, String> consumer =
                     new KafkaConsumer<>(cp, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> parts = consumer.partitionsFor("weft.hotspots").stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(parts);
            consumer.seekToEnd(parts);
            parts.forEach(consumer::position); // resolve the end now, before the probes
            // Switch-to-switch ports: each measures exactly one direction (the one it sends).
            List<String[]> uplinks = new ArrayList<>();
            for (Link l : fabric.links()) {
                if (fabric.node(l.a().node()).role() != Role.NIC && fabric.node(l.b().node()).role() != Role.NIC) {
                    uplinks.add(new String[] {l.a().node(), l.a().port()});
                }
            }
            for (int k = 0; k < probes; k++) {
                String[] port = uplinks.get((k * 37) % uplinks.size());
                Double ms = one(producer, consumer, port, 2_000_000_000L + k * 100L);
                if (ms != null) {
                    latenciesMs.add(ms);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("latency probe: " + e.getCause(), e);
        }
        Collections.sort(latenciesMs);
        r.put("hotspot_probes", latenciesMs.size());
        r.put("hotspot_p50_ms", percentile(latenciesMs, 0.50));
        r.put("hotspot_p99_ms", percentile(latenciesMs, 0.99));
    }

    /** One probe on one port; null when no hotspot-start came within eight full-line samples. */
    private static Double one(KafkaProducer<String, byte[]> producer, KafkaConsumer<String, String> consumer,
                              String[] port, long baseSecond) throws InterruptedException, ExecutionException {
        long octets = 0;
        int s = 0;
        for (; s < 5; s++) {
            send(producer, port, (baseSecond + s) * 1_000_000_000L, octets);
        }
        Map<Long, Long> sentAt = new HashMap<>();
        for (int hot = 0; hot < 8; hot++, s++) {
            octets += LINE_OCTETS_PER_S;
            long ns = (baseSecond + s) * 1_000_000_000L;
            send(producer, port, ns, octets);
            sentAt.put(ns, System.nanoTime());
            // With the default detection (alpha 0.5, 3 samples above 0.8) the 5th full-line sample after
            // the idle ones triggers; earlier ones only get a short poll (a late event still matches).
            long until = System.nanoTime() + Duration.ofMillis(hot < 4 ? 20 : 2000).toNanos();
            while (System.nanoTime() < until) {
                for (ConsumerRecord<String, String> rec : consumer.poll(Duration.ofMillis(5))) {
                    long now = System.nanoTime();
                    JsonNode e;
                    try {
                        e = MAPPER.readTree(rec.value());
                    } catch (Exception ex) {
                        continue;
                    }
                    Long sent = sentAt.get(Long.parseLong(e.path("sampleTimestampNs").asText("0")));
                    if (e.path("kind").asText().equals("hotspot-start") && sent != null) {
                        return (now - sent) / 1e6;
                    }
                }
            }
        }
        return null;
    }

    private static void send(KafkaProducer<String, byte[]> producer, String[] port, long ns, long octets)
            throws InterruptedException, ExecutionException {
        producer.send(new ProducerRecord<>("weft.telemetry.interfaces", port[0],
                LoopBench.event(port[0], port[1], ns, octets, 0).getBytes(StandardCharsets.UTF_8))).get();
    }

    private static Double percentile(List<Double> sorted, double q) {
        if (sorted.isEmpty()) {
            return null;
        }
        double v = sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
        return Math.round(v * 100) / 100.0;
    }
}
