package io.weft.placement;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The last step of every engine operation: encodes the flows placed fresh and every flow whose
 * path changed, so a path is never handed out unencoded. A flow whose path fails to encode (the
 * forwarding walk disproves it, say) loses its reservation and is reported unplaced with the
 * reason; a flow back on the very path it had keeps its encoding. Slots are encoded in slot order
 * (deterministic, and the encoder's cache sees a job's flows together).
 */
final class EncodingPass {
    private final ReservationLedger ledger;
    private final FlowEncoder encoder;

    EncodingPass(ReservationLedger ledger, FlowEncoder encoder) {
        this.ledger = ledger;
        this.encoder = encoder;
    }

    /**
     * @param before   old path of every previously placed flow that was taken off it
     * @param fresh    flows placed for the first time (no old encoding)
     * @param moved    receives the ids of previously placed flows now encoded on a new path
     * @param unplaced receives the flows whose new path could not be encoded
     */
    void encodeChanged(DenseFabric ix, Map<Integer, int[]> before, int[] fresh, List<String> moved,
                       List<Unplaced> unplaced) {
        int[] todo = new int[before.size() + fresh.length];
        int n = 0;
        // Old paths by slot, read once: no boxed lookup per fresh flow (an add's local search fills
        // before with a few hundred moves, next to thousands of fresh flows).
        int[][] oldOf = new int[before.isEmpty() ? 0 : ledger.slotCount()][];
        for (Map.Entry<Integer, int[]> en : before.entrySet()) {
            int s = en.getKey();
            todo[n++] = s;
            oldOf[s] = en.getValue();
        }
        for (int s : fresh) {
            if (s >= oldOf.length || oldOf[s] == null) {
                todo[n++] = s;
            }
        }
        todo = Arrays.copyOf(todo, n);
        Arrays.sort(todo);
        for (int s : todo) {
            int[] old = s < oldOf.length ? oldOf[s] : null;
            int[] path = ledger.path(s);
            if (path == null) {
                ledger.setEncoding(s, null);
                continue;
            }
            if (old != null && Arrays.equals(old, path) && ledger.encoding(s) != null) {
                continue;
            }
            try {
                ledger.setEncoding(s, encoder.encode(ix, path, ledger.tenant(s)));
                if (old != null) {
                    moved.add(ledger.flow(s).id());
                }
            } catch (FlowEncoder.EncodingFailure e) {
                ledger.unreserve(s);
                ledger.setEncoding(s, null);
                ledger.setUnplacedReason(s, "encoding: " + e.getMessage());
                unplaced.add(new Unplaced(ledger.flow(s), ledger.unplacedReason(s)));
            }
        }
    }
}
