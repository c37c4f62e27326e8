package io.weft.southbound.gnmi;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.github.gnmi.proto.Path;
import com.github.gnmi.proto.PathElem;

/**
 * The static routes inside one network instance's canonical JSON: per route its id (protocol
 * identifier, protocol name, prefix), a 64-bit hash of its bytes and, while the JSON is kept, where
 * it sits in them; plus a hash of the instance without its routes (the "shell": config and
 * the list of protocols). When only routes differ between what a switch confirmed and the new
 * intent, the provisioner replaces and deletes those routes one by one
 * ({@code .../protocols/protocol[identifier][name]/static-routes/static[prefix]}) instead of the
 * whole instance: one link change touches a handful of the hundreds of routes a switch holds.
 */
final class RouteIndex {
    /** Route ids repeat on every switch (the same prefixes everywhere): one copy each. */
    private static final Map<String, String> IDS = new ConcurrentHashMap<>();

    final long shellDigest;
    final String[] ids;
    final long[] hashes;
    private final int[] starts; // null once the JSON is dropped
    private final int[] ends;

    RouteIndex(long shellDigest, String[] ids, long[] hashes, int[] starts, int[] ends) {
        this.shellDigest = shellDigest;
        this.ids = ids;
        this.hashes = hashes;
        this.starts = starts;
        this.ends = ends;
    }

    static String id(String identifier, String protocol, String prefix) {
        String id = identifier + '|' + protocol + '|' + prefix;
        String known = IDS.putIfAbsent(id, id);
        return known == null ? id : known;
    }

    RouteIndex withoutRanges() {
        return starts == null ? this : new RouteIndex(shellDigest, ids, hashes, null, null);
    }

    int size() {
        return ids.length;
    }

    int start(int i) {
        return starts[i];
    }

    int end(int i) {
        return ends[i];
    }

    boolean hasRanges() {
        return starts != null;
    }

    Map<String, Long> byId() {
        Map<String, Long> m = new HashMap<>(ids.length * 2);
        for (int i = 0; i < ids.length; i++) {
            m.put(ids[i], hashes[i]);
        }
        return m;
    }

    /** The gNMI path of one route under the instance's path. */
    static Path path(Path instance, String id) {
        int a = id.indexOf('|');
        int b = id.indexOf('|', a + 1);
        return instance.toBuilder()
                .addElem(PathElem.newBuilder().setName("protocols"))
                .addElem(PathElem.newBuilder().setName("protocol")
                        .putKey("identifier", id.substring(0, a)).putKey("name", id.substring(a + 1, b)))
                .addElem(PathElem.newBuilder().setName("static-routes"))
                .addElem(PathElem.newBuilder().setName("static").putKey("prefix", id.substring(b + 1)))
                .build();
    }
}
