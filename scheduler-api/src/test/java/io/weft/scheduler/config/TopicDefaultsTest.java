package io.weft.scheduler.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;

import io.weft.contracts.Topics;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.core.io.ClassPathResource;

/** The topic names application.yml configures by default are the catalogue's (contracts/topics.json). */
class TopicDefaultsTest {
    @Test
    void applicationYmlNamesTheCatalogueTopics() {
        YamlPropertiesFactoryBean yaml = new YamlPropertiesFactoryBean();
        yaml.setResources(new ClassPathResource("application.yml"));
        Properties p = yaml.getObject();
        assertThat(p.getProperty("weft.scheduler.kafka.fabric-topic")).isEqualTo(Topics.FABRIC);
        assertThat(p.getProperty("weft.scheduler.kafka.flows-topic")).isEqualTo(Topics.TELEMETRY_FLOWS);
    }
}
