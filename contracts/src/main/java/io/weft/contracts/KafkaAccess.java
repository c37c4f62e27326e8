package io.weft.contracts;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Who may do what on Weft's Kafka, derived from contracts/topics.json alone: its {@code principals}
 * (one Kafka user per service) and each topic's {@code writers} and {@code readers}. Every secure
 * deployment's ACLs come from here (the devstack's broker, deploy/k8s/gen-kafka-users.py), so the
 * catalogue stays the one place that says who owns a topic.
 *
 * <p>The grants, per principal: WRITE on each topic it writes, READ on each it reads (both imply
 * DESCRIBE), READ on the consumer groups starting with its {@code groupPrefix}, and ALL on the topics
 * starting with its {@code internalTopicPrefix} (Kafka Streams creates and uses those). Nothing else:
 * a principal not named on a topic cannot touch it.
 */
public final class KafkaAccess {
    /** The Kafka resource a grant is on. */
    public enum Resource { TOPIC, GROUP }

    /** The Kafka operation a grant allows (READ and WRITE imply DESCRIBE). */
    public enum Operation { READ, WRITE, ALL }

    /** One ACL: principal may do operation on the resource named (or on every name starting so). */
    public static final class Grant {
        private final String principal;
        private final Resource resource;
        private final String name;
        private final boolean prefixed;
        private final Operation operation;

        Grant(String principal, Resource resource, String name, boolean prefixed, Operation operation) {
            this.principal = principal;
            this.resource = resource;
            this.name = name;
            this.prefixed = prefixed;
            this.operation = operation;
        }

        /** The Kafka user name (the ACL principal is {@code User:<name>}). */
        public String principal() {
            return principal;
        }

        public Resource resource() {
            return resource;
        }

        public String name() {
            return name;
        }

        /** True: every resource whose name starts with {@link #name()}; false: that name only. */
        public boolean prefixed() {
            return prefixed;
        }

        public Operation operation() {
            return operation;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Grant)) {
                return false;
            }
            Grant g = (Grant) o;
            return principal.equals(g.principal) && resource == g.resource && name.equals(g.name)
                    && prefixed == g.prefixed && operation == g.operation;
        }

        @Override
        public int hashCode() {
            return Objects.hash(principal, resource, name, prefixed, operation);
        }

        @Override
        public String toString() {
            return principal + " " + operation + " " + resource + " " + name + (prefixed ? "*" : "");
        }
    }

    private final List<String> principals;
    private final List<Grant> grants;

    private KafkaAccess(List<String> principals, List<Grant> grants) {
        this.principals = Collections.unmodifiableList(principals);
        this.grants = Collections.unmodifiableList(grants);
    }

    /** The access declared by the catalogue this jar carries (contracts/topics.json). */
    public static KafkaAccess catalogue() {
        try (InputStream in = Contracts.open("topics.json")) {
            return of(Strict.MAPPER.readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException("contracts/topics.json: " + e.getMessage(), e);
        }
    }

    /** Reads a catalogue's {@code principals}, {@code writers} and {@code readers}; other fields are ignored. */
    public static KafkaAccess of(JsonNode catalogue) {
        Set<String> names = new LinkedHashSet<>();
        List<Grant> grants = new ArrayList<>();
        JsonNode principals = catalogue.path("principals");
        if (!principals.isArray() || principals.isEmpty()) {
            throw new ContractException("principals", "must be a non-empty array");
        }
        for (int i = 0; i < principals.size(); i++) {
            JsonNode p = principals.get(i);
            String at = "principals[" + i + "]";
            String name = text(p, "principal", at);
            if (!names.add(name)) {
                throw new ContractException(at + ".principal", "\"" + name + "\" is declared twice");
            }
            if (p.has("groupPrefix")) {
                grants.add(new Grant(name, Resource.GROUP, text(p, "groupPrefix", at), true, Operation.READ));
            }
            if (p.has("internalTopicPrefix")) {
                grants.add(new Grant(name, Resource.TOPIC, text(p, "internalTopicPrefix", at), true, Operation.ALL));
            }
        }
        JsonNode topics = catalogue.path("topics");
        for (int i = 0; i < topics.size(); i++) {
            JsonNode t = topics.get(i);
            String at = "topics[" + i + "]";
            String topic = text(t, "name", at);
            addAll(grants, names, t, "writers", at, topic, Operation.WRITE);
            addAll(grants, names, t, "readers", at, topic, Operation.READ);
        }
        return new KafkaAccess(new ArrayList<>(names), grants);
    }

    /** Every declared principal, in the catalogue's order. */
    public List<String> principals() {
        return principals;
    }

    /** Every grant of every principal. */
    public List<Grant> grants() {
        return grants;
    }

    /** The grants of one principal (empty for one the catalogue does not declare). */
    public List<Grant> grantsOf(String principal) {
        List<Grant> of = new ArrayList<>();
        for (Grant g : grants) {
            if (g.principal().equals(principal)) {
                of.add(g);
            }
        }
        return of;
    }

    private static void addAll(List<Grant> grants, Set<String> declared, JsonNode topic, String field, String at,
                               String name, Operation op) {
        JsonNode list = topic.path(field);
        if (!list.isArray()) {
            throw new ContractException(at + "." + field, "must be an array of principals");
        }
        for (int j = 0; j < list.size(); j++) {
            String p = list.get(j).asText();
            if (!declared.contains(p)) {
                throw new ContractException(at + "." + field + "[" + j + "]",
                        "\"" + p + "\" is not one of the declared principals " + declared);
            }
            grants.add(new Grant(p, Resource.TOPIC, name, false, op));
        }
    }

    private static String text(JsonNode node, String field, String at) {
        JsonNode v = node.path(field);
        if (!v.isTextual() || v.asText().isEmpty()) {
            throw new ContractException(at + "." + field, "must be a non-empty string");
        }
        return v.asText();
    }
}
