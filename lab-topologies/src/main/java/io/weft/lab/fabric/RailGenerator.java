package io.weft.lab.fabric;

import java.util.LinkedHashMap;
import java.util.Map;

import io.weft.fabric.Fabric;
import io.weft.fabric.Node;
import io.weft.fabric.Role;

/**
 * Rail-optimized fabric: {@code servers} servers with {@code railsPerServer} NICs each, grouped
 * {@code serversPerGroup} to a leaf group. NIC r of every server of a group attaches to that group's
 * rail-r leaf, so same-rail traffic between servers of a group crosses one leaf. With {@code planes}
 * P &gt; 1 the fabric is built P times side by side (one leaf per rail per group and plane, own spines
 * per plane) and every NIC has one port per plane. Leaves connect to every spine of their plane.
 *
 * <p>Ids (names 1-based, rail/plane fields 0-based): leaves {@code g1-rail2}, spines {@code spine1},
 * NICs {@code srv4-nic2} (server {@code srv4}, rail 1); with planes, a {@code pl2-} prefix on leaves
 * and spines. Links {@code g1-rail2-spine1}, NIC links {@code srv4-nic2-up} ({@code -up1..P} with planes).
 */
public final class RailGenerator {
    public static final String FAMILY = "rail";

    /** Parameters; the constructor rejects out-of-range values with a message naming the field. */
    public record Params(String id, int servers, int railsPerServer, int serversPerGroup, int spines, int planes,
                         double nicGbps, double uplinkGbps, long nicLatencyNs, long uplinkLatencyNs) {
        public Params {
            id = Check.id("id", id == null ? "rail-" + servers + "x" + railsPerServer : id);
            Check.atLeast("servers", servers, 1);
            Check.atLeast("railsPerServer", railsPerServer, 1);
            Check.atLeast("serversPerGroup", serversPerGroup, 1);
            if (servers % serversPerGroup != 0) {
                throw new IllegalArgumentException("servers: must be a multiple of serversPerGroup ("
                        + serversPerGroup + "), got " + servers);
            }
            Check.atLeast("spines", spines, 1);
            Check.between("planes", planes, 1, 16);
            Check.positive("nicGbps", nicGbps);
            Check.positive("uplinkGbps", uplinkGbps);
            Check.notNegative("nicLatencyNs", nicLatencyNs);
            Check.notNegative("uplinkLatencyNs", uplinkLatencyNs);
            Check.size(FAMILY, (long) servers * railsPerServer
                    + (long) planes * ((long) servers / serversPerGroup * railsPerServer + spines));
        }

        /** One plane, 400G NIC and uplinks, 100/500 ns, id derived from the shape. */
        public static Params of(int servers, int railsPerServer, int serversPerGroup, int spines) {
            return new Params(null, servers, railsPerServer, serversPerGroup, spines, 1, 400, 400, 100, 500);
        }

        public int groups() {
            return servers / serversPerGroup;
        }
    }

    private RailGenerator() {
    }

    public static Fabric generate(Params p) {
        Map<String, Object> rec = new LinkedHashMap<>();
        rec.put("servers", p.servers());
        rec.put("railsPerServer", p.railsPerServer());
        rec.put("serversPerGroup", p.serversPerGroup());
        rec.put("spines", p.spines());
        rec.put("planes", p.planes());
        rec.put("nicGbps", GeneratedFabricBuilder.number(p.nicGbps()));
        rec.put("uplinkGbps", GeneratedFabricBuilder.number(p.uplinkGbps()));
        rec.put("nicLatencyNs", p.nicLatencyNs());
        rec.put("uplinkLatencyNs", p.uplinkLatencyNs());
        GeneratedFabricBuilder b = new GeneratedFabricBuilder(p.id(), "rail-optimized, " + p.servers() + " servers x "
                + p.railsPerServer() + " rails" + (p.planes() > 1 ? ", " + p.planes() + " planes" : ""), FAMILY, rec);
        for (int pl = 0; pl < p.planes(); pl++) {
            for (int g = 0; g < p.groups(); g++) {
                for (int r = 0; r < p.railsPerServer(); r++) {
                    b.add(Node.builder(leaf(p, pl, g, r), Role.LEAF).group(g).rail(r).plane(pl).build());
                }
            }
            for (int s = 0; s < p.spines(); s++) {
                b.add(Node.builder(spine(p, pl, s), Role.SPINE).plane(pl).build());
            }
        }
        for (int pl = 0; pl < p.planes(); pl++) {
            for (int g = 0; g < p.groups(); g++) {
                for (int r = 0; r < p.railsPerServer(); r++) {
                    for (int s = 0; s < p.spines(); s++) {
                        String leaf = leaf(p, pl, g, r);
                        String spine = spine(p, pl, s);
                        b.link(leaf + "-spine" + (s + 1), leaf, spine,
                                p.uplinkGbps(), p.uplinkLatencyNs());
                    }
                }
            }
        }
        for (int srv = 0; srv < p.servers(); srv++) {
            int g = srv / p.serversPerGroup();
            String server = "srv" + (srv + 1);
            for (int r = 0; r < p.railsPerServer(); r++) {
                String nic = server + "-nic" + (r + 1);
                b.add(Node.builder(nic, Role.NIC).group(g).rail(r).server(server).build());
                for (int pl = 0; pl < p.planes(); pl++) {
                    b.link(nic + "-up" + (p.planes() > 1 ? Integer.toString(pl + 1) : ""), nic, leaf(p, pl, g, r),
                            p.nicGbps(), p.nicLatencyNs());
                }
            }
        }
        return b.build();
    }

    private static String leaf(Params p, int plane, int group, int rail) {
        return planePrefix(p, plane) + "g" + (group + 1) + "-rail" + (rail + 1);
    }

    private static String spine(Params p, int plane, int s) {
        return planePrefix(p, plane) + "spine" + (s + 1);
    }

    private static String planePrefix(Params p, int plane) {
        return p.planes() > 1 ? "pl" + (plane + 1) + "-" : "";
    }
}
