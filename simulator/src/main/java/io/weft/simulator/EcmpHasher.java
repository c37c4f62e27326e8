package io.weft.simulator;

import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * The ECMP member choice of a switch: CRC-32 over a per-switch seed and the packet's five-tuple,
 * modulo the number of next hops, as switch ASICs do (they hash with CRC variants and let the
 * operator seed each switch; the same seed everywhere makes consecutive tiers choose alike, which
 * is why seeds differ per switch by default). Deterministic: the same seeds and tuple always
 * give the same member.
 */
public final class EcmpHasher {
    private final long fabricSeed;
    private final Map<String, Integer> overrides = new HashMap<>();

    /** Every switch gets a seed derived from {@code fabricSeed} and its id. */
    public EcmpHasher(long fabricSeed) {
        this.fabricSeed = fabricSeed;
    }

    /** Pins one switch's seed (e.g. to reproduce a device's configured hash seed). */
    public EcmpHasher withSeed(String switchId, int seed) {
        overrides.put(switchId, seed);
        return this;
    }

    /** The seed of a switch: its override, else a SplitMix64 mix of the fabric seed and the id. */
    public int seed(String switchId) {
        Integer o = overrides.get(switchId);
        if (o != null) {
            return o;
        }
        long z = fabricSeed + 0x9E3779B97F4A7C15L * (switchId.hashCode() + 1L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return (int) (z ^ (z >>> 31));
    }

    /** The member (0 .. members-1) a switch with this seed picks for the tuple's bytes. */
    public static int pick(int seed, byte[] tupleBytes, int members) {
        if (members <= 0) {
            throw new IllegalArgumentException("members: " + members + " (need at least one next hop)");
        }
        CRC32 crc = new CRC32();
        crc.update(seed >>> 24);
        crc.update(seed >>> 16);
        crc.update(seed >>> 8);
        crc.update(seed);
        crc.update(tupleBytes);
        return (int) (crc.getValue() % members);
    }

    /** {@link #pick(int, byte[], int)} with this switch's seed. */
    public int pick(String switchId, byte[] tupleBytes, int members) {
        return pick(seed(switchId), tupleBytes, members);
    }
}
