package io.weft.scheduler.reroute;

import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;

import io.weft.contracts.LinkState;
import io.weft.placement.DenseFabric;

/**
 * Links a link-down event reported down before the controller's snapshot says so. The loop acts on
 * the event at once, but the engine's index (built from the last snapshot) still calls the link
 * usable until the snapshot arrives, hundreds of milliseconds later; every pass in between must
 * treat the link as down, or it moves flows straight back onto it (the link-down pass has just
 * emptied it, so it looks like the best room in the fabric).
 *
 * <p>A link is forgotten on its link-up event, or as soon as the index marks it down: from then on
 * the snapshot owns its state (and a later snapshot may bring it back). Owned by the loop thread.
 */
final class DownLinks {
    private final Set<String> links = new LinkedHashSet<>();

    void reported(String linkId) {
        links.add(linkId);
    }

    void restored(String linkId) {
        links.remove(linkId);
    }

    /**
     * Arcs of the reported links that {@code ix} does not yet know are down; forgets the links it
     * does know are down, and those it does not have at all (another fabric).
     */
    Set<Integer> arcs(DenseFabric ix) {
        if (links.isEmpty()) {
            return Set.of();
        }
        Set<Integer> out = new HashSet<>();
        for (Iterator<String> it = links.iterator(); it.hasNext();) {
            String id = it.next();
            int[] arcs = ix.arcsOfLink(id);
            if (arcs == null || ix.state(id) == LinkState.DOWN) {
                it.remove();
                continue;
            }
            out.add(arcs[0]);
            out.add(arcs[1]);
        }
        return Set.copyOf(out);
    }
}
