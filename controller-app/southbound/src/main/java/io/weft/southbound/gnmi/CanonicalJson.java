package io.weft.southbound.gnmi;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * Compact JSON with object members in name order and the OpenConfig keyed lists whose order
 * carries nothing ({@link #KEYED_LISTS}) sorted by their keys, and its SHA-256. This form is both
 * what goes on the wire and what is compared. Per the gNMI
 * contract a switch answers Get with its own member order and keyed lists ordered by key; next-hop
 * and protocol lists keep their order (the next-hop index is the EV member, protocols are matched
 * in order). Two values that differ only in those orders get the same digest, so the provisioner
 * can remember a 44-character digest per op instead of the value: at k=16 the intents are ~160 MB
 * of JSON, far more than the controller's heap should hold as trees.
 */
public final class CanonicalJson {
    private static final JsonFactory FACTORY = new JsonFactory();
    /** List name to its key leaf, for lists whose element order means nothing. */
    static final java.util.Map<String, String> KEYED_LISTS = java.util.Map.of(
            "static", "prefix", "address", "ip", "subinterface", "index", "interface", "name",
            "network-instance", "name");

    private CanonicalJson() {
    }

    /** The canonical form: what Weft sends and what it compares. */
    public static byte[] bytes(JsonNode value) {
        return serialize(value, true);
    }

    private static byte[] serialize(JsonNode value, boolean sortKeyedLists) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            write(g, value, null, sortKeyedLists);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** SHA-256 (base64) of bytes as they are; equals {@link #digest(JsonNode)} when they are in canonical form. */
    public static String digest(byte[] canonical) {
        try {
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(canonical));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    public static String digest(JsonNode value) {
        return digest(bytes(value));
    }

    private static void write(JsonGenerator g, JsonNode n, String name, boolean sortKeyedLists) throws IOException {
        if (n.isObject()) {
            List<String> names = new ArrayList<>(n.size());
            for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
                names.add(it.next());
            }
            Collections.sort(names);
            g.writeStartObject();
            for (String field : names) {
                g.writeFieldName(field);
                write(g, n.get(field), field, sortKeyedLists);
            }
            g.writeEndObject();
        } else if (n.isArray()) {
            List<JsonNode> elems = new ArrayList<>(n.size());
            n.forEach(elems::add);
            String key = sortKeyedLists && name != null ? KEYED_LISTS.get(name) : null;
            if (key != null) {
                elems.sort(java.util.Comparator.comparing(e -> e.path(key).asText("")));
            }
            g.writeStartArray();
            for (JsonNode e : elems) {
                write(g, e, null, sortKeyedLists);
            }
            g.writeEndArray();
        } else if (n.isTextual()) {
            g.writeString(n.textValue());
        } else if (n.isBoolean()) {
            g.writeBoolean(n.booleanValue());
        } else if (n.isNull()) {
            g.writeNull();
        } else if (n.isIntegralNumber()) {
            g.writeNumber(n.bigIntegerValue());
        } else if (n.isNumber()) {
            g.writeNumber(n.decimalValue().stripTrailingZeros().toPlainString());
        } else {
            g.writeString(n.asText());
        }
    }
}
