package io.weft.fabric;

import java.util.Objects;

/**
 * A fabric node: a switch (leaf, spine, superspine, Dragonfly/Slim Fly router) or a NIC.
 * Grouping fields are optional and mean what the generator family says: pod (Clos), group
 * (Dragonfly, Slim Fly subgraph), plane (parallel planes), rail (rail-optimized NICs and leaves).
 */
public final class Node {
    private final String id;
    private final String name;
    private final Role role;
    private final Integer pod;
    private final Integer group;
    private final Integer plane;
    private final Integer rail;
    private final String server;
    private final Integer srv6NodeId;
    private final String address;
    private final GnmiEndpoint gnmi;

    private Node(Builder b) {
        this.id = Objects.requireNonNull(b.id, "id");
        this.name = b.name == null ? b.id : b.name;
        this.role = Objects.requireNonNull(b.role, "role");
        this.pod = b.pod;
        this.group = b.group;
        this.plane = b.plane;
        this.rail = b.rail;
        this.server = b.server;
        this.srv6NodeId = b.srv6NodeId;
        this.address = b.address;
        this.gnmi = b.gnmi;
    }

    public static Builder builder(String id, Role role) {
        return new Builder(id, role);
    }

    public Builder toBuilder() {
        Builder b = new Builder(id, role);
        b.name = name;
        b.pod = pod;
        b.group = group;
        b.plane = plane;
        b.rail = rail;
        b.server = server;
        b.srv6NodeId = srv6NodeId;
        b.address = address;
        b.gnmi = gnmi;
        return b;
    }

    public String id() {
        return id;
    }

    public String name() {
        return name;
    }

    public Role role() {
        return role;
    }

    /** Clos pod, or null. */
    public Integer pod() {
        return pod;
    }

    /** Dragonfly group, Slim Fly router group (s·q + x: 2q groups of q routers), or rail leaf group; or null. */
    public Integer group() {
        return group;
    }

    /** Parallel plane index, or null for single-plane fabrics. */
    public Integer plane() {
        return plane;
    }

    /** Rail index (rail-optimized fabrics), or null. */
    public Integer rail() {
        return rail;
    }

    /** For a NIC, the server it sits in (rail-optimized fabrics), or null. */
    public String server() {
        return server;
    }

    /** Explicit 16-bit SRv6 uN node id from the fabric file, or null to let the plan allocate. */
    public Integer srv6NodeId() {
        return srv6NodeId;
    }

    /** Explicit IPv6 address (NIC address or switch loopback), or null to let the plan assign. */
    public String address() {
        return address;
    }

    /** Where the controller configures this switch over gNMI, or null when it does not. */
    public GnmiEndpoint gnmi() {
        return gnmi;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Node)) {
            return false;
        }
        Node n = (Node) o;
        return id.equals(n.id) && name.equals(n.name) && role == n.role && Objects.equals(pod, n.pod)
                && Objects.equals(group, n.group) && Objects.equals(plane, n.plane)
                && Objects.equals(rail, n.rail) && Objects.equals(server, n.server)
                && Objects.equals(srv6NodeId, n.srv6NodeId) && Objects.equals(address, n.address)
                && Objects.equals(gnmi, n.gnmi);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return role.jsonName() + " " + id;
    }

    /** Mutable builder; generators and readers fill only what they know. */
    public static final class Builder {
        private final String id;
        private final Role role;
        private String name;
        private Integer pod;
        private Integer group;
        private Integer plane;
        private Integer rail;
        private String server;
        private Integer srv6NodeId;
        private String address;
        private GnmiEndpoint gnmi;

        private Builder(String id, Role role) {
            this.id = id;
            this.role = role;
        }

        public Builder name(String v) {
            name = v;
            return this;
        }

        public Builder pod(Integer v) {
            pod = v;
            return this;
        }

        public Builder group(Integer v) {
            group = v;
            return this;
        }

        public Builder plane(Integer v) {
            plane = v;
            return this;
        }

        public Builder rail(Integer v) {
            rail = v;
            return this;
        }

        public Builder server(String v) {
            server = v;
            return this;
        }

        public Builder srv6NodeId(Integer v) {
            srv6NodeId = v;
            return this;
        }

        public Builder address(String v) {
            address = v;
            return this;
        }

        public Builder gnmi(GnmiEndpoint v) {
            gnmi = v;
            return this;
        }

        public Node build() {
            return new Node(this);
        }
    }
}
