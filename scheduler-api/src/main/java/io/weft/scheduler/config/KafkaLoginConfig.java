package io.weft.scheduler.config;

import io.weft.auth.KafkaClientSecurity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The Kafka login every client of this service uses (principal {@code weft-scheduler-api} of
 * contracts/topics.json): {@code WEFT_KAFKA_SECURITY_PROTOCOL}, {@code WEFT_KAFKA_USERNAME},
 * {@code WEFT_KAFKA_PASSWORD[_FILE]}, {@code WEFT_KAFKA_CA_FILE} from the environment (or any Spring
 * property source). A wrong combination stops the start, naming the variable.
 */
@Configuration(proxyBeanMethods = false)
class KafkaLoginConfig {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaLoginConfig.class);

    @Bean
    KafkaClientSecurity kafkaClientSecurity(Environment env) {
        KafkaClientSecurity login = KafkaClientSecurity.from(env::getProperty);
        LOG.info("Kafka login: {}", login);
        return login;
    }
}
