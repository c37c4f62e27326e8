package io.weft.systemtests;

import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

import io.weft.auth.KafkaClientSecurity;
import io.weft.devstack.KafkaSecureListener;

/**
 * How each process of a system test logs in to Kafka as its principal of contracts/topics.json: not at
 * all on the shared plaintext devstack, with its own SCRAM user over TLS on a secure one.
 */
record KafkaLogins(Function<String, Map<String, String>> envOf) {
    static final KafkaLogins NONE = new KafkaLogins(principal -> Map.of());

    static KafkaLogins of(KafkaSecureListener listener) {
        return new KafkaLogins(listener::clientEnv);
    }

    /** The WEFT_KAFKA_* variables a child service logging in as {@code principal} gets. */
    Map<String, String> env(String principal) {
        return envOf.apply(principal);
    }

    /** Client settings for this JVM's own clients acting as {@code principal} (bootstrap not included). */
    Properties client(String principal) {
        return KafkaClientSecurity.from(env(principal)::get).applyTo(new Properties());
    }
}
