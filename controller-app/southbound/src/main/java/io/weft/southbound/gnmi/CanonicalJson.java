package io.weft.southbound.gnmi;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Compact JSON with object members in name order and the OpenConfig keyed lists whose order
 * carries nothing ({@link #KEYED_LISTS}) sorted by their keys, and its SHA-256. This form is both
 * what goes on the wire and what is compared. Per the gNMI
 * contract a switch answers Get with its own member order and keyed lists ordered by key; next-hop
 * and protocol lists keep their order (the next-hop index is the EV member, protocols are matched
 * in order). Two values that differ only in those orders get the same digest, so the provisioner
 * can remember a 44-character digest per op instead of the value: at k=16 the intents are ~160 MB
 * of JSON, far more than the controller's heap should hold as trees.
 *
 * <p>Written by hand rather than through a Jackson generator because the provisioner needs to know
 * where each static route of a network instance sits in the bytes ({@link #routes}): a re-plan
 * then sends the routes that changed as slices of the same bytes, without a second serialisation.
 */
public final class CanonicalJson {
    /** List name to its key leaf, for lists whose element order means nothing. */
    static final Map<String, String> KEYED_LISTS = Map.of(
            "static", "prefix", "address", "ip", "subinterface", "index", "interface", "name",
            "network-instance", "name");
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private CanonicalJson() {
    }

    /** The canonical form: what Weft sends and what it compares. */
    public static byte[] bytes(JsonNode value) {
        Writer w = new Writer(false);
        w.write(value, null, null, null);
        return w.toBytes();
    }

    /**
     * The canonical form and, for a network instance, where each static route sits in it (keyed by
     * protocol identifier, protocol name and prefix) with its {@link #hash64}, and the digest of
     * everything but the routes. Null routes when the value holds no protocol with static routes.
     */
    static Canonical canonical(JsonNode value) {
        Writer w = new Writer(true);
        w.write(value, null, null, null);
        byte[] bytes = w.toBytes();
        return new Canonical(bytes, w.routes(bytes));
    }

    /** Bytes with their routes; {@code routes} is null when there are none to track. */
    static final class Canonical {
        final byte[] bytes;
        final RouteIndex routes;

        Canonical(byte[] bytes, RouteIndex routes) {
            this.bytes = bytes;
            this.routes = routes;
        }
    }

    /** SHA-256 (base64) of bytes as they are; equals {@link #digest(JsonNode)} when they are in canonical form. */
    public static String digest(byte[] canonical) {
        return digest(canonical, 0, canonical.length);
    }

    static String digest(byte[] b, int off, int len) {
        MessageDigest md = sha256();
        md.update(b, off, len);
        return Base64.getEncoder().encodeToString(md.digest());
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    public static String digest(JsonNode value) {
        return digest(bytes(value));
    }

    /**
     * A 64-bit hash of a byte range (FNV-style over 8-byte words, then MurmurHash3's finaliser). It
     * tells one static route's old value from its new one: hundreds of thousands of small values
     * per fabric, where a SHA-256 each would cost more than the routes themselves. A collision
     * between a route's old and new value (odds 2^-64 per change) would leave that route stale
     * until the next full read-back (the periodic resync compares SHA-256 of whole instances).
     */
    static long hash64(byte[] b, int off, int len) {
        long h = 0xcbf29ce484222325L ^ len;
        int i = off;
        int end = off + len;
        for (; i + 8 <= end; i += 8) {
            h ^= (long) LONGS.get(b, i);
            h *= 0x100000001b3L;
            h ^= h >>> 29;
        }
        for (; i < end; i++) {
            h ^= b[i] & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb34fe1a85ec5L;
        h ^= h >>> 33;
        return h;
    }

    private static final java.lang.invoke.VarHandle LONGS =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /** Appends canonical JSON to a growing buffer, noting static route ranges when asked to. */
    private static final class Writer {
        private final boolean track;
        private byte[] buf = new byte[4096];
        private int len;
        private final List<String> ids = new ArrayList<>();
        private final List<int[]> ranges = new ArrayList<>();
        private final List<int[]> lists = new ArrayList<>(); // inner bounds of each tracked static list

        Writer(boolean track) {
            this.track = track;
        }

        byte[] toBytes() {
            return Arrays.copyOf(buf, len);
        }

        RouteIndex routes(byte[] bytes) {
            if (lists.isEmpty()) {
                return null;
            }
            // The shell: every byte outside the routes' lists, so adding or removing a route (and its comma)
            // changes the routes, not the shell.
            long shell = 0;
            int from = 0;
            for (int[] l : lists) {
                shell = 31 * shell + hash64(bytes, from, l[0] - from);
                from = l[1];
            }
            shell = 31 * shell + hash64(bytes, from, bytes.length - from);
            int n = ids.size();
            String[] idArr = new String[n];
            long[] hashes = new long[n];
            int[] starts = new int[n];
            int[] ends = new int[n];
            for (int i = 0; i < n; i++) {
                idArr[i] = ids.get(i);
                int[] r = ranges.get(i);
                starts[i] = r[0];
                ends[i] = r[1];
                hashes[i] = hash64(bytes, r[0], r[1] - r[0]);
            }
            return new RouteIndex(shell, idArr, hashes, starts, ends);
        }

        /**
         * @param name     the member name this value sits under (decides keyed-list sorting)
         * @param protoId  the identifier of the enclosing protocol entry, when inside one
         * @param protoName its name
         */
        void write(JsonNode n, String name, String protoId, String protoName) {
            if (n.isObject()) {
                // Entries sorted by name; objects here are small, so an insertion sort of the entries beats
                // collecting names and looking each value up again.
                int size = n.size();
                @SuppressWarnings("unchecked")
                Map.Entry<String, JsonNode>[] fields = new Map.Entry[size];
                int k = 0;
                for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    int j = k++;
                    while (j > 0 && fields[j - 1].getKey().compareTo(e.getKey()) > 0) {
                        fields[j] = fields[j - 1];
                        j--;
                    }
                    fields[j] = e;
                }
                put((byte) '{');
                for (int i = 0; i < size; i++) {
                    if (i > 0) {
                        put((byte) ',');
                    }
                    string(fields[i].getKey());
                    put((byte) ':');
                    write(fields[i].getValue(), fields[i].getKey(), protoId, protoName);
                }
                put((byte) '}');
            } else if (n.isArray()) {
                List<JsonNode> elems = new ArrayList<>(n.size());
                n.forEach(elems::add);
                String key = name != null ? KEYED_LISTS.get(name) : null;
                if (key != null) {
                    elems.sort(Comparator.comparing(e -> e.path(key).asText("")));
                }
                boolean routes = track && "static".equals(name) && protoName != null;
                boolean protocols = "protocol".equals(name);
                put((byte) '[');
                int inner = len;
                for (int i = 0; i < elems.size(); i++) {
                    if (i > 0) {
                        put((byte) ',');
                    }
                    JsonNode e = elems.get(i);
                    int start = len;
                    if (protocols && e.isObject()) {
                        write(e, null, e.path("identifier").asText(""), e.path("name").asText(""));
                    } else {
                        write(e, null, protoId, protoName);
                    }
                    if (routes) {
                        ids.add(RouteIndex.id(protoId, protoName, e.path("prefix").asText("")));
                        ranges.add(new int[] {start, len});
                    }
                }
                if (routes) {
                    lists.add(new int[] {inner, len});
                }
                put((byte) ']');
            } else if (n.isTextual()) {
                string(n.textValue());
            } else if (n.isBoolean()) {
                ascii(n.booleanValue() ? "true" : "false");
            } else if (n.isNull()) {
                ascii("null");
            } else if (n.isIntegralNumber()) {
                ascii(n.bigIntegerValue().toString());
            } else if (n.isNumber()) {
                ascii(n.decimalValue().stripTrailingZeros().toPlainString());
            } else {
                string(n.asText());
            }
        }

        private void string(String s) {
            int n = s.length();
            ensure(n + 2);
            buf[len++] = '"';
            int i = 0;
            // Plain ASCII (names, addresses, numbers as text): copied straight.
            for (; i < n; i++) {
                char c = s.charAt(i);
                if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') {
                    break;
                }
                buf[len++] = (byte) c;
            }
            for (; i < n; i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\\') {
                    put((byte) '\\');
                    put((byte) c);
                } else if (c < 0x20) {
                    switch (c) {
                        case '\n':
                            ascii("\\n");
                            break;
                        case '\t':
                            ascii("\\t");
                            break;
                        case '\r':
                            ascii("\\r");
                            break;
                        case '\b':
                            ascii("\\b");
                            break;
                        case '\f':
                            ascii("\\f");
                            break;
                        default:
                            ascii("\\u00");
                            put(HEX[c >> 4]);
                            put(HEX[c & 0xf]);
                    }
                } else if (c < 0x80) {
                    put((byte) c);
                } else {
                    // Non-ASCII as UTF-8 (surrogate pairs kept together).
                    int end = i + 1;
                    if (Character.isHighSurrogate(c) && end < s.length()) {
                        end++;
                    }
                    for (byte b : s.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
                        put(b);
                    }
                    i = end - 1;
                }
            }
            put((byte) '"');
        }

        private void ascii(String s) {
            for (int i = 0; i < s.length(); i++) {
                put((byte) s.charAt(i));
            }
        }

        private void put(byte b) {
            if (len == buf.length) {
                ensure(1);
            }
            buf[len++] = b;
        }

        private void ensure(int more) {
            if (len + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
            }
        }
    }
}
