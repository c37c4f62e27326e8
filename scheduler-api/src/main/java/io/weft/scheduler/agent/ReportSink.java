package io.weft.scheduler.agent;

import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.weft.auth.KafkaClientSecurity;
import io.weft.scheduler.config.SchedulerKafkaProperties;
import io.weft.scheduler.web.ApiException;
import jakarta.annotation.PreDestroy;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Forwards agent reports to {@code weft.telemetry.flows}, keyed by NIC id. The agent gets 202 only
 * once the broker acknowledged the record, so a report is never silently dropped here.
 */
@Component
class ReportSink {
    private static final Logger LOG = LoggerFactory.getLogger(ReportSink.class);
    private static final long SEND_TIMEOUT_MS = 5_000;

    private final SchedulerKafkaProperties kafka;
    private final KafkaClientSecurity login;
    private volatile KafkaProducer<String, String> producer;

    ReportSink(SchedulerKafkaProperties kafka, KafkaClientSecurity login) {
        this.kafka = kafka;
        this.login = login;
    }

    void send(String nic, String json) {
        if (!kafka.enabled()) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, null, "Kafka is not configured; reports cannot "
                    + "be forwarded");
        }
        try {
            producer().send(new ProducerRecord<>(kafka.flowsTopic(), nic, json)).get(SEND_TIMEOUT_MS,
                    TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable(e);
        } catch (ExecutionException | TimeoutException e) {
            throw unavailable(e);
        }
    }

    private static ApiException unavailable(Exception e) {
        LOG.warn("flow report not forwarded: {}", e.toString());
        return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, null, "Kafka did not take the report; retry");
    }

    private KafkaProducer<String, String> producer() {
        KafkaProducer<String, String> p = producer;
        if (p == null) {
            synchronized (this) {
                if (producer == null) {
                    Properties props = login.applyTo(new Properties());
                    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
                    props.put(ProducerConfig.CLIENT_ID_CONFIG, kafka.clientId() + "-reports");
                    props.put(ProducerConfig.ACKS_CONFIG, "all");
                    props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
                    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(SEND_TIMEOUT_MS));
                    producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
                }
                p = producer;
            }
        }
        return p;
    }

    @PreDestroy
    void close() {
        KafkaProducer<String, String> p = producer;
        if (p != null) {
            p.close(java.time.Duration.ofSeconds(2));
        }
    }
}
