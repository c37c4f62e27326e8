package io.weft.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.weft.fabric.Endpoint;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.fabric.Role;

/**
 * Small hand-built fabrics for the core's tests. The real generators live in lab-topologies,
 * which depends on this module, so the core cannot use them.
 */
final class TestFabrics {
    private final String id;
    private final String family;
    private final List<Node> nodes = new ArrayList<>();
    private final List<Link> links = new ArrayList<>();
    private final Map<String, Integer> ports = new HashMap<>();
    private List<String> tenants = List.of("default");

    private TestFabrics(String id, String family) {
        this.id = id;
        this.family = family;
    }

    static TestFabrics named(String id, String family) {
        return new TestFabrics(id, family);
    }

    TestFabrics tenants(String... names) {
        tenants = List.of(names);
        return this;
    }

    TestFabrics node(String nodeId, Role role) {
        nodes.add(Node.builder(nodeId, role).build());
        return this;
    }

    TestFabrics node(Node n) {
        nodes.add(n);
        return this;
    }

    /** A link with the next free port on each end ("eth1", "eth2", ...); id a-b, a-b.2 for parallels. */
    TestFabrics link(String a, String b) {
        String base = a + "-" + b;
        String lid = base;
        for (int k = 2; hasLink(lid); k++) {
            lid = base + "." + k;
        }
        links.add(new Link(lid, new Endpoint(a, port(a)), new Endpoint(b, port(b)), 400, 500));
        return this;
    }

    private boolean hasLink(String lid) {
        return links.stream().anyMatch(l -> l.id().equals(lid));
    }

    private String port(String node) {
        int p = ports.merge(node, 1, Integer::sum);
        return "eth" + p;
    }

    Fabric build() {
        return new Fabric(id, id, family, "fcbb:bb00::/32", tenants, nodes, links, Map.of());
    }

    /** 2-tier leaf-spine: leaf1..L, spine1..S, NICs h&lt;leaf&gt;-&lt;k&gt;, {@code parallel} links per pair. */
    static Fabric leafSpine(int leaves, int spines, int nicsPerLeaf, int parallel) {
        TestFabrics f = named("ls-" + leaves + "x" + spines, "leaf-spine");
        for (int l = 1; l <= leaves; l++) {
            f.node("leaf" + l, Role.LEAF);
        }
        for (int s = 1; s <= spines; s++) {
            f.node("spine" + s, Role.SPINE);
        }
        for (int l = 1; l <= leaves; l++) {
            for (int k = 1; k <= nicsPerLeaf; k++) {
                String nic = "h" + l + "-" + k;
                f.node(nic, Role.NIC);
                f.link(nic, "leaf" + l);
            }
        }
        for (int l = 1; l <= leaves; l++) {
            for (int s = 1; s <= spines; s++) {
                for (int p = 0; p < parallel; p++) {
                    f.link("leaf" + l, "spine" + s);
                }
            }
        }
        return f.build();
    }

    /**
     * 3-tier Clos: pods with L leaves and S spines each; spine j of every pod links to superspine
     * plane j (superspines j*X+1..j*X+X), so each superspine reaches exactly one spine per pod.
     */
    static Fabric clos3(int pods, int leavesPerPod, int spinesPerPod, int superPerPlane) {
        TestFabrics f = named("clos3-" + pods, "fat-tree");
        for (int p = 1; p <= pods; p++) {
            for (int l = 1; l <= leavesPerPod; l++) {
                f.node(Node.builder("p" + p + "l" + l, Role.LEAF).pod(p).build());
            }
            for (int s = 1; s <= spinesPerPod; s++) {
                f.node(Node.builder("p" + p + "s" + s, Role.SPINE).pod(p).build());
            }
        }
        for (int j = 1; j <= spinesPerPod; j++) {
            for (int x = 1; x <= superPerPlane; x++) {
                f.node("ss" + j + "-" + x, Role.SUPERSPINE);
            }
        }
        for (int p = 1; p <= pods; p++) {
            for (int l = 1; l <= leavesPerPod; l++) {
                String nic = "h" + p + "-" + l;
                f.node(nic, Role.NIC);
                f.link(nic, "p" + p + "l" + l);
                for (int s = 1; s <= spinesPerPod; s++) {
                    f.link("p" + p + "l" + l, "p" + p + "s" + s);
                }
            }
            for (int s = 1; s <= spinesPerPod; s++) {
                for (int x = 1; x <= superPerPlane; x++) {
                    f.link("p" + p + "s" + s, "ss" + s + "-" + x);
                }
            }
        }
        return f.build();
    }

    /** Dragonfly(p, a, h) with g = a*h + 1 groups and the standard global wiring. */
    static Fabric dragonfly(int p, int a, int h) {
        int g = a * h + 1;
        TestFabrics f = named("df-" + p + "-" + a + "-" + h, "dragonfly");
        for (int i = 0; i < g; i++) {
            for (int r = 0; r < a; r++) {
                f.node(Node.builder("g" + i + "r" + r, Role.ROUTER).group(i).build());
            }
        }
        for (int i = 0; i < g; i++) {
            for (int r = 0; r < a; r++) {
                for (int k = 0; k < p; k++) {
                    String nic = "h" + i + "-" + r + "-" + k;
                    f.node(nic, Role.NIC);
                    f.link(nic, "g" + i + "r" + r);
                }
            }
        }
        for (int i = 0; i < g; i++) {
            for (int r = 0; r < a; r++) {
                for (int s = r + 1; s < a; s++) {
                    f.link("g" + i + "r" + r, "g" + i + "r" + s);
                }
            }
        }
        // Channel c = r*h + k of group i goes to group (i + c + 1) mod g; add each pair once.
        for (int i = 0; i < g; i++) {
            for (int c = 0; c < a * h; c++) {
                int j = (i + c + 1) % g;
                if (j < i) {
                    continue;
                }
                int back = ((i - j - 1) % g + g) % g;
                f.link("g" + i + "r" + (c / h), "g" + j + "r" + (back / h));
            }
        }
        return f.build();
    }

    /**
     * The Petersen graph (10 routers, degree 3, diameter 2: the Moore-bound shape Slim Fly approaches), one NIC each.
     */
    static Fabric petersen() {
        TestFabrics f = named("petersen", "custom");
        for (int i = 0; i < 10; i++) {
            f.node(Node.builder("r" + i, Role.ROUTER).group(i / 5).build());
        }
        for (int i = 0; i < 10; i++) {
            f.node("h" + i, Role.NIC);
            f.link("h" + i, "r" + i);
        }
        for (int i = 0; i < 5; i++) {
            f.link("r" + i, "r" + (i + 1) % 5);
            f.link("r" + (5 + i), "r" + (5 + (i + 2) % 5));
            f.link("r" + i, "r" + (5 + i));
        }
        return f.build();
    }
}
