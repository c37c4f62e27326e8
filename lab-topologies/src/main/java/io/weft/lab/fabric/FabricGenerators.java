package io.weft.lab.fabric;

import java.util.List;
import java.util.Map;

import io.weft.fabric.Fabric;

/**
 * Generates a fabric from a family name and string parameters, as the CLI receives them
 * ({@code ./weft fabric generate leaf-spine --leaves 4}). Parameter names are the params records'
 * component names; every family also takes {@code id}. Unknown names and bad values are rejected
 * with an {@link IllegalArgumentException} whose message names the parameter.
 */
public final class FabricGenerators {
    public static final List<String> FAMILIES = List.of(
            LeafSpineGenerator.FAMILY, FatTreeGenerator.FAMILY, RailGenerator.FAMILY, DragonflyGenerator.FAMILY,
            SlimFlyGenerator.FAMILY);

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
            case RailGenerator.FAMILY:
                f = RailGenerator.generate(rail(r));
                break;
            case DragonflyGenerator.FAMILY:
                f = DragonflyGenerator.generate(dragonfly(r));
                break;
            case SlimFlyGenerator.FAMILY:
                f = SlimFlyGenerator.generate(slimFly(r));
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

    private static RailGenerator.Params rail(ParamReader r) {
        var p = new RailGenerator.Params(r.string("id", null), r.integer("servers", 8), r.integer("railsPerServer", 4),
                r.integer("serversPerGroup", 4), r.integer("spines", 2), r.integer("planes", 1),
                r.number("nicGbps", 400), r.number("uplinkGbps", 400), r.longInt("nicLatencyNs", 100),
                r.longInt("uplinkLatencyNs", 500));
        r.finish();
        return p;
    }

    private static DragonflyGenerator.Params dragonfly(ParamReader r) {
        var p = new DragonflyGenerator.Params(r.string("id", null), r.integer("p", 2), r.integer("a", 4),
                r.integer("h", 2), r.integer("g", 0), r.number("nicGbps", 400), r.number("localGbps", 400),
                r.number("globalGbps", 400), r.longInt("nicLatencyNs", 100), r.longInt("localLatencyNs", 200),
                r.longInt("globalLatencyNs", 1000));
        r.finish();
        return p;
    }

    private static SlimFlyGenerator.Params slimFly(ParamReader r) {
        var p = new SlimFlyGenerator.Params(r.string("id", null), r.integer("q", 5), r.number("nicGbps", 400),
                r.number("linkGbps", 400), r.longInt("nicLatencyNs", 100), r.longInt("linkLatencyNs", 500));
        r.finish();
        return p;
    }
}
