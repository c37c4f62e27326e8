package io.weft.plan.ev;

import java.util.List;

import io.weft.fabric.Arc;
import io.weft.plan.FabricPlan;
import io.weft.plan.walk.WalkException;

/**
 * What an EV-routed packet's next hop is chosen from at one switch (Spritz-style EV routing).
 *
 * <p>At stage 1 (the first switch; hop limit 64) and stage 2 (the second; hop limit 63), the
 * switch's EV table for that stage applies when every minimal next hop towards the destination
 * is one of its members (a leaf's uplinks for a remote NIC, a spine's uplinks for another pod,
 * any router link in Dragonfly / Slim Fly): the EV byte of the stage picks member
 * {@code byte mod n}. Otherwise, if the minimal next hops are parallel links to one neighbour (a
 * spine's down group to a leaf), the same EV byte picks among them, ordered by link id. From
 * stage 3 on, routing is minimal and must be unique. Anything else the tables do not pin is
 * ambiguous.
 *
 * <p>The walk and the encoder both use this one definition of the switch's behaviour; the walk
 * then proves the encoder's choices by following the packet.
 */
public final class EvRouting {
    private EvRouting() {
    }

    /**
     * The arcs the EV byte of {@code stage} indexes at {@code switchId} for a packet to
     * {@code dstSwitch} (the destination NIC's home switch). A single arc means no choice.
     */
    public static List<Arc> options(FabricPlan plan, String switchId, int stage, String dstSwitch, int hop)
            throws WalkException {
        List<Arc> minimal = plan.nextHops(switchId, dstSwitch);
        if (minimal.isEmpty()) {
            throw new WalkException(WalkException.Kind.DEAD_END, switchId, hop,
                    "no route towards " + dstSwitch);
        }
        if (stage == 1 || stage == 2) {
            if (plan.evTableCoversNextHops(switchId, stage, dstSwitch)) {
                return plan.evTable(switchId, stage);
            }
            if (sameNeighbour(minimal)) {
                return minimal;
            }
            throw new WalkException(WalkException.Kind.AMBIGUOUS, switchId, hop, minimal.size()
                    + " minimal next hops towards " + dstSwitch + " and no stage-" + stage + " EV table covers them");
        }
        if (minimal.size() == 1) {
            return minimal;
        }
        throw new WalkException(WalkException.Kind.AMBIGUOUS, switchId, hop, minimal.size()
                + " minimal next hops towards " + dstSwitch + " after the EV stages");
    }

    private static boolean sameNeighbour(List<Arc> arcs) {
        String to = arcs.get(0).to();
        for (Arc a : arcs) {
            if (!a.to().equals(to)) {
                return false;
            }
        }
        return true;
    }
}
