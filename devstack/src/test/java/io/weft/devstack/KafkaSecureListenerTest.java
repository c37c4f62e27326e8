package io.weft.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.weft.auth.KafkaClientSecurity;
import io.weft.contracts.KafkaAccess;
import io.weft.contracts.KafkaAccess.Operation;
import io.weft.contracts.KafkaAccess.Resource;
import io.weft.contracts.Topics;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real broker with the secure listener (SASL/SCRAM-SHA-512 over TLS, StandardAuthorizer, the ACLs of
 * contracts/topics.json), reached the way services reach it: through weft-auth's KafkaClientSecurity
 * from the environment the listener hands out. Every principal tries to write and read every topic; the
 * catalogue's writers and readers are exactly who succeeds. Wrong passwords, missing credentials and an
 * untrusted certificate are refused.
 */
class KafkaSecureListenerTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    private static EmbeddedKafka kafka;
    private static KafkaSecureListener listener;

    @BeforeAll
    static void start() throws Exception {
        kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0, TIMEOUT, true);
        listener = kafka.secureListener().orElseThrow();
        try (Admin admin = Admin.create(kafka.adminClientProperties())) {
            KafkaTopicSetup.ensure(admin, KafkaTopicSetup.catalogue());
        }
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void everyPrincipalWritesAndReadsExactlyWhatTheCatalogueGrants() {
        KafkaAccess access = KafkaAccess.catalogue();
        Map<String, Boolean> expected = new LinkedHashMap<>();
        Map<String, Boolean> actual = new LinkedHashMap<>();
        for (String principal : access.principals()) {
            try (KafkaProducer<String, String> producer = producer(env(principal))) {
                for (String topic : Topics.all()) {
                    String key = principal + " WRITE " + topic;
                    expected.put(key, granted(access, principal, topic, Operation.WRITE));
                    actual.put(key, write(producer, topic, principal));
                }
            }
        }
        for (String principal : access.principals()) {
            try (KafkaConsumer<String, String> consumer = consumer(env(principal), null)) {
                for (String topic : Topics.all()) {
                    String key = principal + " READ " + topic;
                    boolean allowed = granted(access, principal, topic, Operation.READ);
                    expected.put(key, allowed);
                    Boolean sawWrites = read(consumer, topic);
                    actual.put(key, sawWrites != null);
                    if (allowed && sawWrites != null) {
                        // Every topic has a writer, so an allowed reader finds its records.
                        assertThat(sawWrites).as(key + " sees the records written above").isTrue();
                    }
                }
            }
        }
        assertThat(actual).isEqualTo(expected);
        // The catalogue's own statements, spelled out.
        assertThat(actual).containsEntry("weft-telemetry-collector WRITE weft.fabric", false)
                .containsEntry("weft-controller WRITE weft.fabric", true)
                .containsEntry("weft-scheduler-api WRITE weft.telemetry.flows", true)
                .containsEntry("weft-scheduler-api WRITE weft.hotspots", false)
                .containsEntry("weft-scheduler-api READ weft.hotspots", true)
                .containsEntry("weft-gnmic READ weft.fabric", false)
                .containsEntry("weft-telemetry READ weft.fabric", true);
    }

    @Test
    void theCollectorWritingTheFabricGetsAnAuthorizationError() {
        try (KafkaProducer<String, String> producer = producer(env("weft-telemetry-collector"))) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(Topics.FABRIC, "f", "{}")).get(30,
                    TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void consumerGroupsFollowTheGroupPrefixes() {
        try (KafkaConsumer<String, String> own = consumer(env("weft-scheduler-api"), "weft-scheduler-reroute")) {
            own.subscribe(List.of(Topics.HOTSPOTS));
            own.poll(Duration.ofSeconds(5));
            own.commitSync();
        }
        try (KafkaConsumer<String, String> other = consumer(env("weft-scheduler-api"), "weft-telemetry-collector")) {
            other.subscribe(List.of(Topics.HOTSPOTS));
            assertThatThrownBy(() -> other.poll(Duration.ofSeconds(10)))
                    .isInstanceOf(GroupAuthorizationException.class);
        }
    }

    @Test
    void theCollectorCreatesOnlyTopicsUnderItsPrefix() throws Exception {
        Properties p = clientProperties(env("weft-telemetry-collector"));
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(List.of(new NewTopic("weft-telemetry-collector-probe-changelog", 1, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);
            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("weft.elsewhere", 1, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void aWrongPasswordIsRefused() {
        Map<String, String> env = new HashMap<>(env("weft-controller"));
        env.remove("WEFT_KAFKA_PASSWORD_FILE");
        env.put("WEFT_KAFKA_PASSWORD", "not-the-password");
        try (KafkaProducer<String, String> producer = producer(env)) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(Topics.FABRIC, "f", "{}")).get(30,
                    TimeUnit.SECONDS)).hasCauseInstanceOf(SaslAuthenticationException.class);
        }
    }

    @Test
    void anUnknownUserIsRefused() {
        Map<String, String> env = new HashMap<>(env("weft-controller"));
        env.put("WEFT_KAFKA_USERNAME", "weft-nic-agent");
        try (KafkaProducer<String, String> producer = producer(env)) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(Topics.FABRIC, "f", "{}")).get(30,
                    TimeUnit.SECONDS)).hasCauseInstanceOf(SaslAuthenticationException.class);
        }
    }

    @Test
    void aClientWithoutCredentialsGetsNothing() {
        // Plaintext (the demo's default) and TLS without SASL: the listener answers neither with metadata.
        for (String protocol : List.of("PLAINTEXT", "SSL")) {
            Properties p = new Properties();
            p.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            p.setProperty(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, protocol);
            p.setProperty("ssl.truststore.type", "PEM");
            p.setProperty("ssl.truststore.location", listener.caFile().toString());
            p.setProperty(ProducerConfig.MAX_BLOCK_MS_CONFIG, "3000");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
                    new StringSerializer())) {
                assertThatThrownBy(() -> producer.partitionsFor(Topics.FABRIC)).as(protocol)
                        .isInstanceOf(TimeoutException.class);
            }
        }
    }

    @Test
    void aBrokerCertificateFromAnotherCaIsRefused() throws Exception {
        // The certificate of another secure devstack: a client trusting only that one must not connect.
        Path other = dir.resolve("other");
        KafkaSecureListener.prepare(other, false);
        Map<String, String> env = new HashMap<>(env("weft-controller"));
        env.put("WEFT_KAFKA_CA_FILE", other.resolve("secure/ca.pem").toString());
        assertThat(Files.readString(other.resolve("secure/ca.pem"))).isNotEqualTo(Files.readString(listener.caFile()));
        try (KafkaProducer<String, String> producer = producer(env)) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(Topics.FABRIC, "f", "{}")).get(30,
                    TimeUnit.SECONDS)).hasCauseInstanceOf(SslAuthenticationException.class);
        }
    }

    private static Map<String, String> env(String principal) {
        return listener.clientEnv(principal);
    }

    private static boolean granted(KafkaAccess access, String principal, String topic, Operation op) {
        return access.grantsOf(principal).stream().anyMatch(g -> g.resource() == Resource.TOPIC && !g.prefixed()
                && g.name().equals(topic) && g.operation() == op);
    }

    private static boolean write(KafkaProducer<String, String> producer, String topic, String principal) {
        try {
            producer.send(new ProducerRecord<>(topic, principal, "{\"from\":\"" + principal + "\"}"))
                    .get(30, TimeUnit.SECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicAuthorizationException) {
                return false;
            }
            throw new AssertionError(principal + " writing " + topic + ": " + e.getCause(), e);
        } catch (Exception e) {
            throw new AssertionError(principal + " writing " + topic + ": " + e, e);
        }
    }

    /** Null when the read is refused; else whether any record was there. */
    private static Boolean read(KafkaConsumer<String, String> consumer, String topic) {
        List<TopicPartition> parts = new ArrayList<>();
        try {
            consumer.partitionsFor(topic, Duration.ofSeconds(10))
                    .forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (System.nanoTime() < deadline) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(500));
                if (!records.isEmpty()) {
                    return true;
                }
            }
            return false;
        } catch (TopicAuthorizationException e) {
            return null;
        }
    }

    private static Properties clientProperties(Map<String, String> env) {
        Properties p = KafkaClientSecurity.from(env::get).applyTo(new Properties());
        p.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return p;
    }

    private static KafkaProducer<String, String> producer(Map<String, String> env) {
        Properties p = clientProperties(env);
        p.setProperty(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000");
        p.setProperty(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        p.setProperty(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "20000");
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    private static KafkaConsumer<String, String> consumer(Map<String, String> env, String group) {
        Properties p = clientProperties(env);
        if (group != null) {
            p.setProperty(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        p.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }
}
