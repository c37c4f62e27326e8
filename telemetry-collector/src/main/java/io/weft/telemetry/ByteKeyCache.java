package io.weft.telemetry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A bounded map from byte slices to values, looked up without building a key object: the parser
 * meets the same few gNMI path keys and the same switch and interface names in every record, and
 * turning their bytes into Strings only to find them in a HashMap was most of its cost.
 *
 * <p>Open addressing, linear probing, never shrinks; once {@code maxEntries} are in, puts are ignored
 * (keys come from the network: the bound keeps a flood of new names from growing it). Thread-safe
 * without locks: entries are immutable and published through their final fields, so a reader sees a
 * whole entry or none; two writers racing for one slot can lose an entry, which only costs a later
 * miss. Probing is bounded, so even a table filled past the bound by races cannot loop forever.
 */
final class ByteKeyCache<V> {
    private static final class Entry<V> {
        final byte[] key;
        final int hash;
        final V value;

        Entry(byte[] key, int hash, V value) {
            this.key = key;
            this.hash = hash;
            this.value = value;
        }
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final Entry<V>[] table;
    private final int mask;
    private final int maxEntries;
    private int size; // approximate under races; only bounds the puts

    @SuppressWarnings("unchecked")
    ByteKeyCache(int maxEntries) {
        if (maxEntries < 1 || maxEntries > 1 << 24) {
            throw new IllegalArgumentException("maxEntries: must be 1..2^24 (got " + maxEntries + ")");
        }
        int capacity = Integer.highestOneBit(maxEntries * 2 - 1) << 1; // a power of two, load factor <= 1/2
        this.table = (Entry<V>[]) new Entry<?>[capacity];
        this.mask = capacity - 1;
        this.maxEntries = maxEntries;
    }

    /**
     * The hash {@link #get} and {@link #put} expect, in constant time: the length and the first and last
     * eight bytes (gNMI paths share long prefixes and differ near their end). Keys that collide only
     * cost a comparison; equality is always checked on every byte.
     */
    static int hash(byte[] b, int from, int to) {
        int n = to - from;
        if (n < 8) {
            int h = n;
            for (int i = from; i < to; i++) {
                h = 31 * h + b[i];
            }
            return h;
        }
        long first = (long) LONGS.get(b, from);
        long last = (long) LONGS.get(b, to - 8);
        long h = (first * 0x9E3779B97F4A7C15L) ^ Long.rotateLeft(last * 0xC2B2AE3D27D4EB4FL, 31) ^ n;
        return (int) (h ^ (h >>> 32));
    }

    /** The value of bytes [from, to) of {@code b}, whose {@link #hash} is {@code hash}; null when absent. */
    V get(byte[] b, int from, int to, int hash) {
        Entry<V>[] t = table;
        int i = spread(hash) & mask;
        for (int probes = 0; probes <= mask; probes++) {
            Entry<V> e = t[i];
            if (e == null) {
                return null;
            }
            if (e.hash == hash && Arrays.equals(e.key, 0, e.key.length, b, from, to)) {
                return e.value;
            }
            i = (i + 1) & mask;
        }
        return null;
    }

    /** Remembers the value of bytes [from, to), unless the cache is full or has the key already. */
    void put(byte[] b, int from, int to, int hash, V value) {
        if (size >= maxEntries) {
            return;
        }
        Entry<V>[] t = table;
        int i = spread(hash) & mask;
        for (int probes = 0; probes <= mask; probes++) {
            Entry<V> e = t[i];
            if (e == null) {
                t[i] = new Entry<>(Arrays.copyOfRange(b, from, to), hash, value);
                size++;
                return;
            }
            if (e.hash == hash && Arrays.equals(e.key, 0, e.key.length, b, from, to)) {
                return;
            }
            i = (i + 1) & mask;
        }
    }

    int size() {
        return size;
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }
}
