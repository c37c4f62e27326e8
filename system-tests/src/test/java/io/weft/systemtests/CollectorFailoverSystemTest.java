package io.weft.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.junit.DevstackExtension;
import io.weft.devstack.junit.WeftDevstackTest;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Link;
import io.weft.fabric.Role;
import io.weft.harness.ChildService;
import io.weft.harness.Http;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.admin.StreamsGroupMemberAssignment;
import org.apache.kafka.clients.admin.StreamsGroupMemberDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * Two telemetry collectors share the switches' telemetry in one consumer group (one Kafka Streams
 * application id, a state dir each). With a hotspot open on a link direction measured by a switch
 * whose partition the victim holds, the victim is killed with SIGKILL under the scripted switches'
 * steady load. Asserted: the survivor takes every partition; the open hotspot's state came back from
 * the changelog (no second hotspot-start, and the survivor ends it when the load falls); a new
 * hotspot on the victim's switch is detected by the survivor; the gap in the hot direction's loads on
 * weft.links.load across the kill (broker append times; the group notices a killed member only after
 * its session timeout, 1 s here on the streams rebalance protocol, which the devstack's broker
 * allows) stays under 5 s.
 */
@WeftDevstackTest
class CollectorFailoverSystemTest {
    private static final String APPLICATION_ID = "weft-telemetry-collector";
    private static final String GROUP = APPLICATION_ID;
    private static final int INTERFACE_PARTITIONS = 12;
    private static final long SESSION_TIMEOUT_MS = Long.getLong("weft.failover.session-ms", 1000);
    // Faster than classic (telemetry-collector/README.md); -Dweft.failover.group-protocol=classic and
    // -Dweft.failover.session-ms=N measure the alternatives.
    private static final String GROUP_PROTOCOL = System.getProperty("weft.failover.group-protocol", "streams");
    private static final java.util.regex.Pattern CLIENT_ID =
            java.util.regex.Pattern.compile("clientId=" + APPLICATION_ID + "-([0-9a-f]{8}-[0-9a-f-]{27})-");

    @Test
    void theSurvivorTakesThePartitionsWithTheirHotspotState() throws Exception {
        Path root = SystemTestPaths.root();
        Path target = SystemTestPaths.target();
        Fabric fabric = FabricJson.read(root.resolve("contracts/examples/leaf-spine-2x4.json"));
        DevstackEndpoints devstack = DevstackExtension.endpoints();
        Path fabricFile = target.resolve("collector-failover-fabric.json");
        Path controllerState = target.resolve("collector-failover-controller");
        Map<String, Path> stateDirs = Map.of("collector-a", target.resolve("collector-failover-a"),
                "collector-b", target.resolve("collector-failover-b"));
        WeftSystem.deleteTree(controllerState);
        stateDirs.values().forEach(WeftSystem::deleteTree);
        WeftSystem.dropServiceSchemas(devstack);
        Files.writeString(fabricFile, FabricJson.write(fabric));

        if (GROUP_PROTOCOL.equals("streams")) {
            streamsGroupSession(devstack);
        }
        appendTimestamps(devstack);
        List<ChildService> children = new ArrayList<>();
        Map<String, Integer> ports = new HashMap<>();
        ScriptedSwitches switches = null;
        try (Observer seen = new Observer(devstack)) {
            children.add(ChildService.start(root, target, "controller", "controller-app/standalone",
                    "io.weft.controller.standalone.StandaloneController", "256m",
                    Map.of("WEFT_KAFKA_BOOTSTRAP", devstack.kafkaBootstrapServers()),
                    List.of("--fabric", fabricFile.toString(), "--http-port", Integer.toString(WeftSystem.freePort()),
                            "--state-dir", controllerState.toString())));
            for (String name : List.of("collector-a", "collector-b")) {
                int port = WeftSystem.freePort();
                ports.put(name, port);
                // The collector on its own role (weft_collector), as deployed.
                Map<String, String> env = new HashMap<>(devstack.collectorEnv());
                env.putAll(Map.of("WEFT_TELEMETRY_PORT", Integer.toString(port),
                        "WEFT_TELEMETRY_STATE_DIR", stateDirs.get(name).toString(),
                        // The test reads status, hotspots and loads without a token; the doors have their own tests.
                        "WEFT_COLLECTOR_READS", "open"));
                // As deploy/ runs it: the devstack broker allows a 1 s session (group.min.session.timeout.ms).
                env.put("WEFT_KAFKA_SESSION_TIMEOUT_MS", Long.toString(SESSION_TIMEOUT_MS));
                env.put("WEFT_KAFKA_GROUP_PROTOCOL", GROUP_PROTOCOL);
                children.add(ChildService.start(root, target, name, "telemetry-collector",
                        "io.weft.telemetry.TelemetryCollectorApplication", "512m", env,
                                List.of(WeftSystem.QUIET_KAFKA)));
            }
            for (String name : ports.keySet()) {
                WeftSystem.await(name + " Kafka Streams RUNNING", children, () -> {
                    Http.Reply r = Http.get(ports.get(name), "/v1/status", null);
                    return r.status() == 200 && r.body().path("streams").asText().equals("RUNNING");
                });
            }
            Map<String, Set<Integer>> owned = new HashMap<>();
            WeftSystem.await("both collectors holding interface partitions", children, () -> {
                owned.clear();
                owned.putAll(interfacePartitions(devstack, children));
                return owned.size() == 2 && owned.values().stream().noneMatch(Set::isEmpty)
                        && owned.values().stream().mapToInt(Set::size).sum() == INTERFACE_PARTITIONS;
            });

            // The victim is the owner of some switch's partition; that switch measures the hot direction.
            String victim = null;
            Link hotLink = null;
            String hotTo = null;
            for (Link l : fabric.links()) {
                if (fabric.node(l.a().node()).role() == Role.NIC || fabric.node(l.b().node()).role() == Role.NIC) {
                    continue;
                }
                String owner = ownerOf(owned, partitionOf(l.a().node()));
                if (owner != null) {
                    victim = owner;
                    hotLink = l;
                    hotTo = l.b().node();
                    break;
                }
            }
            assertThat(victim).as("a switch-to-switch link measured on a collector's partition").isNotNull();
            String victimName = victim;
            String survivor = victim.equals("collector-a") ? "collector-b" : "collector-a";
            String measuring = hotLink.a().node();
            String hotArc = hotLink.id() + ">" + hotTo;

            switches = new ScriptedSwitches(fabric, WeftSystem.producer(devstack)).start(WeftSystem.TICK_MS);
            ScriptedSwitches s = switches;
            WeftSystem.await("loads of " + hotArc + " on weft.links.load", children, () -> {
                s.check();
                return seen.loads(hotArc) > 0;
            });
            String testStarted = Instant.now().toString();
            switches.setUtilisation(hotLink.id(), hotTo, 0.95);
            String link = hotLink.id();
            int survivorPort = ports.get(survivor);
            WeftSystem.await("hotspot-start of " + hotArc, children, () -> {
                s.check();
                return hotspots(survivorPort, link, "hotspot-start", testStarted).size() == 1;
            });
            WeftSystem.sleep(3000);

            ChildService killed = children.stream().filter(c -> c.name().equals(victimName)).findFirst().orElseThrow();
            long loadsBefore = seen.loads(hotArc);
            long killedAtNs = System.nanoTime();
            long killedAtMs = System.currentTimeMillis();
            ProcessHandle.of(killed.pid()).orElseThrow().destroyForcibly();
            children.remove(killed);
            WeftSystem.await("the survivor holding every interface partition", children, () -> {
                s.check();
                Map<String, Set<Integer>> now = interfacePartitions(devstack, children);
                return now.keySet().equals(Set.of(survivor)) && now.get(survivor).size() == INTERFACE_PARTITIONS;
            });
            long takenOverMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAtNs);
            WeftSystem.await("loads of " + hotArc + " again", children, () -> {
                s.check();
                return seen.loads(hotArc) > loadsBefore + 2;
            });
            long gapMs = seen.maxGapMs(hotArc, killedAtMs);
            long gapEndMs = seen.maxGapEndMs(hotArc, killedAtMs);
            // The group drops the victim after its 1 s session, the survivor restores its partitions' state
            // from the changelog: on the streams protocol 1.8, 2.2, 2.5 and 3.8 s between two loads at load
            // average 17, 24, 30 and 43 on 2 cores; on the classic protocol 2.6, 4.9 and 5.8 s at 27, 55 and
            // 32; with a 500 ms session
            // either protocol dropped the survivor too under such load (7.6 and 10.5 s). The bound is what
            // a 6 s session (a stock broker's minimum) could not meet, with room for a loaded machine.
            assertThat(gapMs).as("pause in %s loads after the kill", hotArc).isLessThan(5000);

            // The hotspot stayed open across the kill: its state came from the changelog.
            WeftSystem.sleep(2000);
            assertThat(hotspots(survivorPort, link, "hotspot-start", testStarted)).as("hotspot-starts of " + hotArc)
                    .hasSize(1);
            switches.setUtilisation(link, hotTo, ScriptedSwitches.BACKGROUND_UTILISATION);
            WeftSystem.await("hotspot-end of " + hotArc + " from the survivor", children, () -> {
                s.check();
                return hotspots(survivorPort, link, "hotspot-end", testStarted).size() == 1;
            });

            // A new hotspot on the victim's switch: detected by the survivor.
            Link other = fabric.links().stream().filter(l -> !l.id().equals(link)
                    && (l.a().node().equals(measuring) || l.b().node().equals(measuring))).findFirst().orElseThrow();
            String otherTo = other.otherEnd(measuring).node();
            long eventsBefore = seen.loads("hotspot " + other.id());
            long newHotNs = System.nanoTime();
            switches.setUtilisation(other.id(), otherTo, 0.95);
            WeftSystem.await("a weft.hotspots event of " + other.id() + ">" + otherTo, children, () -> {
                s.check();
                return seen.loads("hotspot " + other.id()) > eventsBefore;
            });
            long detectMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - newHotNs);
            WeftSystem.await("hotspot-start of " + other.id() + " in the history", children, () -> {
                s.check();
                return !hotspots(survivorPort, other.id(), "hotspot-start", testStarted).isEmpty();
            });
            long recordedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - newHotNs);
            switches.setUtilisation(other.id(), otherTo, ScriptedSwitches.BACKGROUND_UTILISATION);
            System.out.printf("system test: collector failover: %s killed (held %s), survivor %s; every partition "
                            + "on the survivor %d ms after SIGKILL; gap in %s loads on weft.links.load %d ms, "
                            + "ending %d ms after SIGKILL (broker append times; session %d ms, %s protocol) "
                            + "(links-load interval 1000 ms, switches tick %d ms); new hotspot on %s on weft.hotspots "
                            + "%d ms after the load rose, in the history after %d ms; load %s%n", victim,
                    owned.get(victim), survivor, takenOverMs, hotArc, gapMs, gapEndMs, SESSION_TIMEOUT_MS,
                    GROUP_PROTOCOL, WeftSystem.TICK_MS, measuring, detectMs,
                    recordedMs, Files.readString(Path.of("/proc/loadavg")).trim());
        } catch (RuntimeException | AssertionError e) {
            System.err.println("collector failover failed; logs:\n" + WeftSystem.tails(children, 80));
            throw e;
        } finally {
            if (switches != null) {
                switches.close();
            }
            children.forEach(ChildService::stop);
        }
    }

    /** Partition of a switch's records on weft.telemetry.interfaces (the producer's default partitioner). */
    private static int partitionOf(String switchName) {
        return Utils.toPositive(Utils.murmur2(switchName.getBytes(StandardCharsets.UTF_8))) % INTERFACE_PARTITIONS;
    }

    private static String ownerOf(Map<String, Set<Integer>> owned, int partition) {
        for (Map.Entry<String, Set<Integer>> e : owned.entrySet()) {
            if (e.getValue().contains(partition)) {
                return e.getKey();
            }
        }
        return null;
    }

    /**
     * Which collector holds which weft.telemetry.interfaces partitions: the group's members are named
     * by their Streams process id, which each instance's Kafka clients log in their client ids (the
     * topology has no persistent store, so no state dir keeps it).
     */
    private static Map<String, Set<Integer>> interfacePartitions(DevstackEndpoints devstack,
                                                                 List<ChildService> children) {
        Map<String, String> byProcess = new HashMap<>();
        for (ChildService c : children) {
            java.util.regex.Matcher m = CLIENT_ID.matcher(c.logText());
            if (m.find()) {
                byProcess.put(m.group(1), c.name());
            }
        }
        Map<String, Set<Integer>> out = new HashMap<>();
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, devstack.kafkaBootstrapServers());
        try (Admin admin = Admin.create(p)) {
            if (GROUP_PROTOCOL.equals("streams")) {
                return streamsGroupPartitions(admin, byProcess);
            }
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(GROUP)).all().get(10, TimeUnit.SECONDS)
                    .get(GROUP);
            if (d.groupState() != org.apache.kafka.common.GroupState.STABLE) {
                return Map.of();
            }
            for (MemberDescription m : d.members()) {
                String name = byProcess.entrySet().stream().filter(e -> m.clientId().contains(e.getKey()))
                        .map(Map.Entry::getValue).findFirst().orElse(m.clientId());
                for (TopicPartition tp : m.assignment().topicPartitions()) {
                    if (tp.topic().equals(ScriptedSwitches.TOPIC)) {
                        out.computeIfAbsent(name, k -> new TreeSet<>()).add(tp.partition());
                    }
                }
            }
        } catch (Exception notYet) {
            return Map.of();
        }
        return out;
    }

    /**
     * Stamps weft.links.load records with the broker's append time, so that the gaps
     * measured are when loads were there to read, not when this test's consumer got to them.
     */
    private static void appendTimestamps(DevstackEndpoints devstack) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, devstack.kafkaBootstrapServers());
        try (Admin admin = Admin.create(p)) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, "weft.links.load"),
                    List.of(new AlterConfigOp(new ConfigEntry("message.timestamp.type", "LogAppendTime"),
                            AlterConfigOp.OpType.SET)))).all().get(10, TimeUnit.SECONDS);
        }
    }

    /** The streams group's session and heartbeat (group configs; the broker's defaults otherwise). */
    private static void streamsGroupSession(DevstackEndpoints devstack) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, devstack.kafkaBootstrapServers());
        try (Admin admin = Admin.create(p)) {
            ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, GROUP);
            admin.incrementalAlterConfigs(Map.of(group, List.of(
                    new AlterConfigOp(new ConfigEntry("streams.session.timeout.ms", Long.toString(SESSION_TIMEOUT_MS)),
                            AlterConfigOp.OpType.SET),
                    new AlterConfigOp(new ConfigEntry("streams.heartbeat.interval.ms",
                            Long.toString(Math.max(100, SESSION_TIMEOUT_MS / 4))), AlterConfigOp.OpType.SET))))
                    .all().get(10, TimeUnit.SECONDS);
        }
    }

    /** {@link #interfacePartitions} for a group on the streams rebalance protocol. */
    private static Map<String, Set<Integer>> streamsGroupPartitions(Admin admin, Map<String, String> byProcess)
            throws Exception {
        StreamsGroupDescription d = admin.describeStreamsGroups(List.of(GROUP)).all().get(10, TimeUnit.SECONDS)
                .get(GROUP);
        if (d.groupState() != org.apache.kafka.common.GroupState.STABLE) {
            return Map.of();
        }
        Set<String> interfaceSubtopologies = new TreeSet<>();
        d.subtopologies().stream().filter(t -> t.sourceTopics().contains(ScriptedSwitches.TOPIC))
                .forEach(t -> interfaceSubtopologies.add(t.subtopologyId()));
        Map<String, Set<Integer>> out = new HashMap<>();
        for (StreamsGroupMemberDescription m : d.members()) {
            String name = byProcess.getOrDefault(m.processId(), m.processId());
            for (StreamsGroupMemberAssignment.TaskIds t : m.assignment().activeTasks()) {
                if (interfaceSubtopologies.contains(t.subtopologyId())) {
                    out.computeIfAbsent(name, k -> new TreeSet<>()).addAll(t.partitions());
                }
            }
        }
        return out;
    }

    /** The collectors' recorded events of one kind on a link since {@code from} (shared history). */
    private static List<JsonNode> hotspots(int port, String linkId, String kind, String from) {
        Http.Reply r = Http.get(port, "/v1/hotspots?linkId=" + linkId + "&kind=" + kind + "&from=" + from, null);
        List<JsonNode> out = new ArrayList<>();
        if (r.status() == 200) {
            r.body().path("events").forEach(out::add);
        }
        return out;
    }

    /** Arrival times of every weft.links.load record (per key) and weft.hotspots event ("hotspot " + link id). */
    private static final class Observer implements AutoCloseable {
        private final Map<String, ConcurrentLinkedQueue<Long>> arrivals = new ConcurrentHashMap<>();
        private final KafkaConsumer<String, String> consumer;
        private final Thread thread;
        private volatile boolean running = true;

        Observer(DevstackEndpoints devstack) {
            Properties p = new Properties();
            p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, devstack.kafkaBootstrapServers());
            consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
            List<TopicPartition> parts = new ArrayList<>();
            for (String topic : List.of("weft.links.load", "weft.hotspots")) {
                consumer.partitionsFor(topic, Duration.ofSeconds(30))
                        .forEach(i -> parts.add(new TopicPartition(i.topic(), i.partition())));
            }
            consumer.assign(parts);
            consumer.seekToEnd(parts);
            parts.forEach(consumer::position);
            thread = new Thread(this::run, "links-load-observer");
            thread.setDaemon(true);
            thread.start();
        }

        private void run() {
            while (running) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                    String key = r.topic().equals("weft.hotspots") ? "hotspot " + r.key() : r.key();
                    // The broker's append time (appendTimestamps): when the load was there for every reader,
                    // whatever this consumer's own lag on a loaded machine.
                    arrivals.computeIfAbsent(key, k -> new ConcurrentLinkedQueue<>()).add(r.timestamp());
                }
            }
            consumer.close(Duration.ofSeconds(2));
        }

        long loads(String key) {
            ConcurrentLinkedQueue<Long> q = arrivals.get(key);
            return q == null ? 0 : q.size();
        }

        /**
         * The longest time between two consecutive loads of {@code key} (broker append times) from
         * the last one before {@code epochMs} on.
         */
        long maxGapMs(String key, long epochMs) {
            List<Long> times = new ArrayList<>(arrivals.getOrDefault(key, new ConcurrentLinkedQueue<>()));
            times.sort(null);
            long max = -1;
            for (int i = 1; i < times.size(); i++) {
                if (times.get(i) > epochMs) {
                    max = Math.max(max, times.get(i) - times.get(i - 1));
                }
            }
            return max;
        }

        /**
         * Where the longest gap of {@link #maxGapMs} ends, in ms after {@code epochMs}: the outage the kill
         * caused (the gap's start may precede the kill by up to one interval; records the victim had
         * already sent can still be appended just after it).
         */
        long maxGapEndMs(String key, long epochMs) {
            List<Long> times = new ArrayList<>(arrivals.getOrDefault(key, new ConcurrentLinkedQueue<>()));
            times.sort(null);
            long max = -1;
            long end = -1;
            for (int i = 1; i < times.size(); i++) {
                if (times.get(i) > epochMs && times.get(i) - times.get(i - 1) > max) {
                    max = times.get(i) - times.get(i - 1);
                    end = times.get(i) - epochMs;
                }
            }
            return end;
        }

        @Override
        public void close() {
            running = false;
            try {
                thread.join(3000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
