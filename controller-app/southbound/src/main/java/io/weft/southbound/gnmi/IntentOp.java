package io.weft.southbound.gnmi;

import com.github.gnmi.proto.Path;

/**
 * One subtree Weft owns on a switch: a replace op of the device intent. {@link #key()} is the
 * canonical path string the provisioner diffs by, {@link #digest()} the SHA-256 of the value's
 * canonical JSON. The JSON itself ({@link #json()}) is kept only until the switch confirmed it;
 * after that the op is {@link #withoutJson() stripped} and re-rendered if it is ever needed again.
 * A network instance also carries its {@link RouteIndex}, so a re-plan can send single routes.
 *
 * <p>An instance changed route by route ({@link IntentOps#apply}) has no digest: its value is known
 * by its shell and route hashes alone, which cover every byte of its canonical JSON, and it carries
 * the JSON of just the routes that changed until the switch confirmed them.
 */
public final class IntentOp {
    private final String key;
    private final Path path;
    private final String digest;
    private final byte[] json;
    private final RouteIndex routes;
    private final java.util.Map<String, byte[]> routeJson; // route id to canonical JSON, for routes changed alone

    IntentOp(String key, Path path, String digest, byte[] json) {
        this(key, path, digest, json, null);
    }

    IntentOp(String key, Path path, String digest, byte[] json, RouteIndex routes) {
        this(key, path, digest, json, routes, null);
    }

    IntentOp(String key, Path path, String digest, byte[] json, RouteIndex routes,
            java.util.Map<String, byte[]> routeJson) {
        this.key = key;
        this.path = path;
        this.digest = digest;
        this.json = json;
        this.routes = routes;
        this.routeJson = routeJson;
    }

    public String key() {
        return key;
    }

    public Path path() {
        return path;
    }

    /** SHA-256 of the canonical value, or null for an instance changed route by route (see {@link #sameValue}). */
    public String digest() {
        return digest;
    }

    /**
     * Whether both stand for the same value: equal digests, or, where one has none, the same shell and
     * the same hash for every route id.
     */
    boolean sameValue(IntentOp other) {
        if (digest != null && other.digest != null) {
            return digest.equals(other.digest);
        }
        if (routes == null || other.routes == null || routes.shellDigest != other.routes.shellDigest) {
            return false;
        }
        return routes.sameRoutes(other.routes);
    }

    /** The canonical JSON of one route of this instance, or null when this op no longer holds it. */
    byte[] routeBytes(String id) {
        if (routeJson != null) {
            byte[] b = routeJson.get(id);
            if (b != null) {
                return b;
            }
        }
        if (json == null || routes == null || !routes.hasRanges()) {
            return null;
        }
        int i = routes.indexOf(id);
        return i < 0 ? null : java.util.Arrays.copyOfRange(json, routes.start(i), routes.end(i));
    }

    /** Canonical compact JSON of the value, or null once stripped. */
    public byte[] json() {
        return json;
    }

    /** The static routes inside the value (network instances), or null. */
    RouteIndex routes() {
        return routes;
    }

    IntentOp withoutJson() {
        return json == null && routeJson == null && (routes == null || !routes.hasRanges()) ? this
                : new IntentOp(key, path, digest, null, routes == null ? null : routes.withoutRanges());
    }
}
