package io.weft.placement;

import java.util.Arrays;
import java.util.List;

import io.weft.fabric.Arc;

/**
 * Turns a placed path into its encodings and proves them: an implementation must check that the
 * forwarding walk of the encoding reproduces the path, and fail otherwise. The engine never hands
 * out a flow whose path failed to encode. {@link PlanFlowEncoder} is the real one (the fabric plan).
 */
public interface FlowEncoder {
    /**
     * @param path full arc list from the source NIC to the destination NIC
     * @throws EncodingFailure when the path cannot be encoded or the walk does not reproduce it
     */
    FlowEncoding encode(List<Arc> path, String tenant) throws EncodingFailure;

    /**
     * The same for a path given as arc indices of {@code ix} (how the engine holds paths); an
     * encoder that can look the path up without building the arc list overrides this.
     */
    default FlowEncoding encode(DenseFabric ix, int[] arcs, String tenant) throws EncodingFailure {
        Arc[] out = new Arc[arcs.length];
        for (int i = 0; i < arcs.length; i++) {
            out[i] = ix.arc(arcs[i]);
        }
        return encode(Arrays.asList(out), tenant);
    }

    /** A path that cannot be encoded; the message says why (one line). */
    final class EncodingFailure extends Exception {
        private static final long serialVersionUID = 1L;

        public EncodingFailure(String message) {
            super(message);
        }
    }
}
