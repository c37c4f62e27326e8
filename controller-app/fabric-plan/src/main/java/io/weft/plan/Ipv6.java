package io.weft.plan;

import java.nio.charset.StandardCharsets;

/**
 * Minimal IPv6 text handling: parse to eight 16-bit groups and write RFC 5952 canonical text
 * (lowercase, no leading zeros, the longest run of at least two zero groups as "::", the first
 * such run on a tie). No embedded IPv4 and no zone ids: plan addresses never use them.
 */
public final class Ipv6 {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.ISO_8859_1);

    private Ipv6() {
    }

    /** Eight groups of the address, or IllegalArgumentException naming the text. */
    public static int[] parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("empty IPv6 address");
        }
        int[] out = new int[8];
        int dc = text.indexOf("::");
        if (dc >= 0 && text.indexOf("::", dc + 1) >= 0) {
            throw new IllegalArgumentException("\"" + text + "\": more than one \"::\"");
        }
        String head = dc >= 0 ? text.substring(0, dc) : text;
        String tail = dc >= 0 ? text.substring(dc + 2) : "";
        String[] h = head.isEmpty() ? new String[0] : head.split(":", -1);
        String[] t = tail.isEmpty() ? new String[0] : tail.split(":", -1);
        if (dc < 0 && h.length != 8 || dc >= 0 && h.length + t.length > 7) {
            throw new IllegalArgumentException("\"" + text + "\": not an IPv6 address (wrong number of groups)");
        }
        for (int i = 0; i < h.length; i++) {
            out[i] = group(text, h[i]);
        }
        for (int i = 0; i < t.length; i++) {
            out[8 - t.length + i] = group(text, t[i]);
        }
        return out;
    }

    private static int group(String text, String g) {
        if (g.isEmpty() || g.length() > 4) {
            throw new IllegalArgumentException("\"" + text + "\": not an IPv6 address (bad group \"" + g + "\")");
        }
        int v = 0;
        for (int i = 0; i < g.length(); i++) {
            int d = Character.digit(g.charAt(i), 16);
            if (d < 0) {
                throw new IllegalArgumentException("\"" + text + "\": not an IPv6 address (bad group \"" + g + "\")");
            }
            v = v * 16 + d;
        }
        return v;
    }

    /** RFC 5952 canonical text of eight 16-bit groups. */
    public static String format(int[] g) {
        if (g.length != 8) {
            throw new IllegalArgumentException("an IPv6 address has 8 groups, got " + g.length);
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        // Written by hand into one buffer: every encoded path formats its carriers here.
        byte[] out = new byte[39];
        int n = 0;
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out[n++] = ':';
                out[n++] = ':';
                i += bestLen - 1;
                continue;
            }
            if (n > 0 && out[n - 1] != ':') {
                out[n++] = ':';
            }
            int v = g[i] & 0xFFFF;
            for (int shift = v >= 0x1000 ? 12 : v >= 0x100 ? 8 : v >= 0x10 ? 4 : 0; shift >= 0; shift -= 4) {
                out[n++] = HEX[v >> shift & 0xF];
            }
        }
        return new String(out, 0, n, StandardCharsets.ISO_8859_1);
    }

    /** Canonical form of any IPv6 text (throws IllegalArgumentException when it is not one). */
    public static String canonical(String text) {
        return format(parse(text));
    }

    /** Splits "addr/len" into the address groups and the prefix length (0..128). */
    public static int prefixLength(String prefix) {
        int slash = prefix.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("\"" + prefix + "\": missing /length");
        }
        try {
            int len = Integer.parseInt(prefix.substring(slash + 1));
            if (len < 0 || len > 128) {
                throw new IllegalArgumentException("\"" + prefix + "\": prefix length must be 0..128");
            }
            return len;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("\"" + prefix + "\": prefix length is not a number");
        }
    }

    public static int[] prefixAddress(String prefix) {
        int slash = prefix.indexOf('/');
        return parse(slash < 0 ? prefix : prefix.substring(0, slash));
    }

    /** True when {@code address} lies inside {@code prefix} ("fd00:ef7:1::/64"). */
    public static boolean contains(String prefix, String address) {
        int len = prefixLength(prefix);
        int[] p = prefixAddress(prefix);
        int[] a = parse(address);
        for (int bit = 0; bit < len; bit++) {
            int gi = bit / 16;
            int mask = 1 << (15 - bit % 16);
            if ((p[gi] & mask) != (a[gi] & mask)) {
                return false;
            }
        }
        return true;
    }
}
