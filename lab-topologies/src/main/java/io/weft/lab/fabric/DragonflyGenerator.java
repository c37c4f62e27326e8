package io.weft.lab.fabric;

import java.util.LinkedHashMap;
import java.util.Map;

import io.weft.fabric.Fabric;
import io.weft.fabric.Node;
import io.weft.fabric.Role;

/**
 * Dragonfly (Kim, Dally, Scott, Abts, ISCA 2008): {@code g} groups of {@code a} routers, all routers
 * of a group fully meshed, each router with {@code h} global ports and {@code p} NICs.
 *
 * <p>Global wiring (the "consecutive" arrangement): global channel {@code c = r·h + k} (router r,
 * port k) of group i goes to group {@code (i + c + 1) mod g}; only channels {@code c < g − 1} are
 * wired. Seen from the far group j the same link is its channel {@code (i − j − 1) mod g}, so every
 * pair of groups is joined exactly once; the link is built once, from the lower-numbered group.
 * With the maximum {@code g = a·h + 1} every global port is used and the switch diameter is 3
 * (local, global, local).
 *
 * <p>Ids (names 1-based, group field 0-based): routers {@code g3-r1}, NICs {@code g3-r1-nic2};
 * links {@code g3-r1-r2} (local), {@code g3-r1-g5-r2} (global), {@code g3-r1-nic2-up}.
 */
public final class DragonflyGenerator {
    public static final String FAMILY = "dragonfly";

    /** Parameters; {@code groups} 0 means the maximum a·h+1. */
    public record Params(String id, int p, int a, int h, int groups, double nicGbps, double localGbps,
                         double globalGbps, long nicLatencyNs, long localLatencyNs, long globalLatencyNs) {
        public Params {
            Check.atLeast("p", p, 0);
            Check.atLeast("a", a, 1);
            Check.atLeast("h", h, 1);
            int max = a * h + 1;
            groups = groups == 0 ? max : groups;
            Check.between("g", groups, 2, max);
            id = Check.id("id", id == null ? "df-" + p + "-" + a + "-" + h + (groups == max ? "" : "-g" + groups) : id);
            Check.positive("nicGbps", nicGbps);
            Check.positive("localGbps", localGbps);
            Check.positive("globalGbps", globalGbps);
            Check.notNegative("nicLatencyNs", nicLatencyNs);
            Check.notNegative("localLatencyNs", localLatencyNs);
            Check.notNegative("globalLatencyNs", globalLatencyNs);
            Check.size(FAMILY, (long) groups * a * (1L + p));
        }

        /** Dragonfly(p, a, h) with the maximum number of groups, 400G links. */
        public static Params of(int p, int a, int h) {
            return new Params(null, p, a, h, 0, 400, 400, 400, 100, 200, 1000);
        }
    }

    private DragonflyGenerator() {
    }

    public static Fabric generate(Params p) {
        Map<String, Object> rec = new LinkedHashMap<>();
        rec.put("p", p.p());
        rec.put("a", p.a());
        rec.put("h", p.h());
        rec.put("g", p.groups());
        rec.put("nicGbps", GeneratedFabricBuilder.number(p.nicGbps()));
        rec.put("localGbps", GeneratedFabricBuilder.number(p.localGbps()));
        rec.put("globalGbps", GeneratedFabricBuilder.number(p.globalGbps()));
        rec.put("nicLatencyNs", p.nicLatencyNs());
        rec.put("localLatencyNs", p.localLatencyNs());
        rec.put("globalLatencyNs", p.globalLatencyNs());
        int g = p.groups();
        GeneratedFabricBuilder b = new GeneratedFabricBuilder(p.id(),
                "dragonfly p=" + p.p() + " a=" + p.a() + " h=" + p.h()
                + " g=" + g, FAMILY, rec);
        for (int i = 0; i < g; i++) {
            for (int r = 0; r < p.a(); r++) {
                b.add(Node.builder(router(i, r), Role.ROUTER).group(i).build());
            }
        }
        for (int i = 0; i < g; i++) {
            for (int r = 0; r < p.a(); r++) {
                for (int s = r + 1; s < p.a(); s++) {
                    b.link(router(i, r) + "-r" + (s + 1), router(i, r), router(i, s),
                            p.localGbps(), p.localLatencyNs());
                }
            }
        }
        for (int i = 0; i < g; i++) {
            for (int c = 0; c < g - 1; c++) {
                int j = (i + c + 1) % g;
                if (j < i) {
                    continue; // built from group j's side
                }
                int back = Math.floorMod(i - j - 1, g);
                String from = router(i, c / p.h());
                String to = router(j, back / p.h());
                b.link(from + "-" + to, from, to, p.globalGbps(), p.globalLatencyNs());
            }
        }
        for (int i = 0; i < g; i++) {
            for (int r = 0; r < p.a(); r++) {
                for (int n = 1; n <= p.p(); n++) {
                    String nic = router(i, r) + "-nic" + n;
                    b.add(Node.builder(nic, Role.NIC).group(i).build());
                    b.link(nic + "-up", nic, router(i, r), p.nicGbps(), p.nicLatencyNs());
                }
            }
        }
        return b.build();
    }

    private static String router(int group, int r) {
        return "g" + (group + 1) + "-r" + (r + 1);
    }
}
