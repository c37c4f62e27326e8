package io.weft.telemetry.stream;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.telemetry.config.DetectionProperties;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.springframework.util.FileSystemUtils;

/**
 * The topology in a {@link TopologyTestDriver} on the contracts' 2-leaf/2-spine example (400G links;
 * leaf1 eth1 sends leaf1-spine1 towards spine1; leaf1 eth3 faces nic1 and measures both directions of
 * nic1-leaf1), with helpers that write gnmic events and read the outputs as JSON.
 */
final class TopologyFixture implements AutoCloseable {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final Path EXAMPLE = Path.of("../contracts/examples/leaf-spine-2x2.json").toAbsolutePath().normalize();
    static final long SECOND_NS = 1_000_000_000L;
    /** Octets per second that fill a 400 Gbit/s direction. */
    static final long LINE_OCTETS_PER_S = 400_000_000_000L / 8;
    static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");

    final TopologyTestDriver driver;
    final TelemetryCounters counters = new TelemetryCounters();
    final TestInputTopic<String, byte[]> fabric;
    final TestInputTopic<String, byte[]> interfaces;
    final TestInputTopic<String, byte[]> flows;
    final TestOutputTopic<String, String> hotspots;
    final TestOutputTopic<String, String> loads;
    final TestOutputTopic<String, String> deadletters;
    /** The driver's state directory: closing the driver empties it but leaves it in /tmp. */
    private final Path stateDir;

    TopologyFixture(DetectionProperties detection) {
        this(detection, Duration.ZERO);
    }

    /** With weft.links.load coalesced per {@code loadInterval} of sample time (zero: every load at once). */
    TopologyFixture(DetectionProperties detection, Duration loadInterval) {
        StreamsBuilder b = new StreamsBuilder();
        AtomicLong ids = new AtomicLong();
        TelemetryTopology.build(b, TelemetryTopics.DEFAULT, detection, counters,
                Clock.fixed(NOW, ZoneOffset.UTC), () -> "event-" + ids.incrementAndGet(), loadInterval);
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "telemetry-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        try {
            stateDir = Files.createTempDirectory("weft-telemetry-ttd");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        driver = new TopologyTestDriver(b.build(), p);
        TelemetryTopics t = TelemetryTopics.DEFAULT;
        fabric = driver.createInputTopic(t.fabric(), new StringSerializer(), new ByteArraySerializer());
        interfaces = driver.createInputTopic(t.interfaces(), new StringSerializer(), new ByteArraySerializer());
        flows = driver.createInputTopic(t.flows(), new StringSerializer(), new ByteArraySerializer());
        hotspots = driver.createOutputTopic(t.hotspots(), new StringDeserializer(), new StringDeserializer());
        loads = driver.createOutputTopic(t.linksLoad(), new StringDeserializer(), new StringDeserializer());
        deadletters = driver.createOutputTopic(t.deadletter(), new StringDeserializer(), new StringDeserializer());
    }

    static Fabric example() {
        try {
            return FabricJson.read(EXAMPLE);
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + EXAMPLE + ": " + e.getMessage(), e);
        }
    }

    /** A minimal weft.fabric snapshot (what InterfaceDirectionIndex reads) of the example at this version. */
    void publishFabric(long version) {
        ObjectNode s = MAPPER.createObjectNode();
        s.put("schemaVersion", 1);
        s.put("fabricId", "ls-2x2");
        s.put("version", version);
        s.set("fabric", FabricJson.toTree(example()));
        fabric.pipeInput("ls-2x2", s.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** One gnmic event of interface counters (values as strings, as gnmic sends uint64). */
    static String event(String target, String iface, long timestampNs, String... leafValuePairs) {
        ObjectNode e = MAPPER.createObjectNode();
        e.put("name", "ifcounters");
        e.put("timestamp", timestampNs);
        ObjectNode tags = e.putObject("tags");
        tags.put("source", target + ":57400");
        tags.put("target", target);
        tags.put("interface_name", iface);
        tags.put("subscription-name", "ifcounters");
        ObjectNode values = e.putObject("values");
        for (int i = 0; i + 1 < leafValuePairs.length; i += 2) {
            values.put("/interfaces/interface/state/counters/" + leafValuePairs[i], leafValuePairs[i + 1]);
        }
        return e.toString();
    }

    void send(String target, String record) {
        interfaces.pipeInput(target, record == null ? null : record.getBytes(StandardCharsets.UTF_8));
    }

    /** leaf1 eth1 out-octets (direction leaf1-spine1 > spine1) at t seconds. */
    void outOctets(double tSeconds, long octets) {
        send("leaf1", event("leaf1", "eth1", (long) (tSeconds * SECOND_NS), "out-octets",
                Long.toUnsignedString(octets)));
    }

    static List<JsonNode> json(List<TestRecord<String, String>> records) {
        List<JsonNode> out = new ArrayList<>();
        for (TestRecord<String, String> r : records) {
            try {
                out.add(MAPPER.readTree(r.value()));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return out;
    }

    List<JsonNode> hotspotEvents() {
        return json(hotspots.readRecordsToList());
    }

    List<JsonNode> linkLoads() {
        return json(loads.readRecordsToList());
    }

    List<JsonNode> deadLetters() {
        return json(deadletters.readRecordsToList());
    }

    @Override
    public void close() {
        driver.close();
        try {
            FileSystemUtils.deleteRecursively(stateDir);
        } catch (IOException e) {
            throw new IllegalStateException("cannot remove " + stateDir, e);
        }
    }
}
