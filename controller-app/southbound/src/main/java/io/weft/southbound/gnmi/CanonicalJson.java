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
 * Compact JSON with object members in name order, and its SHA-256. Two values that differ only in
 * member order (a switch may answer Get in its own order) get the same bytes, so the provisioner can
 * remember a 44-character digest per op instead of the value: at k=16 the intents are ~160 MB of
 * JSON, far more than the controller's heap should hold as trees.
 */
public final class CanonicalJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    private CanonicalJson() {
    }

    public static byte[] bytes(JsonNode value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            write(g, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

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

    private static void write(JsonGenerator g, JsonNode n) throws IOException {
        if (n.isObject()) {
            List<String> names = new ArrayList<>(n.size());
            for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
                names.add(it.next());
            }
            Collections.sort(names);
            g.writeStartObject();
            for (String name : names) {
                g.writeFieldName(name);
                write(g, n.get(name));
            }
            g.writeEndObject();
        } else if (n.isArray()) {
            g.writeStartArray();
            for (JsonNode e : n) {
                write(g, e);
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
