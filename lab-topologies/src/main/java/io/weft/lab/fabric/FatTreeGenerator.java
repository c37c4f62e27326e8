package io.weft.lab.fabric;

import java.util.LinkedHashMap;
import java.util.Map;

import io.weft.fabric.Fabric;
import io.weft.fabric.Node;
import io.weft.fabric.Role;

/**
 * Three-tier Clos. Inside a pod every leaf connects to every spine of the pod. Spine {@code j} of
 * every pod sits in plane {@code j} and connects to each superspine of that plane; there are
 * {@code superspines / spinesPerPod} superspines per plane. {@link #kary(int)} gives the standard
 * k-ary fat-tree (Al-Fares et al., SIGCOMM 2008): k pods of k/2 leaves and k/2 spines,
 * (k/2)² superspines and k³/4 NICs, every switch of radix k.
 *
 * <p>Ids (names 1-based, the pod/plane fields 0-based): {@code p1-leaf2}, {@code p1-spine1},
 * {@code ss3} (superspines numbered plane by plane), NICs {@code p1-leaf2-nic1}; links
 * {@code p1-leaf2-p1-spine1}, {@code p1-spine1-ss3}, NIC links {@code p1-leaf2-nic1-up}.
 */
public final class FatTreeGenerator {
    public static final String FAMILY = "fat-tree";

    /** Parameters; the constructor rejects out-of-range values with a message naming the field. */
    public record Params(String id, int pods, int leavesPerPod, int spinesPerPod, int superspines,
                         int nicsPerLeaf, double nicGbps, double uplinkGbps, double spineGbps,
                         long nicLatencyNs, long uplinkLatencyNs, long spineLatencyNs) {
        public Params {
            id = Check.id("id", id == null
                    ? "ft-" + pods + "x" + leavesPerPod + "x" + spinesPerPod + "x" + superspines : id);
            Check.atLeast("pods", pods, 1);
            Check.atLeast("leavesPerPod", leavesPerPod, 1);
            Check.atLeast("spinesPerPod", spinesPerPod, 1);
            Check.atLeast("superspines", superspines, 1);
            if (superspines % spinesPerPod != 0) {
                throw new IllegalArgumentException("superspines: must be a multiple of spinesPerPod ("
                        + spinesPerPod + ", one plane per spine position), got " + superspines);
            }
            Check.atLeast("nicsPerLeaf", nicsPerLeaf, 0);
            Check.positive("nicGbps", nicGbps);
            Check.positive("uplinkGbps", uplinkGbps);
            Check.positive("spineGbps", spineGbps);
            Check.notNegative("nicLatencyNs", nicLatencyNs);
            Check.notNegative("uplinkLatencyNs", uplinkLatencyNs);
            Check.notNegative("spineLatencyNs", spineLatencyNs);
            Check.size(FAMILY, (long) pods * (leavesPerPod * (1L + nicsPerLeaf) + spinesPerPod) + superspines);
        }

        /** Superspines per plane (= uplinks of each spine). */
        public int superspinesPerPlane() {
            return superspines / spinesPerPod;
        }
    }

    private FatTreeGenerator() {
    }

    /** The k-ary fat-tree parameters (k even, >= 2), 400G links, id {@code ft-k<k>}. */
    public static Params kary(int k) {
        if (k < 2 || k % 2 != 0) {
            throw new IllegalArgumentException("k: must be an even number >= 2 (got " + k + ")");
        }
        int h = k / 2;
        return new Params("ft-k" + k, k, h, h, h * h, h, 400, 400, 400, 100, 500, 1000);
    }

    public static Fabric generate(Params p) {
        Map<String, Object> rec = new LinkedHashMap<>();
        rec.put("pods", p.pods());
        rec.put("leavesPerPod", p.leavesPerPod());
        rec.put("spinesPerPod", p.spinesPerPod());
        rec.put("superspines", p.superspines());
        rec.put("nicsPerLeaf", p.nicsPerLeaf());
        rec.put("nicGbps", GeneratedFabricBuilder.number(p.nicGbps()));
        rec.put("uplinkGbps", GeneratedFabricBuilder.number(p.uplinkGbps()));
        rec.put("spineGbps", GeneratedFabricBuilder.number(p.spineGbps()));
        rec.put("nicLatencyNs", p.nicLatencyNs());
        rec.put("uplinkLatencyNs", p.uplinkLatencyNs());
        rec.put("spineLatencyNs", p.spineLatencyNs());
        GeneratedFabricBuilder b = new GeneratedFabricBuilder(p.id(),
                "3-tier Clos, " + p.pods() + " pods", FAMILY, rec);
        int perPlane = p.superspinesPerPlane();
        for (int pod = 0; pod < p.pods(); pod++) {
            for (int l = 0; l < p.leavesPerPod(); l++) {
                b.add(Node.builder(leaf(pod, l), Role.LEAF).pod(pod).build());
            }
            for (int s = 0; s < p.spinesPerPod(); s++) {
                b.add(Node.builder(spine(pod, s), Role.SPINE).pod(pod).plane(s).build());
            }
        }
        for (int i = 0; i < p.superspines(); i++) {
            b.add(Node.builder("ss" + (i + 1), Role.SUPERSPINE).plane(i / perPlane).build());
        }
        for (int pod = 0; pod < p.pods(); pod++) {
            for (int l = 0; l < p.leavesPerPod(); l++) {
                for (int s = 0; s < p.spinesPerPod(); s++) {
                    b.link(leaf(pod, l) + "-" + spine(pod, s), leaf(pod, l), spine(pod, s),
                            p.uplinkGbps(), p.uplinkLatencyNs());
                }
            }
        }
        for (int pod = 0; pod < p.pods(); pod++) {
            for (int s = 0; s < p.spinesPerPod(); s++) {
                for (int k = 0; k < perPlane; k++) {
                    String ss = "ss" + (s * perPlane + k + 1);
                    b.link(spine(pod, s) + "-" + ss, spine(pod, s), ss, p.spineGbps(), p.spineLatencyNs());
                }
            }
        }
        for (int pod = 0; pod < p.pods(); pod++) {
            for (int l = 0; l < p.leavesPerPod(); l++) {
                for (int h = 1; h <= p.nicsPerLeaf(); h++) {
                    String nic = leaf(pod, l) + "-nic" + h;
                    b.add(Node.builder(nic, Role.NIC).pod(pod).build());
                    b.link(nic + "-up", nic, leaf(pod, l), p.nicGbps(), p.nicLatencyNs());
                }
            }
        }
        return b.build();
    }

    private static String leaf(int pod, int l) {
        return "p" + (pod + 1) + "-leaf" + (l + 1);
    }

    private static String spine(int pod, int s) {
        return "p" + (pod + 1) + "-spine" + (s + 1);
    }
}
