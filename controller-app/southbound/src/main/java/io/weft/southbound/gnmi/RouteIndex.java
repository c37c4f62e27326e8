package io.weft.southbound.gnmi;

import java.util.Arrays;
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

    /** The position of a route id, or -1. */
    int indexOf(String id) {
        for (int i = 0; i < ids.length; i++) {
            if (ids[i].equals(id)) {
                return i;
            }
        }
        return -1;
    }

    /** Same route ids with the same hashes (in any order; position by position when the ids line up). */
    boolean sameRoutes(RouteIndex o) {
        if (ids.length != o.ids.length) {
            return false;
        }
        if (ids == o.ids || Arrays.equals(ids, o.ids)) {
            return Arrays.equals(hashes, o.hashes);
        }
        Map<String, Long> theirs = o.byId();
        for (int i = 0; i < ids.length; i++) {
            Long h = theirs.get(ids[i]);
            if (h == null || h != hashes[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * This index with routes replaced or added ({@code replaced}: id to hash) and removed; ids keep
     * their positions (new ones at the end), so the result lines up with this one for the next diff.
     */
    RouteIndex with(Map<String, Long> replaced, java.util.Set<String> removed) {
        String[] newIds = ids;
        long[] newHashes = hashes.clone();
        Map<String, Long> added = new java.util.LinkedHashMap<>(replaced);
        for (int i = 0; i < ids.length; i++) {
            Long h = added.remove(ids[i]);
            if (h != null) {
                newHashes[i] = h;
            }
        }
        if (!added.isEmpty() || !removed.isEmpty()) {
            java.util.List<String> keptIds = new java.util.ArrayList<>(ids.length + added.size());
            long[] keptHashes = new long[ids.length + added.size()];
            int n = 0;
            for (int i = 0; i < ids.length; i++) {
                if (!removed.contains(ids[i])) {
                    keptIds.add(ids[i]);
                    keptHashes[n++] = newHashes[i];
                }
            }
            for (Map.Entry<String, Long> e : added.entrySet()) {
                keptIds.add(e.getKey());
                keptHashes[n++] = e.getValue();
            }
            newIds = keptIds.toArray(new String[0]);
            newHashes = Arrays.copyOf(keptHashes, n);
        }
        return new RouteIndex(shellDigest, newIds, newHashes, null, null);
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
