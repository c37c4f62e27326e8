package io.weft.telemetry.config;

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
        String k = "weft.telemetry.kafka.";
        assertThat(p.getProperty(k + "fabric-topic")).isEqualTo(Topics.FABRIC);
        assertThat(p.getProperty(k + "interfaces-topic")).isEqualTo(Topics.TELEMETRY_INTERFACES);
        assertThat(p.getProperty(k + "flows-topic")).isEqualTo(Topics.TELEMETRY_FLOWS);
        assertThat(p.getProperty(k + "hotspots-topic")).isEqualTo(Topics.HOTSPOTS);
        assertThat(p.getProperty(k + "links-load-topic")).isEqualTo(Topics.LINKS_LOAD);
        assertThat(p.getProperty(k + "deadletter-topic")).isEqualTo(Topics.TELEMETRY_DEADLETTER);
    }
}
