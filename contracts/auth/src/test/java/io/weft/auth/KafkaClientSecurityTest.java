package io.weft.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaClientSecurityTest {
    @TempDir
    Path dir;

    @Test
    void nothingSetIsPlaintextWithNoExtraSettings() {
        KafkaClientSecurity s = KafkaClientSecurity.from(Map.<String, String>of()::get);
        assertThat(s.secure()).isFalse();
        assertThat(s.clientProperties()).isEmpty();
    }

    @Test
    void saslSslLogsInWithScramAndTrustsThePemFile() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "-----BEGIN CERTIFICATE-----\n");
        KafkaClientSecurity s = KafkaClientSecurity.from(Map.of(KafkaClientSecurity.PROTOCOL, "SASL_SSL",
                KafkaClientSecurity.USERNAME, "weft-controller", KafkaClientSecurity.PASSWORD, "pa\"ss\\word",
                KafkaClientSecurity.CA_FILE, ca.toString())::get);
        assertThat(s.clientProperties()).containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("ssl.truststore.type", "PEM")
                .containsEntry("ssl.truststore.location", ca.toString())
                .containsEntry("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\"weft-controller\" password=\"pa\\\"ss\\\\word\";");
        assertThat(s).hasToString("SASL_SSL SCRAM-SHA-512 as weft-controller");
    }

    @Test
    void thePasswordMayComeFromAMountedFile() throws Exception {
        Path secret = Files.writeString(dir.resolve("password"), "s3cret\n");
        KafkaClientSecurity s = KafkaClientSecurity.from(Map.of(KafkaClientSecurity.PROTOCOL, "SASL_SSL",
                KafkaClientSecurity.USERNAME, "weft-gnmic", KafkaClientSecurity.PASSWORD_FILE, secret.toString())::get);
        assertThat(s.clientProperties().get("sasl.jaas.config")).contains("password=\"s3cret\";");
        assertThat(s.toString()).doesNotContain("s3cret");
    }

    @Test
    void missingContradictoryOrUnreadableSettingsAreRefusedByName() {
        assertThatThrownBy(() -> KafkaClientSecurity.from(Map.of(KafkaClientSecurity.PROTOCOL, "SASL_SSL",
                KafkaClientSecurity.PASSWORD, "x")::get)).hasMessageStartingWith("WEFT_KAFKA_USERNAME: required");
        assertThatThrownBy(() -> KafkaClientSecurity.from(Map.of(KafkaClientSecurity.PROTOCOL, "SASL_SSL",
                KafkaClientSecurity.USERNAME, "u")::get)).hasMessageContaining("exactly one of WEFT_KAFKA_PASSWORD");
        assertThatThrownBy(() -> KafkaClientSecurity.from(Map.of(KafkaClientSecurity.USERNAME, "u",
                KafkaClientSecurity.PASSWORD, "x")::get)).hasMessageContaining("never sent over plaintext");
        assertThatThrownBy(() -> KafkaClientSecurity.from(Map.of(KafkaClientSecurity.PROTOCOL, "SASL_PLAINTEXT")::get))
                .hasMessageStartingWith("WEFT_KAFKA_SECURITY_PROTOCOL: \"SASL_PLAINTEXT\"");
        assertThatThrownBy(() -> KafkaClientSecurity.from(Map.of(KafkaClientSecurity.PROTOCOL, "SASL_SSL",
                KafkaClientSecurity.USERNAME, "u",
                KafkaClientSecurity.PASSWORD_FILE, dir.resolve("none").toString())::get))
                .hasMessageStartingWith("WEFT_KAFKA_PASSWORD_FILE: cannot read");
    }
}
