package io.weft.lab.fabric;

import io.weft.fabric.Fabric;

import java.util.List;
import java.util.Map;

/**
 * Generates a fabric from a family name and string parameters, as the CLI receives them
 * ({@code ./weft fabric generate leaf-spine --leaves 4}). Parameter names are the params records'
 * component names; every family also takes {@code id}. Unknown names and bad values are rejected
 * with an {@link IllegalArgumentException} whose message names the parameter.
 */
public final class FabricGenerators {
    public static final List<String> FAMILIES = List.of(
            LeafSpineGenerator.FAMILY, FatTreeGenerator.FAMILY);

    private FabricGenerators() {
    }

    public static Fabric generate(String family, Map<String, String> params) {
        ParamReader r = new ParamReader(family, params);
        Fabric f;
        switch (family) {
            case LeafSpineGenerator.FAMILY:
                f = LeafSpineGenerator.generate(leafSpine(r));
                break;
            case FatTreeGenerator.FAMILY:
                f = FatTreeGenerator.generate(fatTree(r));
                break;
            default:
                throw new IllegalArgumentException("unknown family \"" + family + "\" (known: "
                        + String.join(", ", FAMILIES) + ")");
        }
        return f;
    }

    private static LeafSpineGenerator.Params leafSpine(ParamReader r) {
        var p = new LeafSpineGenerator.Params(r.string("id", null), r.integer("leaves", 4), r.integer("spines", 2),
                r.integer("nicsPerLeaf", 4), r.integer("parallelLinks", 1), r.number("nicGbps", 400),
                r.number("uplinkGbps", 400), r.longInt("nicLatencyNs", 100), r.longInt("uplinkLatencyNs", 500));
        r.finish();
        return p;
    }

    private static FatTreeGenerator.Params fatTree(ParamReader r) {
        FatTreeGenerator.Params p;
        if (r.has("k")) {
            // k-ary form: only k, id, and the link figures may be given; the shape follows from k.
            FatTreeGenerator.Params k = FatTreeGenerator.kary(r.integer("k", 4));
            p = new FatTreeGenerator.Params(r.string("id", k.id()), k.pods(), k.leavesPerPod(), k.spinesPerPod(),
                    k.superspines(), k.nicsPerLeaf(), r.number("nicGbps", k.nicGbps()),
                    r.number("uplinkGbps", k.uplinkGbps()), r.number("spineGbps", k.spineGbps()),
                    r.longInt("nicLatencyNs", k.nicLatencyNs()), r.longInt("uplinkLatencyNs", k.uplinkLatencyNs()),
                    r.longInt("spineLatencyNs", k.spineLatencyNs()));
        } else {
            p = new FatTreeGenerator.Params(r.string("id", null), r.integer("pods", 2), r.integer("leavesPerPod", 2),
                    r.integer("spinesPerPod", 2), r.integer("superspines", 4), r.integer("nicsPerLeaf", 2),
                    r.number("nicGbps", 400), r.number("uplinkGbps", 400), r.number("spineGbps", 400),
                    r.longInt("nicLatencyNs", 100), r.longInt("uplinkLatencyNs", 500),
                    r.longInt("spineLatencyNs", 1000));
        }
        r.finish();
        return p;
    }
}
