package io.weft.telemetry;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The telemetry collector: gnmic events to link loads and hotspots (Kafka Streams, package
 * {@code stream}), their history in PostgreSQL and its REST API (package {@code history}).
 */
@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class TelemetryCollectorApplication {
    public static void main(String[] args) {
        SpringApplication.run(TelemetryCollectorApplication.class, args);
    }
}
