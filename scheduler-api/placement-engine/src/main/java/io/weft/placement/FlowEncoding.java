package io.weft.placement;

import java.util.List;

/**
 * How a NIC puts a flow on its path: SRv6 uSID carriers (always; carriers[0] is the destination
 * address, the rest go to an SRH) and the 16-bit entropy value, or null when the path is not
 * reachable by EV routing.
 */
public record FlowEncoding(List<String> carriers, List<Integer> usids, Integer ev) {
    public FlowEncoding {
        carriers = List.copyOf(carriers);
        usids = List.copyOf(usids);
    }
}
