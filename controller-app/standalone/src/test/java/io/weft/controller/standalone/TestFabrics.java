package io.weft.controller.standalone;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.fabric.FabricJson;

/** Small leaf-spine fabric files without explicit SRv6 ids, so the planner allocates every id. */
final class TestFabrics {
    private TestFabrics() {
    }

    /** Leaves leaf1..leafL, spines spine1..spineS (full mesh), one NIC per leaf; links of capacityGbps. */
    static String leafSpine(String id, int leaves, int spines, int capacityGbps) {
        return leafSpine(id, range("leaf", 1, leaves), range("spine", 1, spines), capacityGbps);
    }

    static String leafSpine(String id, String[] leafIds, String[] spineIds, int capacityGbps) {
        ObjectNode root = FabricJson.mapper().createObjectNode();
        root.put("schemaVersion", 1).put("id", id).put("family", "leaf-spine");
        root.putObject("srv6").put("block", "fcbb:bb00::/32");
        root.putArray("tenants").add("default");
        ArrayNode nodes = root.putArray("nodes");
        ArrayNode links = root.putArray("links");
        for (String leaf : leafIds) {
            nodes.addObject().put("id", leaf).put("role", "leaf");
        }
        for (String spine : spineIds) {
            nodes.addObject().put("id", spine).put("role", "spine");
        }
        for (String leaf : leafIds) {
            String nic = "nic-" + leaf;
            nodes.addObject().put("id", nic).put("role", "nic");
            link(links, nic + "-" + leaf, nic, "eth1", leaf, "eth0", capacityGbps);
            int port = 1;
            for (String spine : spineIds) {
                link(links, leaf + "-" + spine, leaf, "eth" + port++, spine, "eth-" + leaf, capacityGbps);
            }
        }
        return root.toPrettyString();
    }

    static String[] range(String prefix, int from, int to) {
        String[] ids = new String[to - from + 1];
        for (int i = from; i <= to; i++) {
            ids[i - from] = prefix + i;
        }
        return ids;
    }

    /** Replaces the file's content the way an editor saving in place does. */
    static void write(Path file, String text) throws IOException {
        Files.writeString(file, text);
    }

    private static void link(ArrayNode links, String id, String a, String aPort, String b,
            String bPort, int capacityGbps) {
        ObjectNode l = links.addObject().put("id", id);
        l.putObject("a").put("node", a).put("port", aPort);
        l.putObject("b").put("node", b).put("port", bPort);
        l.put("capacityGbps", capacityGbps).put("latencyNs", 500);
    }
}
