package io.weft.telemetry.stream;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The one {@link TelemetryCounters} of the service, shared by the topology and the status endpoint. */
@Configuration
class CountersConfig {
    @Bean
    TelemetryCounters telemetryCounters() {
        return new TelemetryCounters();
    }
}
