package io.weft.placement;

import java.util.List;

import io.weft.fabric.Arc;

/** A flow with its reserved path (source NIC to destination NIC) and the encodings that put it there. */
public record PlacedFlow(Flow flow, List<Arc> path, FlowEncoding encoding) {
    /** Node ids along the path, source NIC first. */
    public List<String> nodes() {
        String[] n = new String[path.size() + 1];
        n[0] = path.get(0).from();
        for (int i = 0; i < path.size(); i++) {
            n[i + 1] = path.get(i).to();
        }
        return List.of(n);
    }
}
