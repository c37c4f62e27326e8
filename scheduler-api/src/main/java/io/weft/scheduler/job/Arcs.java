package io.weft.scheduler.job;

import java.util.ArrayList;
import java.util.List;

/**
 * Paths are stored as arc keys ("linkId>toNode", see {@link io.weft.fabric.Arc#key()}) so that the
 * direction survives without the fabric at hand. Link ids may contain '>', node ids may not.
 */
final class Arcs {
    private Arcs() {
    }

    static String linkOf(String arcKey) {
        return arcKey.substring(0, arcKey.lastIndexOf('>'));
    }

    static String toNodeOf(String arcKey) {
        return arcKey.substring(arcKey.lastIndexOf('>') + 1);
    }

    static List<String> links(List<String> arcKeys) {
        List<String> out = new ArrayList<>(arcKeys.size());
        for (String k : arcKeys) {
            out.add(linkOf(k));
        }
        return out;
    }

    /** Node ids along the path: the source, then the far end of every arc. */
    static List<String> nodes(String src, List<String> arcKeys) {
        List<String> out = new ArrayList<>(arcKeys.size() + 1);
        out.add(src);
        for (String k : arcKeys) {
            out.add(toNodeOf(k));
        }
        return out;
    }
}
