package io.weft.fabric;

import java.util.Objects;

/**
 * How the controller reaches a switch's gNMI server (fabric file: a switch's optional {@code gnmi}
 * object). Credentials are never in the file: {@code usernameEnv}/{@code passwordEnv} name the
 * environment variables of the controller process that hold them. The southbound dials a
 * {@code GnmiTarget} made from this and the resolved credentials; it is kept apart from this class
 * because the ONOS app builds targets from netcfg, where no fabric file exists (this module stays
 * free of the gRPC southbound).
 */
public final class GnmiEndpoint {
    /** gNMI's IANA port. */
    public static final int DEFAULT_PORT = 9339;

    private final String address;
    private final int port;
    private final boolean tls;
    private final String caFile;
    private final String certFile;
    private final String keyFile;
    private final String usernameEnv;
    private final String passwordEnv;

    public GnmiEndpoint(String address, int port, boolean tls, String caFile, String certFile, String keyFile,
                        String usernameEnv, String passwordEnv) {
        this.address = Objects.requireNonNull(address, "address");
        this.port = port;
        this.tls = tls;
        this.caFile = caFile;
        this.certFile = certFile;
        this.keyFile = keyFile;
        this.usernameEnv = usernameEnv;
        this.passwordEnv = passwordEnv;
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

    /** CA certificate (PEM) that signed the switch's certificate, or null for the JVM's trust store. */
    public String caFile() {
        return caFile;
    }

    /** Client certificate (PEM) for mutual TLS, or null. */
    public String certFile() {
        return certFile;
    }

    /** Client private key (PEM, PKCS#8) for mutual TLS, or null. */
    public String keyFile() {
        return keyFile;
    }

    /** Environment variable holding the gNMI username, or null for none. */
    public String usernameEnv() {
        return usernameEnv;
    }

    /** Environment variable holding the gNMI password, or null for none. */
    public String passwordEnv() {
        return passwordEnv;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof GnmiEndpoint)) {
            return false;
        }
        GnmiEndpoint g = (GnmiEndpoint) o;
        return address.equals(g.address) && port == g.port && tls == g.tls && Objects.equals(caFile, g.caFile)
                && Objects.equals(certFile, g.certFile) && Objects.equals(keyFile, g.keyFile)
                && Objects.equals(usernameEnv, g.usernameEnv) && Objects.equals(passwordEnv, g.passwordEnv);
    }

    @Override
    public int hashCode() {
        return Objects.hash(address, port, tls);
    }

    @Override
    public String toString() {
        return address + ":" + port + (tls ? " (tls)" : "");
    }
}
