package io.weft.southbound.gnmi;

import java.util.Objects;

import io.weft.fabric.GnmiEndpoint;

/**
 * Where and how to reach one switch's gNMI server. TLS is on when {@code tls} is set; a CA file
 * pins the server's issuer (otherwise the JVM's trust store), a cert and key file give mutual TLS.
 * Username and password, when present, travel as gRPC metadata ("username", "password").
 *
 * <p>Not the same thing as the fabric file's {@link GnmiEndpoint}, and kept apart on purpose: an
 * endpoint is configuration as written (no switch id, credentials only as the names of environment
 * variables, nothing checked that the file's validator does not check), a target is what a session is
 * dialled with (its switch, the credentials themselves, checked on construction; the ONOS app builds
 * it from netcfg, which has no endpoint). {@link #of} turns one into the other.
 */
public final class GnmiTarget {
    private final String switchId;
    private final String address;
    private final int port;
    private final boolean tls;
    private final String caFile;
    private final String certFile;
    private final String keyFile;
    private final String username;
    private final String password;

    public GnmiTarget(String switchId, String address, int port, boolean tls, String caFile, String certFile,
                      String keyFile, String username, String password) {
        if (switchId == null || switchId.isEmpty()) {
            throw new IllegalArgumentException("switchId: required");
        }
        if (address == null || address.isEmpty()) {
            throw new IllegalArgumentException("gnmi.address of " + switchId + ": required");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("gnmi.port of " + switchId + ": must be 1..65535, got " + port);
        }
        if ((certFile == null) != (keyFile == null)) {
            throw new IllegalArgumentException("gnmi.certFile/keyFile of " + switchId + ": give both or neither");
        }
        if (!tls && (caFile != null || certFile != null)) {
            throw new IllegalArgumentException("gnmi.tls of " + switchId + ": certificate files given but tls is off");
        }
        this.switchId = switchId;
        this.address = address;
        this.port = port;
        this.tls = tls;
        this.caFile = caFile;
        this.certFile = certFile;
        this.keyFile = keyFile;
        this.username = username;
        this.password = password;
    }

    /** The target of a fabric file's switch: its endpoint, with the credentials its environment names resolved. */
    public static GnmiTarget of(String switchId, GnmiEndpoint endpoint, String username, String password) {
        return new GnmiTarget(switchId, endpoint.address(), endpoint.port(), endpoint.tls(), endpoint.caFile(),
                endpoint.certFile(), endpoint.keyFile(), username, password);
    }

    /** A plaintext target without credentials (the lab's default). */
    public static GnmiTarget plaintext(String switchId, String address, int port) {
        return new GnmiTarget(switchId, address, port, false, null, null, null, null, null);
    }

    public String switchId() {
        return switchId;
    }

    public String address() {
        return address;
    }

    public int port() {
        return port;
    }

    public boolean tls() {
        return tls;
    }

    public String caFile() {
        return caFile;
    }

    public String certFile() {
        return certFile;
    }

    public String keyFile() {
        return keyFile;
    }

    public String username() {
        return username;
    }

    public String password() {
        return password;
    }

    /** address:port, for log lines and GET /devices. */
    public String endpoint() {
        return (address.indexOf(':') >= 0 ? "[" + address + "]" : address) + ":" + port;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof GnmiTarget)) {
            return false;
        }
        GnmiTarget t = (GnmiTarget) o;
        return port == t.port && tls == t.tls && switchId.equals(t.switchId) && address.equals(t.address)
                && Objects.equals(caFile, t.caFile) && Objects.equals(certFile, t.certFile)
                && Objects.equals(keyFile, t.keyFile) && Objects.equals(username, t.username)
                && Objects.equals(password, t.password);
    }

    @Override
    public int hashCode() {
        return Objects.hash(switchId, address, port, tls, caFile, certFile, keyFile, username);
    }

    @Override
    public String toString() {
        // Never the password.
        return switchId + "@" + endpoint() + (tls ? " (tls)" : "");
    }
}
