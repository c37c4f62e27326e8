package io.weft.controller.onos;

import java.util.Objects;

import org.onosproject.net.ConnectPoint;

/** One NIC from {@link WeftAppConfig}: its fabric id and the switch port it is cabled to. */
public final class NicAttachment {
    private final String id;
    private final ConnectPoint attach;
    private final String port;
    private final String server;
    private final Integer pod;
    private final Integer group;
    private final Integer rail;
    private final Integer plane;
    private final String address;
    private final Double capacityGbps;

    NicAttachment(String id, ConnectPoint attach, String port, String server, Integer pod, Integer group,
                  Integer rail, Integer plane, String address, Double capacityGbps) {
        this.id = Objects.requireNonNull(id, "id");
        this.attach = attach;
        this.port = port;
        this.server = server;
        this.pod = pod;
        this.group = group;
        this.rail = rail;
        this.plane = plane;
        this.address = address;
        this.capacityGbps = capacityGbps;
    }

    public String id() {
        return id;
    }

    /** The switch port the NIC is cabled to. */
    public ConnectPoint attach() {
        return attach;
    }

    /** The NIC's own interface name (default eth0). */
    public String port() {
        return port;
    }

    public String server() {
        return server;
    }

    public Integer pod() {
        return pod;
    }

    public Integer group() {
        return group;
    }

    public Integer rail() {
        return rail;
    }

    public Integer plane() {
        return plane;
    }

    public String address() {
        return address;
    }

    /** Explicit link capacity, or null to take the switch port's speed. */
    public Double capacityGbps() {
        return capacityGbps;
    }
}
