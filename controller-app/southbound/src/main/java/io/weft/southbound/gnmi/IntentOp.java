package io.weft.southbound.gnmi;

import com.github.gnmi.proto.Path;

/**
 * One subtree Weft owns on a switch: a replace op of the device intent. {@link #key()} is the
 * canonical path string the provisioner diffs by, {@link #digest()} the SHA-256 of the value's
 * canonical JSON. The JSON itself ({@link #json()}) is kept only until the switch confirmed it;
 * after that the op is {@link #withoutJson() stripped} and re-rendered if it is ever needed again.
 * A network instance also carries its {@link RouteIndex}, so a re-plan can send single routes.
 */
public final class IntentOp {
    private final String key;
    private final Path path;
    private final String digest;
    private final byte[] json;
    private final RouteIndex routes;

    IntentOp(String key, Path path, String digest, byte[] json) {
        this(key, path, digest, json, null);
    }

    IntentOp(String key, Path path, String digest, byte[] json, RouteIndex routes) {
        this.key = key;
        this.path = path;
        this.digest = digest;
        this.json = json;
        this.routes = routes;
    }

    public String key() {
        return key;
    }

    public Path path() {
        return path;
    }

    public String digest() {
        return digest;
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
        return json == null && (routes == null || !routes.hasRanges()) ? this
                : new IntentOp(key, path, digest, null, routes == null ? null : routes.withoutRanges());
    }
}
