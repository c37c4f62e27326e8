package io.weft.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

/**
 * How every Weft service's Kafka clients log in, from the environment: SASL/SCRAM-SHA-512 over TLS
 * when {@value #PROTOCOL} is {@code SASL_SSL}, plaintext (the embedded demo on loopback) otherwise.
 * The user is the service's principal of contracts/topics.json; the broker's ACLs say what it may do.
 *
 * <ul>
 *   <li>{@value #PROTOCOL}: {@code PLAINTEXT} (default) or {@code SASL_SSL}</li>
 *   <li>{@value #USERNAME}: the SCRAM user (required with SASL_SSL, refused without it)</li>
 *   <li>{@value #PASSWORD} or {@value #PASSWORD_FILE} (a mounted secret; one trailing newline is
 *       dropped): exactly one, with SASL_SSL</li>
 *   <li>{@value #CA_FILE}: PEM certificates to trust for the brokers; default the JVM's trust store</li>
 * </ul>
 *
 * <p>The password reaches Kafka only inside {@code sasl.jaas.config}, a Password-typed setting that
 * Kafka logs as {@code [hidden]}; {@link #toString()} names the user and never the password.
 */
public final class KafkaClientSecurity {
    public static final String PROTOCOL = "WEFT_KAFKA_SECURITY_PROTOCOL";
    public static final String USERNAME = "WEFT_KAFKA_USERNAME";
    public static final String PASSWORD = "WEFT_KAFKA_PASSWORD";
    public static final String PASSWORD_FILE = "WEFT_KAFKA_PASSWORD_FILE";
    public static final String CA_FILE = "WEFT_KAFKA_CA_FILE";
    /** The one SASL mechanism Weft uses (SCRAM: the password never crosses the wire). */
    public static final String MECHANISM = "SCRAM-SHA-512";

    private static final KafkaClientSecurity PLAINTEXT = new KafkaClientSecurity(Collections.emptyMap(), null);

    private final Map<String, String> clientProperties;
    private final String username;

    private KafkaClientSecurity(Map<String, String> clientProperties, String username) {
        this.clientProperties = Collections.unmodifiableMap(clientProperties);
        this.username = username;
    }

    /** No login: plaintext, as on the embedded demo's loopback broker. */
    public static KafkaClientSecurity plaintext() {
        return PLAINTEXT;
    }

    /** From this process's environment. */
    public static KafkaClientSecurity fromEnvironment() {
        return from(System::getenv);
    }

    /**
     * From a lookup of the variables above (null or blank = unset).
     *
     * @throws IllegalArgumentException naming the variable that is missing, contradictory or unreadable
     */
    public static KafkaClientSecurity from(Function<String, String> env) {
        String protocol = value(env, PROTOCOL);
        String user = value(env, USERNAME);
        String password = value(env, PASSWORD);
        String passwordFile = value(env, PASSWORD_FILE);
        String caFile = value(env, CA_FILE);
        if (protocol == null || protocol.equals("PLAINTEXT")) {
            if (user != null || password != null || passwordFile != null) {
                throw new IllegalArgumentException(USERNAME + "/" + PASSWORD + " are set but " + PROTOCOL
                        + " is not SASL_SSL: credentials are never sent over plaintext");
            }
            return PLAINTEXT;
        }
        if (!protocol.equals("SASL_SSL")) {
            throw new IllegalArgumentException(PROTOCOL + ": \"" + protocol + "\" is not PLAINTEXT or SASL_SSL");
        }
        if (user == null) {
            throw new IllegalArgumentException(USERNAME + ": required with " + PROTOCOL + "=SASL_SSL");
        }
        if ((password == null) == (passwordFile == null)) {
            throw new IllegalArgumentException("give exactly one of " + PASSWORD + " and " + PASSWORD_FILE
                    + " with " + PROTOCOL + "=SASL_SSL");
        }
        if (password == null) {
            password = readSecret(passwordFile);
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put("security.protocol", "SASL_SSL");
        p.put("sasl.mechanism", MECHANISM);
        p.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                + jaasQuoted(user) + "\" password=\"" + jaasQuoted(password) + "\";");
        if (caFile != null) {
            if (!Files.isReadable(Path.of(caFile))) {
                throw new IllegalArgumentException(CA_FILE + ": cannot read " + caFile);
            }
            p.put("ssl.truststore.type", "PEM");
            p.put("ssl.truststore.location", caFile);
        }
        return new KafkaClientSecurity(p, user);
    }

    /** True when the clients log in (SASL_SSL). */
    public boolean secure() {
        return username != null;
    }

    /** The Kafka client settings to add to every producer, consumer, admin or Streams configuration. */
    public Map<String, String> clientProperties() {
        return clientProperties;
    }

    /** Adds {@link #clientProperties()} to {@code props}; returns it. */
    public Properties applyTo(Properties props) {
        props.putAll(clientProperties);
        return props;
    }

    /** Safe to log: the protocol and the user, never the password. */
    @Override
    public String toString() {
        return secure() ? "SASL_SSL " + MECHANISM + " as " + username : "PLAINTEXT";
    }

    private static String value(Function<String, String> env, String name) {
        String v = env.apply(name);
        return v == null || v.isBlank() ? null : v;
    }

    private static String readSecret(String file) {
        try {
            String s = Files.readString(Path.of(file), StandardCharsets.UTF_8);
            s = s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
            if (s.isEmpty()) {
                throw new IllegalArgumentException(PASSWORD_FILE + ": " + file + " is empty");
            }
            return s;
        } catch (IOException e) {
            throw new IllegalArgumentException(PASSWORD_FILE + ": cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** JAAS option values are double-quoted; a quote or backslash inside is escaped with a backslash. */
    private static String jaasQuoted(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
