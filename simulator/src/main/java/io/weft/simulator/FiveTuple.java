package io.weft.simulator;

import io.weft.plan.Ipv6;

/**
 * The header fields an ECMP switch hashes: IPv6 source and destination, next header, UDP ports.
 * RoCEv2 runs over UDP to port 4791; the NIC picks the source port per queue pair.
 */
public record FiveTuple(String srcAddress, String dstAddress, int protocol, int srcPort, int dstPort) {
    public static final int UDP = 17;
    public static final int ROCEV2_PORT = 4791;

    public FiveTuple {
        if (srcPort < 0 || srcPort > 0xFFFF) {
            throw new IllegalArgumentException("srcPort: " + srcPort + " is not a port (0..65535)");
        }
        if (dstPort < 0 || dstPort > 0xFFFF) {
            throw new IllegalArgumentException("dstPort: " + dstPort + " is not a port (0..65535)");
        }
        if (protocol < 0 || protocol > 0xFF) {
            throw new IllegalArgumentException("protocol: " + protocol + " is not an IP protocol number");
        }
    }

    /** A RoCEv2 flow between two addresses with the given UDP source port. */
    public static FiveTuple rocev2(String srcAddress, String dstAddress, int srcPort) {
        return new FiveTuple(srcAddress, dstAddress, UDP, srcPort, ROCEV2_PORT);
    }

    /** The 37 bytes the hash covers, in header order: 16 + 16 address bytes, protocol, ports. */
    public byte[] bytes() {
        byte[] b = new byte[37];
        put(b, 0, Ipv6.parse(srcAddress));
        put(b, 16, Ipv6.parse(dstAddress));
        b[32] = (byte) protocol;
        b[33] = (byte) (srcPort >>> 8);
        b[34] = (byte) srcPort;
        b[35] = (byte) (dstPort >>> 8);
        b[36] = (byte) dstPort;
        return b;
    }

    private static void put(byte[] b, int at, int[] groups) {
        for (int i = 0; i < 8; i++) {
            b[at + 2 * i] = (byte) (groups[i] >>> 8);
            b[at + 2 * i + 1] = (byte) groups[i];
        }
    }
}
