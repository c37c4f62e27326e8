package io.weft.lab.fabric;

import java.util.LinkedHashMap;
import java.util.Map;

import io.weft.fabric.Fabric;
import io.weft.fabric.Node;
import io.weft.fabric.Role;

/**
 * Two-tier leaf-spine Clos: every leaf connects to every spine with {@code parallelLinks} links, and
 * {@code nicsPerLeaf} NICs hang off each leaf. Oversubscription at a leaf is
 * {@code nicsPerLeaf·nicGbps : spines·parallelLinks·uplinkGbps}.
 *
 * <p>Ids: {@code leaf1..L}, {@code spine1..S}, NICs {@code leaf3-nic2}; links {@code leaf1-spine2}
 * (with {@code -1..-P} appended when parallel), NIC links {@code leaf3-nic2-up}.
 */
public final class LeafSpineGenerator {
    public static final String FAMILY = "leaf-spine";

    /** Parameters; the constructor rejects out-of-range values with a message naming the field. */
    public record Params(String id, int leaves, int spines, int nicsPerLeaf, int parallelLinks,
                         double nicGbps, double uplinkGbps, long nicLatencyNs, long uplinkLatencyNs) {
        public Params {
            id = Check.id("id", id == null ? "ls-" + leaves + "x" + spines : id);
            Check.atLeast("leaves", leaves, 1);
            Check.atLeast("spines", spines, 1);
            Check.atLeast("nicsPerLeaf", nicsPerLeaf, 0);
            Check.between("parallelLinks", parallelLinks, 1, 64);
            Check.positive("nicGbps", nicGbps);
            Check.positive("uplinkGbps", uplinkGbps);
            Check.notNegative("nicLatencyNs", nicLatencyNs);
            Check.notNegative("uplinkLatencyNs", uplinkLatencyNs);
            Check.size(FAMILY, (long) leaves * (1 + nicsPerLeaf) + spines);
        }

        /** Defaults: 400G everywhere, 100 ns NIC links, 500 ns leaf-spine links, id derived from the shape. */
        public static Params of(int leaves, int spines, int nicsPerLeaf) {
            return new Params(null, leaves, spines, nicsPerLeaf, 1, 400, 400, 100, 500);
        }
    }

    private LeafSpineGenerator() {
    }

    public static Fabric generate(Params p) {
        Map<String, Object> rec = new LinkedHashMap<>();
        rec.put("leaves", p.leaves());
        rec.put("spines", p.spines());
        rec.put("nicsPerLeaf", p.nicsPerLeaf());
        rec.put("parallelLinks", p.parallelLinks());
        rec.put("nicGbps", GeneratedFabricBuilder.number(p.nicGbps()));
        rec.put("uplinkGbps", GeneratedFabricBuilder.number(p.uplinkGbps()));
        rec.put("nicLatencyNs", p.nicLatencyNs());
        rec.put("uplinkLatencyNs", p.uplinkLatencyNs());
        GeneratedFabricBuilder b = new GeneratedFabricBuilder(p.id(),
                "leaf-spine " + p.leaves() + " leaves x " + p.spines()
                + " spines", FAMILY, rec);
        for (int l = 1; l <= p.leaves(); l++) {
            b.add(Node.builder("leaf" + l, Role.LEAF).build());
        }
        for (int s = 1; s <= p.spines(); s++) {
            b.add(Node.builder("spine" + s, Role.SPINE).build());
        }
        for (int l = 1; l <= p.leaves(); l++) {
            for (int s = 1; s <= p.spines(); s++) {
                for (int k = 1; k <= p.parallelLinks(); k++) {
                    String linkId = "leaf" + l + "-spine" + s + (p.parallelLinks() > 1 ? "-" + k : "");
                    b.link(linkId, "leaf" + l, "spine" + s, p.uplinkGbps(), p.uplinkLatencyNs());
                }
            }
        }
        for (int l = 1; l <= p.leaves(); l++) {
            for (int h = 1; h <= p.nicsPerLeaf(); h++) {
                String nic = "leaf" + l + "-nic" + h;
                b.add(Node.builder(nic, Role.NIC).build());
                b.link(nic + "-up", nic, "leaf" + l, p.nicGbps(), p.nicLatencyNs());
            }
        }
        return b.build();
    }
}
