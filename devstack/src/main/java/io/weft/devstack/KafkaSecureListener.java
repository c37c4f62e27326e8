package io.weft.devstack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import io.weft.contracts.KafkaAccess;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The devstack broker's opt-in secure client listener, as deployments run Kafka: SASL/SCRAM-SHA-512
 * over TLS, one SCRAM user per principal of contracts/topics.json, the ACLs {@link KafkaAccess}
 * derives from it, and StandardAuthorizer refusing everything else.
 *
 * <p>Its material lives in {@code <kafka data dir>/secure/}, made on first use and reused: the broker's
 * self-signed certificate ({@code broker.p12}; {@code ca.pem} is what clients trust) and one password
 * file per principal ({@code credentials/<principal>}, mode 600, random), which services read through
 * {@code WEFT_KAFKA_PASSWORD_FILE}. {@value #ADMIN} is the broker's own super user (inter-broker
 * login, topic and ACL set-up); the KRaft controller listener stays on loopback with SASL/PLAIN and a
 * password made afresh on every start (SCRAM cannot serve it: its users live in the metadata the
 * controller serves).
 */
public final class KafkaSecureListener {
    /** The broker's super user; never a service's login. */
    public static final String ADMIN = "weft-admin";
    private static final int SCRAM_ITERATIONS = 8192;
    private static final String KEYSTORE = "broker.p12";
    private static final String CA_PEM = "ca.pem";

    private final Path dir;
    private final List<String> principals;
    private final String controllerPassword = randomSecret();

    private KafkaSecureListener(Path dir, List<String> principals) {
        this.dir = dir;
        this.principals = principals;
    }

    /**
     * Makes (first start) or finds the listener's material under {@code kafkaDataDir/secure}. A data
     * directory formatted without it is refused: its metadata has no {@value #ADMIN} user to log in as.
     */
    static KafkaSecureListener prepare(Path kafkaDataDir, boolean formatted) {
        Path dir = kafkaDataDir.resolve("secure");
        if (formatted && !Files.isDirectory(dir)) {
            throw new DevstackException("Kafka: " + kafkaDataDir + " was formatted without the secure listener;"
                    + " use another state directory (or delete this one) to run it secure");
        }
        List<String> principals = new ArrayList<>(KafkaAccess.catalogue().principals());
        KafkaSecureListener l = new KafkaSecureListener(dir, principals);
        try {
            Files.createDirectories(dir.resolve("credentials"));
            l.passwordOf(ADMIN);
            for (String p : principals) {
                l.passwordOf(p);
            }
            if (!Files.exists(dir.resolve(KEYSTORE))) {
                l.makeCertificate();
            }
        } catch (IOException e) {
            throw new DevstackException("Kafka: cannot prepare " + dir + ": " + e.getMessage(), e);
        }
        return l;
    }

    /** The PEM file clients trust ({@code WEFT_KAFKA_CA_FILE}). */
    public Path caFile() {
        return dir.resolve(CA_PEM);
    }

    /**
     * The environment every service on this broker shares: the protocol, the CA file, and the folder of
     * password files ({@code WEFT_KAFKA_CREDENTIALS_DIR}: a script gives each service
     * {@code WEFT_KAFKA_USERNAME=<principal>} and {@code WEFT_KAFKA_PASSWORD_FILE=<folder>/<principal>}).
     */
    public Map<String, String> sharedEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("WEFT_KAFKA_SECURITY_PROTOCOL", "SASL_SSL");
        env.put("WEFT_KAFKA_CA_FILE", caFile().toAbsolutePath().toString());
        env.put("WEFT_KAFKA_CREDENTIALS_DIR", dir.resolve("credentials").toAbsolutePath().toString());
        return env;
    }

    /** The password file of a principal of contracts/topics.json ({@code WEFT_KAFKA_PASSWORD_FILE}). */
    public Path passwordFile(String principal) {
        if (!principal.equals(ADMIN) && !principals.contains(principal)) {
            throw new IllegalArgumentException("no Kafka principal " + principal + " in contracts/topics.json: "
                    + principals);
        }
        return dir.resolve("credentials").resolve(principal);
    }

    /** The environment a service logging in as {@code principal} needs (weft-auth's KafkaClientSecurity). */
    public Map<String, String> clientEnv(String principal) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("WEFT_KAFKA_SECURITY_PROTOCOL", "SASL_SSL");
        env.put("WEFT_KAFKA_USERNAME", principal);
        env.put("WEFT_KAFKA_PASSWORD_FILE", passwordFile(principal).toAbsolutePath().toString());
        env.put("WEFT_KAFKA_CA_FILE", caFile().toAbsolutePath().toString());
        return env;
    }

    /** Client settings for {@value #ADMIN} (topic and ACL set-up). */
    Properties adminClientProperties() {
        Properties p = new Properties();
        p.setProperty("security.protocol", "SASL_SSL");
        p.setProperty("sasl.mechanism", "SCRAM-SHA-512");
        p.setProperty("sasl.jaas.config", scramJaas(ADMIN, read(passwordFile(ADMIN))));
        p.setProperty("ssl.truststore.type", "PEM");
        p.setProperty("ssl.truststore.location", caFile().toAbsolutePath().toString());
        return p;
    }

    /** Turns the plaintext single-node properties into the secure listener's. */
    void configure(Properties p, int brokerPort, int controllerPort) {
        p.setProperty("listeners", "SASL_SSL://" + Ports.LOOPBACK + ":" + brokerPort
                + ",CONTROLLER://" + Ports.LOOPBACK + ":" + controllerPort);
        p.setProperty("advertised.listeners", "SASL_SSL://" + Ports.LOOPBACK + ":" + brokerPort);
        p.setProperty("inter.broker.listener.name", "SASL_SSL");
        p.setProperty("listener.security.protocol.map", "SASL_SSL:SASL_SSL,CONTROLLER:SASL_PLAINTEXT");
        p.setProperty("sasl.enabled.mechanisms", "SCRAM-SHA-512");
        p.setProperty("sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512");
        p.setProperty("listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config",
                scramJaas(ADMIN, read(passwordFile(ADMIN))));
        p.setProperty("sasl.mechanism.controller.protocol", "PLAIN");
        p.setProperty("listener.name.controller.sasl.enabled.mechanisms", "PLAIN");
        p.setProperty("listener.name.controller.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + ADMIN
                        + "\" password=\"" + controllerPassword + "\" user_" + ADMIN + "=\"" + controllerPassword
                        + "\";");
        p.setProperty("ssl.keystore.type", "PKCS12");
        p.setProperty("ssl.keystore.location", dir.resolve(KEYSTORE).toAbsolutePath().toString());
        p.setProperty("ssl.keystore.password", read(dir.resolve("keystore.password")));
        // The broker checks its own listener as a client would, and logs in to it between brokers.
        p.setProperty("ssl.truststore.type", "PEM");
        p.setProperty("ssl.truststore.location", caFile().toAbsolutePath().toString());
        p.setProperty("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        p.setProperty("super.users", "User:" + ADMIN);
        p.setProperty("allow.everyone.if.no.acl.found", "false");
    }

    /** {@code kafka-storage format} arguments adding {@value #ADMIN}, so the broker can log in at once. */
    List<String> formatArguments() {
        return List.of("--add-scram", "SCRAM-SHA-512=[name=" + ADMIN + ",password=" + read(passwordFile(ADMIN))
                + ",iterations=" + SCRAM_ITERATIONS + "]");
    }

    /**
     * Upserts every principal's SCRAM credential and adds the catalogue's ACLs (both idempotent), then
     * waits until the broker's authorizer holds them all, so a client starting next is judged by them.
     */
    void apply(Admin admin, long timeoutMs) throws Exception {
        List<UserScramCredentialAlteration> users = new ArrayList<>();
        for (String p : principals) {
            users.add(new UserScramCredentialUpsertion(p,
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, SCRAM_ITERATIONS), read(passwordFile(p))));
        }
        admin.alterUserScramCredentials(users).all().get(timeoutMs, TimeUnit.MILLISECONDS);
        List<AclBinding> acls = acls(KafkaAccess.catalogue());
        admin.createAcls(acls).all().get(timeoutMs, TimeUnit.MILLISECONDS);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (admin.describeAcls(AclBindingFilter.ANY).values().get(timeoutMs, TimeUnit.MILLISECONDS).size()
                < acls.size()) {
            if (System.nanoTime() > deadline) {
                throw new DevstackException("Kafka: the broker did not show its " + acls.size() + " ACLs in time");
            }
            Thread.sleep(50);
        }
    }

    /** The ACL bindings of every grant of contracts/topics.json (allow, from any host). */
    static List<AclBinding> acls(KafkaAccess access) {
        List<AclBinding> acls = new ArrayList<>();
        for (KafkaAccess.Grant g : access.grants()) {
            ResourceType type = g.resource() == KafkaAccess.Resource.TOPIC ? ResourceType.TOPIC : ResourceType.GROUP;
            AclOperation op = AclOperation.valueOf(g.operation().name());
            acls.add(new AclBinding(new ResourcePattern(type, g.name(), g.prefixed() ? PatternType.PREFIXED
                    : PatternType.LITERAL), new AccessControlEntry("User:" + g.principal(), "*", op,
                    AclPermissionType.ALLOW)));
        }
        return acls;
    }

    /** A self-signed certificate for 127.0.0.1 and localhost, by the JDK's keytool; the PEM is the CA file. */
    private void makeCertificate() throws IOException {
        String storePassword = randomSecret();
        Path password = dir.resolve("keystore.password");
        writeSecret(password, storePassword);
        Path store = dir.resolve(KEYSTORE);
        Keytool.run("-genkeypair", "-alias", "kafka", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "3650",
                "-dname", "CN=weft-devstack-kafka", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", storePassword);
        Keytool.run("-exportcert", "-rfc", "-alias", "kafka", "-keystore", store.toString(), "-storepass",
                storePassword, "-file", dir.resolve(CA_PEM).toString());
    }

    /** The principal's password, made (random) on first use. */
    private String passwordOf(String principal) throws IOException {
        Path file = dir.resolve("credentials").resolve(principal);
        if (!Files.exists(file)) {
            writeSecret(file, randomSecret());
        }
        return read(file);
    }

    private static void writeSecret(Path file, String secret) throws IOException {
        Files.writeString(file, secret + "\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new DevstackException("Kafka: cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    // Hex: safe inside JAAS quotes and the format tool's [name=..,password=..] syntax.
    private static String randomSecret() {
        byte[] b = new byte[18];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private static String scramJaas(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
                + "\" password=\"" + password + "\";";
    }
}
