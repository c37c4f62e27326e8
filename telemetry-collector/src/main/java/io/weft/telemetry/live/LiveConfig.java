package io.weft.telemetry.live;

import java.util.UUID;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class LiveConfig {
    /** One epoch per process: stream positions (Last-Event-ID) of another process are not ours. */
    @Bean
    LiveLoads liveLoads() {
        return new LiveLoads(UUID.randomUUID().toString().substring(0, 8));
    }
}
