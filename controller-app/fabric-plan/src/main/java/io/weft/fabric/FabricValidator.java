package io.weft.fabric;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Structural checks across a whole fabric, the ones a JSON schema cannot express: link ends name
 * existing nodes, ids and ports are unique, NICs hang off exactly one leaf or router per plane,
 * explicit SRv6 node ids and addresses do not collide, the block is a /32.
 *
 * <p>Every problem is reported (not just the first) as one line that names the place, in a fixed
 * order (fabric fields, nodes, links, then cross-checks) so output is stable. Syntax rules follow
 * contracts/fabric.schema.json. Runs in O(nodes + links).
 */
public final class FabricValidator {
    /** contracts/fabric.schema.json $defs.id: no '>' (arc keys), no '|' (SONiC keys), no spaces. */
    static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    static final Pattern PORT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/-]{0,63}");
    /** Highest uN id: 0xE000-0xFFFF are per-node function ids (the uSID local block). */
    public static final int MAX_NODE_ID = 0xDFFF;
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final int MAX_PROBLEMS_IN_EXCEPTION = 3;
    private static final String HEX = "0123456789abcdef";

    private FabricValidator() {
    }

    /** All problems of the fabric, one line each; empty when it is valid. */
    public static List<String> validate(Fabric f) {
        List<String> out = new ArrayList<>();
        if (!ID.matcher(f.id()).matches()) {
            out.add("id \"" + f.id() + "\": " + idRule());
        }
        checkBlock(f.srv6Block(), out);
        checkTenants(f.tenants(), out);
        Map<String, Integer> firstIndex = checkNodes(f, out);
        checkLinks(f, firstIndex, out);
        checkNics(f, out);
        checkCollisions(f, out);
        return out;
    }

    /** Throws with the first problems (one line) when the fabric is not valid. */
    public static void requireValid(Fabric f) throws FabricFormatException {
        List<String> problems = validate(f);
        if (problems.isEmpty()) {
            return;
        }
        List<String> first = problems.subList(0, Math.min(MAX_PROBLEMS_IN_EXCEPTION, problems.size()));
        String more = problems.size() > first.size() ? " (and " + (problems.size() - first.size()) + " more)" : "";
        throw new FabricFormatException(String.join("; ", first) + more);
    }

    private static String idRule() {
        return "invalid id (1-128 letters, digits, '.', '_' or '-', starting with a letter or digit)";
    }

    private static void checkBlock(String block, List<String> out) {
        int slash = block.indexOf('/');
        byte[] addr = slash < 0 ? null : parseIpv6(block.substring(0, slash));
        if (addr == null) {
            out.add("srv6.block \"" + block + "\" is not an IPv6 prefix (expected e.g. fcbb:bb00::/32)");
            return;
        }
        if (!block.substring(slash + 1).equals("32")) {
            out.add("srv6.block \"" + block + "\" is not a /32");
            return;
        }
        for (int i = 4; i < 16; i++) {
            if (addr[i] != 0) {
                out.add("srv6.block \"" + block + "\" has bits set after the /32");
                return;
            }
        }
    }

    private static void checkTenants(List<String> tenants, List<String> out) {
        Set<String> seen = new LinkedHashSet<>();
        for (String t : tenants) {
            if (!ID.matcher(t).matches()) {
                out.add("tenant \"" + t + "\": invalid name (1-128 letters, digits, '.', '_' or '-', "
                        + "starting with a letter or digit)");
            } else if (!seen.add(t)) {
                out.add("tenant \"" + t + "\": listed twice");
            }
        }
    }

    /** Returns node id -> index of its first occurrence. */
    private static Map<String, Integer> checkNodes(Fabric f, List<String> out) {
        Map<String, Integer> firstIndex = new HashMap<>();
        List<Node> nodes = f.nodes();
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            String what = n.role().jsonName() + " " + n.id();
            if (!ID.matcher(n.id()).matches()) {
                out.add("node \"" + n.id() + "\" ($.nodes[" + i + "]): " + idRule());
            }
            Integer prev = firstIndex.putIfAbsent(n.id(), i);
            if (prev != null) {
                out.add("node " + n.id() + ": duplicate id (also $.nodes[" + prev + "])");
            }
            notNegative(what, "pod", n.pod(), out);
            notNegative(what, "group", n.group(), out);
            notNegative(what, "plane", n.plane(), out);
            notNegative(what, "rail", n.rail(), out);
            if (n.server() != null && !ID.matcher(n.server()).matches()) {
                out.add(what + ": server \"" + n.server() + "\": " + idRule());
            }
            if (n.srv6NodeId() != null) {
                if (!n.role().isSwitch()) {
                    out.add(what + ": srv6NodeId is for switches only (NICs have no uN locator)");
                } else if (n.srv6NodeId() < 1 || n.srv6NodeId() > MAX_NODE_ID) {
                    // 0xE000-0xFFFF are per-node functions (uDT, uA): a uN id there would be ambiguous.
                    out.add(what + ": srv6NodeId must be in 1..57343 (0x0001-0xDFFF; got " + n.srv6NodeId() + ")");
                }
            }
            if (n.address() != null && parseIpv6(n.address()) == null) {
                out.add(what + ": address \"" + n.address() + "\" is not a valid IPv6 address");
            }
            if (n.gnmi() != null) {
                checkGnmi(what, n, out);
            }
        }
        checkGnmiEndpointsUnique(nodes, out);
        return firstIndex;
    }

    private static void checkGnmi(String what, Node n, List<String> out) {
        GnmiEndpoint g = n.gnmi();
        if (!n.role().isSwitch()) {
            out.add(what + ": gnmi is for switches only (the controller configures switches, not NICs)");
        }
        if (g.address().isEmpty() || g.address().chars().anyMatch(Character::isWhitespace)) {
            out.add(what + ": gnmi.address \"" + g.address() + "\" is not a host name or IP address");
        }
        if (g.port() < 1 || g.port() > 65535) {
            out.add(what + ": gnmi.port must be in 1..65535 (got " + g.port() + ")");
        }
        if ((g.certFile() == null) != (g.keyFile() == null)) {
            out.add(what + ": gnmi.certFile and gnmi.keyFile go together (mutual TLS needs both)");
        }
        if (!g.tls() && (g.caFile() != null || g.certFile() != null || g.keyFile() != null)) {
            out.add(what + ": gnmi.tls is false but certificate files are given (set \"tls\": true)");
        }
        for (String env : new String[] {g.usernameEnv(), g.passwordEnv()}) {
            if (env != null && !ENV_NAME.matcher(env).matches()) {
                out.add(what + ": gnmi environment variable name \"" + env
                        + "\" is not a valid name ([A-Za-z_][A-Za-z0-9_]*)");
            }
        }
        if (g.passwordEnv() != null && g.usernameEnv() == null) {
            out.add(what + ": gnmi.passwordEnv without gnmi.usernameEnv");
        }
    }

    /** Two switches on one gNMI endpoint would be configured with each other's intents. */
    private static void checkGnmiEndpointsUnique(List<Node> nodes, List<String> out) {
        Map<String, String> seen = new HashMap<>();
        for (Node n : nodes) {
            if (n.gnmi() != null) {
                String ep = n.gnmi().address() + ":" + n.gnmi().port();
                String other = seen.putIfAbsent(ep, n.id());
                if (other != null) {
                    out.add("gnmi endpoint " + ep + " used by both " + other + " and " + n.id());
                }
            }
        }
    }

    private static void notNegative(String what, String field, Integer v, List<String> out) {
        if (v != null && v < 0) {
            out.add(what + ": " + field + " must be >= 0 (got " + v + ")");
        }
    }

    private static void checkLinks(Fabric f, Map<String, Integer> nodeIndex, List<String> out) {
        Map<String, Integer> firstIndex = new HashMap<>();
        // node -> port -> first link using it
        Map<String, Map<String, String>> ports = new HashMap<>();
        List<Link> links = f.links();
        for (int i = 0; i < links.size(); i++) {
            Link l = links.get(i);
            String what = "link " + l.id();
            if (!ID.matcher(l.id()).matches()) {
                out.add("link \"" + l.id() + "\" ($.links[" + i + "]): " + idRule());
            }
            Integer prev = firstIndex.putIfAbsent(l.id(), i);
            if (prev != null) {
                out.add(what + ": duplicate id (also $.links[" + prev + "])");
            }
            checkEnd(what, "a", l.a(), nodeIndex, ports, l, out);
            checkEnd(what, "b", l.b(), nodeIndex, ports, l, out);
            if (l.a().node().equals(l.b().node())) {
                out.add(what + ": both ends on node " + l.a().node());
            }
            double cap = l.capacityGbps();
            if (!(cap > 0) || Double.isInfinite(cap)) {
                out.add(what + ": capacityGbps must be > 0 (got " + number(cap) + ")");
            }
            if (l.latencyNs() < 0) {
                out.add(what + ": latencyNs must be >= 0 (got " + l.latencyNs() + ")");
            }
        }
    }

    private static void checkEnd(String what, String end, Endpoint e, Map<String, Integer> nodeIndex,
                                 Map<String, Map<String, String>> ports, Link l, List<String> out) {
        if (!nodeIndex.containsKey(e.node())) {
            out.add(what + ": unknown node \"" + e.node() + "\" (end " + end + ")");
            return;
        }
        if (!PORT.matcher(e.port()).matches()) {
            out.add(what + ": invalid port name \"" + e.port() + "\" (end " + end
                    + "; 1-64 letters, digits, '.', '_', ':', '/' or '-')");
            return;
        }
        String other = ports.computeIfAbsent(e.node(), k -> new HashMap<>()).putIfAbsent(e.port(), l.id());
        if (other != null) {
            out.add("node " + e.node() + ": port " + e.port() + " used by two links (" + other + ", " + l.id() + ")");
        }
    }

    private static String number(double v) {
        return v == Math.rint(v) && !Double.isInfinite(v) ? Long.toString((long) v) : Double.toString(v);
    }

    /** Every NIC has a link, only to leaves or routers, and at most one such switch per plane. */
    private static void checkNics(Fabric f, List<String> out) {
        Set<String> done = new LinkedHashSet<>();
        for (Node nic : f.nodes()) {
            if (nic.role() != Role.NIC || !done.add(nic.id())) {
                continue;
            }
            String what = "nic " + nic.id();
            List<Link> links = f.linksOf(nic.id());
            if (links.isEmpty()) {
                out.add(what + ": no link (a NIC attaches to a leaf or a router)");
                continue;
            }
            // plane -> switches the NIC is attached to in that plane, in link order
            Map<Integer, Set<String>> byPlane = new LinkedHashMap<>();
            for (Link l : links) {
                if (l.a().node().equals(l.b().node())) {
                    continue;
                }
                Node peer = f.node(l.otherEnd(nic.id()).node());
                if (peer == null) {
                    continue;
                }
                if (peer.role() != Role.LEAF && peer.role() != Role.ROUTER) {
                    out.add(what + ": link " + l.id() + " goes to " + peer.role().jsonName() + " " + peer.id()
                            + " (a NIC attaches only to a leaf or a router)");
                    continue;
                }
                int plane = peer.plane() == null ? 0 : peer.plane();
                byPlane.computeIfAbsent(plane, k -> new LinkedHashSet<>()).add(peer.id());
            }
            for (Map.Entry<Integer, Set<String>> e : byPlane.entrySet()) {
                if (e.getValue().size() > 1) {
                    String kind = f.node(e.getValue().iterator().next()).role() == Role.LEAF ? "leaves" : "switches";
                    out.add(what + ": attached to two " + kind + " in plane " + e.getKey() + " ("
                            + String.join(", ", e.getValue()) + ")");
                }
            }
        }
    }

    private static void checkCollisions(Fabric f, List<String> out) {
        Map<Integer, String> sids = new HashMap<>();
        Map<String, String> addresses = new HashMap<>();
        Set<String> done = new LinkedHashSet<>();
        for (Node n : f.nodes()) {
            if (!done.add(n.id())) {
                continue;
            }
            Integer sid = n.srv6NodeId();
            if (sid != null && n.role().isSwitch() && sid >= 1 && sid <= MAX_NODE_ID) {
                String other = sids.putIfAbsent(sid, n.id());
                if (other != null) {
                    out.add("srv6NodeId " + sid + " used by both " + other + " and " + n.id());
                }
            }
            byte[] addr = n.address() == null ? null : parseIpv6(n.address());
            if (addr != null) {
                String other = addresses.putIfAbsent(Arrays.toString(addr), n.id());
                if (other != null) {
                    out.add("address " + n.address() + " used by both " + other + " and " + n.id());
                }
            }
        }
    }

    /**
     * Parses IPv6 text (RFC 4291 §2.2: hex groups, one "::", optional dotted IPv4 tail; no zone, no
     * prefix length) without any name lookup. Returns the 16 bytes, or null when the text is not one.
     */
    static byte[] parseIpv6(String s) {
        if (s == null || s.isEmpty() || s.length() > 45) {
            return null;
        }
        int dc = s.indexOf("::");
        if (dc >= 0 && s.indexOf("::", dc + 1) >= 0) {
            return null;
        }
        List<Integer> head = new ArrayList<>();
        List<Integer> tail = new ArrayList<>();
        if (dc >= 0) {
            if (!groups(s.substring(0, dc), head, false) || !groups(s.substring(dc + 2), tail, true)) {
                return null;
            }
            if (head.size() + tail.size() > 7) {
                return null;
            }
        } else {
            if (!groups(s, head, true) || head.size() != 8) {
                return null;
            }
        }
        byte[] b = new byte[16];
        for (int i = 0; i < head.size(); i++) {
            b[2 * i] = (byte) (head.get(i) >> 8);
            b[2 * i + 1] = (byte) (int) head.get(i);
        }
        int start = 8 - tail.size();
        for (int i = 0; i < tail.size(); i++) {
            b[2 * (start + i)] = (byte) (tail.get(i) >> 8);
            b[2 * (start + i) + 1] = (byte) (int) tail.get(i);
        }
        return b;
    }

    /** Colon-separated 16-bit groups (an empty string is zero groups); IPv4 tail allowed if last. */
    private static boolean groups(String s, List<Integer> into, boolean ipv4TailAllowed) {
        if (s.isEmpty()) {
            return true;
        }
        String[] parts = s.split(":", -1);
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            if (i == parts.length - 1 && ipv4TailAllowed && p.indexOf('.') >= 0) {
                int[] v4 = ipv4(p);
                if (v4 == null) {
                    return false;
                }
                into.add(v4[0] << 8 | v4[1]);
                into.add(v4[2] << 8 | v4[3]);
                continue;
            }
            if (p.isEmpty() || p.length() > 4) {
                return false;
            }
            int v = 0;
            for (int k = 0; k < p.length(); k++) {
                int d = HEX.indexOf(Character.toLowerCase(p.charAt(k)));
                if (d < 0) {
                    return false;
                }
                v = v << 4 | d;
            }
            into.add(v);
        }
        return true;
    }

    private static int[] ipv4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        int[] v = new int[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || (p.length() > 1 && p.charAt(0) == '0')) {
                return null;
            }
            for (int k = 0; k < p.length(); k++) {
                if (p.charAt(k) < '0' || p.charAt(k) > '9') {
                    return null;
                }
            }
            v[i] = Integer.parseInt(p);
            if (v[i] > 255) {
                return null;
            }
        }
        return v;
    }
}
