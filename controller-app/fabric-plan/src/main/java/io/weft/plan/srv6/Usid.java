package io.weft.plan.srv6;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.weft.plan.EncodingException;
import io.weft.plan.Ipv6;

/**
 * uSID carriers (SRv6 compressed SIDs, NEXT-CSID flavour with a 32-bit block and 16-bit uSIDs).
 *
 * <p>A carrier is the 32-bit block followed by up to six uSIDs, the rest zero, in RFC 5952 text.
 * A longer list is split in order into chunks of six: carriers[0] is the packet's destination
 * address, the rest go into the SRH. This is the rule the shared vectors
 * (contracts/vectors/usid-carriers.json) pin for every language.
 */
public final class Usid {
    /** uSIDs per carrier with a 32-bit block and 16-bit uSIDs: (128 - 32) / 16. */
    public static final int PER_CARRIER = 6;
    /** First value of the local-function range (LIB): uDT and uA functions. */
    public static final int LIB_START = 0xE000;

    private Usid() {
    }

    /** The carriers for a uSID list under {@code block} (an IPv6 /32 such as "fcbb:bb00::/32"). */
    public static List<String> carriers(String block, int[] usids) throws EncodingException {
        return carriers(block(block), usids);
    }

    /** As {@link #carriers(String, int[])} with the block's two groups already parsed (hot path). */
    public static List<String> carriers(int[] b, int[] usids) throws EncodingException {
        if (usids == null || usids.length == 0) {
            throw new EncodingException("empty", "usids: at least one uSID is needed");
        }
        for (int i = 0; i < usids.length; i++) {
            if (usids[i] == 0) {
                throw new EncodingException("usid-zero", "usids[" + i + "]: 0 is not a valid uSID");
            }
            if (usids[i] < 0 || usids[i] > 0xFFFF) {
                throw new EncodingException("usid-out-of-range",
                        "usids[" + i + "]: " + usids[i] + " does not fit in 16 bits");
            }
        }
        String[] out = new String[(usids.length + PER_CARRIER - 1) / PER_CARRIER];
        int[] g = new int[8];
        for (int c = 0; c < out.length; c++) {
            Arrays.fill(g, 0);
            g[0] = b[0];
            g[1] = b[1];
            for (int k = 0; k < PER_CARRIER && c * PER_CARRIER + k < usids.length; k++) {
                g[2 + k] = usids[c * PER_CARRIER + k];
            }
            out[c] = Ipv6.format(g);
        }
        // Unmodifiable: PathEncoding and FlowEncoding keep it without another copy.
        return List.of(out);
    }

    /**
     * The uSIDs of one carrier, in order, up to the first zero group (the end-of-carrier marker).
     * The carrier must lie inside {@code block}; uSIDs after a zero group are an error.
     */
    public static int[] parse(String block, String carrier) throws EncodingException {
        return parse(block(block), carrier);
    }

    /** As {@link #parse(String, String)} with the block's two groups already parsed (hot path). */
    public static int[] parse(int[] b, String carrier) throws EncodingException {
        int[] g;
        try {
            g = Ipv6.parse(carrier);
        } catch (IllegalArgumentException e) {
            throw new EncodingException("carrier-not-ipv6", "carrier " + e.getMessage());
        }
        if (g[0] != b[0] || g[1] != b[1]) {
            throw new EncodingException("carrier-outside-block",
                    "carrier \"" + carrier + "\" is not inside block "
                            + Ipv6.format(new int[] {b[0], b[1], 0, 0, 0, 0, 0, 0})
                            + "/32");
        }
        int n = 0;
        while (n < PER_CARRIER && g[2 + n] != 0) {
            n++;
        }
        for (int k = n; k < PER_CARRIER; k++) {
            if (g[2 + k] != 0) {
                throw new EncodingException("carrier-gap",
                        "carrier \"" + carrier + "\": uSID after the end-of-carrier zero");
            }
        }
        int[] out = new int[n];
        System.arraycopy(g, 2, out, 0, n);
        return out;
    }

    /** The whole uSID list of a carrier list (the inverse of {@link #carriers}). */
    public static int[] parse(String block, List<String> carriers) throws EncodingException {
        List<int[]> parts = new ArrayList<>();
        int total = 0;
        for (int i = 0; i < carriers.size(); i++) {
            int[] p = parse(block, carriers.get(i));
            if (p.length == 0) {
                throw new EncodingException("carrier-empty", "carriers[" + i + "]: no uSIDs");
            }
            if (p.length < PER_CARRIER && i < carriers.size() - 1) {
                throw new EncodingException("carrier-short",
                        "carriers[" + i + "]: only the last carrier may hold fewer than " + PER_CARRIER + " uSIDs");
            }
            parts.add(p);
            total += p.length;
        }
        int[] out = new int[total];
        int at = 0;
        for (int[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    /** The two 16-bit groups of a /32 block; other lengths or non-zero host bits are errors. */
    public static int[] block(String block) throws EncodingException {
        if (block == null) {
            throw new EncodingException("block-not-32", "block: required");
        }
        int slash = block.indexOf('/');
        if (slash < 0 || !block.substring(slash + 1).equals("32")) {
            throw new EncodingException("block-not-32", "block \"" + block + "\": must be an IPv6 /32");
        }
        int[] g;
        try {
            g = Ipv6.parse(block.substring(0, slash));
        } catch (IllegalArgumentException e) {
            throw new EncodingException("block-not-32", "block " + e.getMessage());
        }
        for (int i = 2; i < 8; i++) {
            if (g[i] != 0) {
                throw new EncodingException("block-not-32",
                        "block \"" + block + "\": bits after the /32 must be zero");
            }
        }
        return new int[] {g[0], g[1]};
    }

    /** The canonical text of a block ("fcbb:bb00::/32"). */
    public static String canonicalBlock(String block) throws EncodingException {
        int[] b = block(block);
        return Ipv6.format(new int[] {b[0], b[1], 0, 0, 0, 0, 0, 0}) + "/32";
    }

    /** block + uSIDs (then zero) as an address, e.g. a locator or a SID prefix's address part. */
    public static String address(int[] block, int... usids) {
        int[] g = new int[8];
        g[0] = block[0];
        g[1] = block[1];
        System.arraycopy(usids, 0, g, 2, usids.length);
        return Ipv6.format(g);
    }
}
