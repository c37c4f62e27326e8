package io.weft.devstack;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The Kafka topic catalogue ({@code contracts/topics.json}, on the classpath from the weft-contracts jar)
 * and its idempotent creation: missing topics are created, existing ones are left exactly as they are.
 */
public final class KafkaTopicSetup {
    /** Where the weft-contracts jar puts the catalogue. */
    public static final String CATALOGUE_RESOURCE = "/io/weft/contracts/topics.json";

    private static final long ADMIN_TIMEOUT_MS = 30_000;

    private KafkaTopicSetup() {
    }

    /** The catalogue from {@link #CATALOGUE_RESOURCE}; empty when the contracts jar does not carry it yet. */
    public static List<TopicSpec> catalogue() {
        return KafkaTopicSetup.class.getResource(CATALOGUE_RESOURCE) == null ? List.of()
                : fromResource(CATALOGUE_RESOURCE);
    }

    /** Reads a catalogue ({@code {"version":1,"topics":[...]}}) from a classpath resource. */
    public static List<TopicSpec> fromResource(String resource) {
        try (InputStream in = KafkaTopicSetup.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new DevstackException("topic catalogue " + resource + " is not on the classpath");
            }
            return parse(new ObjectMapper().readTree(in), resource);
        } catch (IOException e) {
            throw new DevstackException(resource + ": not valid JSON: " + e.getMessage(), e);
        }
    }

    static List<TopicSpec> parse(JsonNode root, String source) {
        JsonNode topics = root.path("topics");
        if (!topics.isArray()) {
            throw new DevstackException(source + ": $.topics: must be an array");
        }
        List<TopicSpec> specs = new ArrayList<>();
        for (int i = 0; i < topics.size(); i++) {
            JsonNode t = topics.get(i);
            String at = source + ": $.topics[" + i + "]";
            if (!t.path("name").isTextual()) {
                throw new DevstackException(at + ".name: must be a string");
            }
            int partitions = intField(t, "partitions", 1, at);
            int replication = intField(t, "replicationFactor", 1, at);
            Map<String, String> config = new LinkedHashMap<>();
            JsonNode cfg = t.path("config");
            if (!cfg.isMissingNode() && !cfg.isObject()) {
                throw new DevstackException(at + ".config: must be an object");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = cfg.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                    throw new DevstackException(at + ".config." + e.getKey() + ": must be a string or number");
                }
                config.put(e.getKey(), e.getValue().asText());
            }
            try {
                specs.add(new TopicSpec(t.get("name").asText(), partitions, (short) replication, config));
            } catch (IllegalArgumentException e) {
                throw new DevstackException(at + ": " + e.getMessage(), e);
            }
        }
        return List.copyOf(specs);
    }

    /**
     * The controller acknowledges a creation before the broker's metadata has the topic; waiting here
     * means a caller can describe, produce to or consume from the topic as soon as ensure returns.
     */
    private static void awaitVisible(Admin admin, List<String> names) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ADMIN_TIMEOUT_MS);
        while (!names.isEmpty()) {
            try {
                admin.describeTopics(names).allTopicNames().get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                return;
            } catch (ExecutionException | TimeoutException e) {
                if (System.nanoTime() > deadline) {
                    throw new DevstackException("Kafka: created topics " + names + " did not become visible: "
                            + e.getMessage(), e);
                }
                Thread.sleep(100);
            }
        }
    }

    private static int intField(JsonNode t, String field, int dflt, String at) {
        JsonNode v = t.get(field);
        if (v == null) {
            return dflt;
        }
        if (!v.canConvertToInt() || !v.isIntegralNumber()) {
            throw new DevstackException(at + "." + field + ": must be an integer");
        }
        return v.intValue();
    }

    /**
     * Creates every topic of {@code specs} that does not exist yet; returns the names it created.
     * KafkaTopicSetup that already exist (also ones created concurrently by someone else) are not altered.
     */
    public static List<String> ensure(Admin admin, List<TopicSpec> specs) {
        try {
            Set<String> existing = admin.listTopics().names().get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (TopicSpec spec : specs) {
                if (!existing.contains(spec.name())) {
                    missing.add(new NewTopic(spec.name(), spec.partitions(), spec.replicationFactor())
                            .configs(spec.config()));
                }
            }
            List<String> created = new ArrayList<>();
            if (missing.isEmpty()) {
                return created;
            }
            CreateTopicsResult result = admin.createTopics(missing);
            for (NewTopic topic : missing) {
                try {
                    result.values().get(topic.name()).get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                    created.add(topic.name());
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new DevstackException("Kafka: cannot create topic " + topic.name() + ": "
                                + e.getCause().getMessage(), e.getCause());
                    }
                }
            }
            awaitVisible(admin, created);
            return created;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DevstackException("Kafka: interrupted while creating topics");
        } catch (ExecutionException | TimeoutException e) {
            throw new DevstackException("Kafka: cannot list topics: " + e.getMessage(), e);
        }
    }
}
