package io.weft.lab.fabric;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.fabric.Role;

/**
 * Shape figures of a fabric: node counts by role, switch radix (ports in use, NIC ports included)
 * and the switch-graph diameter.
 *
 * <p>Diameter convention: the largest hop count between two switches over switch-to-switch links only
 * (BFS from every switch; O(S·(S+L))). A leaf-to-leaf path through a 3-tier Clos
 * (leaf, spine, superspine, spine, leaf) counts 4. Returns -1 when the switch graph is disconnected.
 */
public final class FabricStats {
    private final Map<Role, Integer> countByRole;
    private final int links;
    private final int minRadix;
    private final int maxRadix;
    private final Fabric fabric;
    private int diameter = Integer.MIN_VALUE; // computed on first use: O(S·(S+L)) is the costly figure

    private FabricStats(Fabric fabric, Map<Role, Integer> countByRole, int links, int minRadix, int maxRadix) {
        this.fabric = fabric;
        this.countByRole = countByRole;
        this.links = links;
        this.minRadix = minRadix;
        this.maxRadix = maxRadix;
    }

    public static FabricStats of(Fabric f) {
        Map<Role, Integer> counts = new EnumMap<>(Role.class);
        for (Node n : f.nodes()) {
            counts.merge(n.role(), 1, Integer::sum);
        }
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (Node n : f.nodes()) {
            if (n.role().isSwitch()) {
                int r = f.linksOf(n.id()).size();
                min = Math.min(min, r);
                max = Math.max(max, r);
            }
        }
        return new FabricStats(f, counts, f.links().size(), min == Integer.MAX_VALUE ? 0 : min, max);
    }

    public int count(Role role) {
        return countByRole.getOrDefault(role, 0);
    }

    public int switches() {
        return countByRole.entrySet().stream().filter(e -> e.getKey().isSwitch()).mapToInt(Map.Entry::getValue).sum();
    }

    public int links() {
        return links;
    }

    public int minRadix() {
        return minRadix;
    }

    public int maxRadix() {
        return maxRadix;
    }

    public int diameter() {
        if (diameter == Integer.MIN_VALUE) {
            diameter = switchDiameter(fabric);
        }
        return diameter;
    }

    /** "4 leaves, 2 spines, 16 nics" in role order, roles with no node left out. */
    public String roleSummary() {
        List<String> parts = new ArrayList<>();
        for (Role r : new Role[] {Role.LEAF, Role.SPINE, Role.SUPERSPINE, Role.ROUTER, Role.NIC}) {
            int c = count(r);
            if (c > 0) {
                parts.add(c + " " + plural(r, c));
            }
        }
        return String.join(", ", parts);
    }

    private static String plural(Role r, int c) {
        String n = r.jsonName();
        if (c == 1) {
            return n;
        }
        return n.equals("leaf") ? "leaves" : n + "s";
    }

    /** Switch-graph diameter (see class doc), -1 if disconnected, 0 with fewer than two switches. */
    public static int switchDiameter(Fabric f) {
        List<String> switches = new ArrayList<>();
        Map<String, Integer> index = new HashMap<>();
        for (Node n : f.nodes()) {
            if (n.role().isSwitch() && !index.containsKey(n.id())) {
                index.put(n.id(), switches.size());
                switches.add(n.id());
            }
        }
        int[][] adj = new int[switches.size()][];
        for (int i = 0; i < switches.size(); i++) {
            List<Integer> nb = new ArrayList<>();
            for (Link l : f.linksOf(switches.get(i))) {
                if (l.a().node().equals(l.b().node())) {
                    continue;
                }
                Integer j = index.get(l.otherEnd(switches.get(i)).node());
                if (j != null) {
                    nb.add(j);
                }
            }
            adj[i] = nb.stream().mapToInt(Integer::intValue).toArray();
        }
        int diameter = 0;
        int[] dist = new int[switches.size()];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int s = 0; s < switches.size(); s++) {
            java.util.Arrays.fill(dist, -1);
            dist[s] = 0;
            queue.add(s);
            int seen = 1;
            while (!queue.isEmpty()) {
                int u = queue.poll();
                for (int v : adj[u]) {
                    if (dist[v] < 0) {
                        dist[v] = dist[u] + 1;
                        diameter = Math.max(diameter, dist[v]);
                        seen++;
                        queue.add(v);
                    }
                }
            }
            if (seen < switches.size()) {
                return -1;
            }
        }
        return diameter;
    }
}
