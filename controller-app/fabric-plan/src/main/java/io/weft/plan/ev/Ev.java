package io.weft.plan.ev;

import io.weft.plan.EncodingException;

/**
 * Entropy values: 16 bits carried as the RoCEv2 UDP source port. EV1 (high byte) indexes the
 * first switch's EV table, EV2 (low byte) the second's; a table of n members picks member
 * {@code byte mod n} (identity hash). This encoding is fixed for all languages and tested by
 * contracts/vectors/ev.json.
 */
public final class Ev {
    public static final int MAX_MEMBERS = 256;

    private Ev() {
    }

    /**
     * The EV that makes the first switch pick member {@code i1} of its {@code n1}-member table and
     * the second switch member {@code i2} of {@code n2}. EV1 prefers 0xC0-0xFF so the port lands
     * in RoCEv2's customary source-port range 0xC000-0xFFFF; EV 0 (not a valid port) is never
     * produced.
     */
    public static int encode(int n1, int i1, int n2, int i2) throws EncodingException {
        // Vector order: both table sizes first, then both indices.
        checkSize("n1", n1);
        checkSize("n2", n2);
        checkIndex("i1", i1, n1);
        checkIndex("i2", i2, n2);
        int ev1 = pick(n1, i1, 0xC0, 0xFF);
        if (ev1 < 0) {
            ev1 = pick(n1, i1, 0x01, 0xBF);
        }
        if (ev1 < 0) {
            ev1 = 0;
        }
        int ev2 = i2;
        if (ev1 == 0 && i2 == 0) {
            if (n2 == MAX_MEMBERS) {
                throw new EncodingException("not-encodable",
                        "EV1 = 0 and EV2 = 0 would give source port 0; n2 = 256 leaves no other EV2 for index 0");
            }
            ev2 = n2;
        }
        return ev1 << 8 | ev2;
    }

    /**
     * As {@link #encode}, for a path leaving its source NIC by the NIC's port of rank
     * {@code portRank} (0 = the home port; a multi-plane NIC has one port per plane): EV1 is taken
     * from the rank's own window (0xC0-0xFF, 0x80-0xBF, 0x40-0x7F, 0x01-0x3F for ranks 0-3) where
     * the table allows, so paths to one peer on different planes never share a source port (the
     * NIC's agent sends each source port out one port only). Rank 0 gives {@link #encode}'s value.
     */
    public static int encodeForPort(int n1, int i1, int n2, int i2, int portRank) throws EncodingException {
        int ev = encode(n1, i1, n2, i2);
        if (portRank <= 0 || portRank > 3) {
            return ev;
        }
        int lo = Math.max(1, 0xC0 - 0x40 * portRank);
        int ev1 = pick(n1, i1, lo, 0xFF - 0x40 * portRank);
        return ev1 < 0 ? ev : ev1 << 8 | ev2(ev);
    }

    /** The high byte (first-stage table index before the modulo). */
    public static int ev1(int ev) {
        return ev >>> 8 & 0xFF;
    }

    /** The low byte (second-stage table index before the modulo). */
    public static int ev2(int ev) {
        return ev & 0xFF;
    }

    /** The member a table of {@code n} members picks for this EV byte. */
    public static int index(int evByte, int n) {
        return evByte % n;
    }

    /** The least byte b in [lo, hi] with b mod n = i, or -1 (closed form: every encoded path asks). */
    private static int pick(int n, int i, int lo, int hi) {
        int b = lo + Math.floorMod(i - lo % n, n);
        return b <= hi ? b : -1;
    }

    private static void checkSize(String nName, int n) throws EncodingException {
        if (n < 1 || n > MAX_MEMBERS) {
            throw new EncodingException("table-size", nName + ": " + n + " is not a table size (1..256)");
        }
    }

    private static void checkIndex(String iName, int i, int n) throws EncodingException {
        if (i < 0 || i >= n) {
            throw new EncodingException("index-out-of-range",
                    iName + ": " + i + " is not a member index of a " + n + "-member table");
        }
    }
}
