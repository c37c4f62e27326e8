package io.weft.fabric;

import java.util.Objects;

/** One end of a link: a node and the name of its port (the interface name on the device). */
public final class Endpoint {
    private final String node;
    private final String port;

    public Endpoint(String node, String port) {
        this.node = Objects.requireNonNull(node, "node");
        this.port = Objects.requireNonNull(port, "port");
    }

    public String node() {
        return node;
    }

    public String port() {
        return port;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Endpoint && ((Endpoint) o).node.equals(node) && ((Endpoint) o).port.equals(port);
    }

    @Override
    public int hashCode() {
        return node.hashCode() * 31 + port.hashCode();
    }

    @Override
    public String toString() {
        return node + ":" + port;
    }
}
