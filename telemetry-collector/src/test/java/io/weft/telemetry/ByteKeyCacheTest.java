package io.weft.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class ByteKeyCacheTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static <V> V get(ByteKeyCache<V> c, byte[] bytes, int from, int to) {
        return c.get(bytes, from, to, ByteKeyCache.hash(bytes, from, to));
    }

    private static <V> void put(ByteKeyCache<V> c, byte[] bytes, int from, int to, V v) {
        c.put(bytes, from, to, ByteKeyCache.hash(bytes, from, to), v);
    }

    @Test
    void findsASliceByItsBytesWhereverItLies() {
        ByteKeyCache<String> c = new ByteKeyCache<>(8);
        byte[] record = b("xx\"eth1\"yy");
        put(c, record, 3, 7, "eth1");
        assertThat(get(c, b("eth1"), 0, 4)).isEqualTo("eth1");
        assertThat(get(c, b("[eth1]"), 1, 5)).isEqualTo("eth1");
        assertThat(get(c, b("eth10"), 0, 5)).isNull();
        assertThat(get(c, b("eth"), 0, 3)).isNull();
        record[3] = 'X'; // the cache copied the key: changing the record changes nothing
        assertThat(get(c, b("eth1"), 0, 4)).isEqualTo("eth1");
    }

    @Test
    void keysWithTheSameHashStayApart() {
        ByteKeyCache<Integer> c = new ByteKeyCache<>(8);
        // "Aa" and "BB" have the same 31-polynomial hash.
        assertThat(ByteKeyCache.hash(b("Aa"), 0, 2)).isEqualTo(ByteKeyCache.hash(b("BB"), 0, 2));
        put(c, b("Aa"), 0, 2, 1);
        put(c, b("BB"), 0, 2, 2);
        assertThat(get(c, b("Aa"), 0, 2)).isEqualTo(1);
        assertThat(get(c, b("BB"), 0, 2)).isEqualTo(2);
        put(c, b("BB"), 0, 2, 3); // present: kept
        assertThat(get(c, b("BB"), 0, 2)).isEqualTo(2);
        assertThat(c.size()).isEqualTo(2);
    }

    @Test
    void stopsGrowingAtItsBound() {
        ByteKeyCache<Integer> c = new ByteKeyCache<>(3);
        for (int i = 0; i < 100; i++) {
            byte[] k = b("key" + i);
            put(c, k, 0, k.length, i);
        }
        assertThat(c.size()).isEqualTo(3);
        assertThat(get(c, b("key2"), 0, 4)).isEqualTo(2);
        assertThat(get(c, b("key3"), 0, 4)).isNull();
        assertThatThrownBy(() -> new ByteKeyCache<>(0)).hasMessageStartingWith("maxEntries:");
    }
}
