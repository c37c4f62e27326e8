package io.weft.lab.netns;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.fabric.Link;
import io.weft.plan.FabricPlan;
import io.weft.plan.intent.DeviceIntent;

/**
 * Entropy-value routing on the lab's kernel, rendered from each switch's {@link DeviceIntent}
 * (the tenant VRF's EV-STAGE1, EV-STAGE2 and MINIMAL static routes, next-hop index = member
 * index). The device policy OpenConfig cannot express, "stage by hop limit, member by EV byte",
 * becomes:
 *
 * <ul>
 *   <li>nftables (prerouting): a UDP packet with hop limit 64 (stage 1) or 63 (stage 2) gets
 *       mark {@code stage << 16 | r}, where r = EV byte mod L, looked up in a 256-entry map. L is
 *       the least common multiple of the stage's member counts on this switch (256 if that
 *       exceeds 256), so r mod n = EV byte mod n for every route's n.</li>
 *   <li>ip rules {@code fwmark stage<<16|r lookup <table>}: one table per (stage, r) holding, for
 *       every EV-STAGE route, member r mod n as its only next hop.</li>
 *   <li>Every port of the switch looks up the tenant table next (LOCAL + MINIMAL), then main:
 *       plain packets on the wire carry no VRF tag in the lab, so only the first tenant is EV
 *       routed; SRv6 packets find nothing in these tables and fall through to main.</li>
 * </ul>
 */
public final class EvScript {
    /** First routing table of the per-(stage, r) EV tables: 2000 + (stage - 1) * 256 + r. */
    static final int EV_TABLE_BASE = 2000;
    /** EV rules come before the tenant rules (1000 + tenant index). */
    static final int EV_RULE_PREF = 900;
    static final int FABRIC_VRF_RULE_PREF = 1100;

    private final FabricPlan plan;
    private final LabLayout layout;
    private final String tenant;
    private final Map<String, Routes> cache = new java.util.concurrent.ConcurrentHashMap<>();

    public EvScript(FabricPlan plan, LabLayout layout) {
        this.plan = plan;
        this.layout = layout;
        this.tenant = plan.tenants().get(0);
    }

    /** The ip -6 batch lines of a switch: EV tables, their rules, MINIMAL routes, port rules. */
    public List<String> ipLines(String sw) {
        Routes r = routes(sw);
        int table = plan.vrfTable(tenant);
        List<String> out = new ArrayList<>();
        for (int stage = 1; stage <= 2; stage++) {
            Map<String, List<String[]>> ev = stage == 1 ? r.stage1 : r.stage2;
            if (ev.isEmpty()) {
                continue;
            }
            int l = modulus(ev);
            for (int k = 0; k < l; k++) {
                int t = evTable(stage, k);
                for (Map.Entry<String, List<String[]>> e : ev.entrySet()) {
                    String[] hop = e.getValue().get(k % e.getValue().size());
                    out.add("route add " + e.getKey() + " via " + hop[0] + " dev " + hop[1] + " table " + t);
                }
                out.add("rule add fwmark " + mark(stage, k) + " lookup " + t + " pref " + EV_RULE_PREF);
            }
        }
        for (Map.Entry<String, List<String[]>> e : r.minimal.entrySet()) {
            // "table" before the next hops: iproute2 reads everything after "nexthop" as next-hop options.
            StringBuilder b = new StringBuilder("route add ").append(e.getKey()).append(" table ").append(table);
            List<String[]> hops = e.getValue();
            for (String[] h : hops) {
                b.append(hops.size() > 1 ? " nexthop" : "").append(" via ").append(h[0]).append(" dev ").append(h[1]);
            }
            out.add(b.toString());
        }
        for (Link l : plan.fabric().linksOf(sw)) {
            String peer = l.otherEnd(sw).node();
            if (plan.fabric().node(peer).role().isSwitch()) {
                out.add("rule add iif " + layout.iface(l.id(), sw) + " lookup " + table
                        + " pref " + FABRIC_VRF_RULE_PREF);
            }
        }
        return out;
    }

    /** The nft script of a switch (stdin of {@code nft -f -}), or null when it has no EV tables. */
    public String nftScript(String sw) {
        Routes r = routes(sw);
        if (r.stage1.isEmpty() && r.stage2.isEmpty()) {
            return null;
        }
        StringBuilder b = new StringBuilder("table ip6 weft_ev {\n  chain pre {\n")
                .append("    type filter hook prerouting priority mangle; policy accept;\n");
        for (int stage = 1; stage <= 2; stage++) {
            Map<String, List<String[]>> ev = stage == 1 ? r.stage1 : r.stage2;
            if (ev.isEmpty()) {
                continue;
            }
            int l = modulus(ev);
            b.append("    ip6 hoplimit ").append(65 - stage).append(" meta mark set udp sport & ")
                    .append(stage == 1 ? "0xff00" : "0x00ff").append(" map { ");
            for (int byteValue = 0; byteValue < 256; byteValue++) {
                int key = stage == 1 ? byteValue << 8 : byteValue;
                b.append(byteValue == 0 ? "" : ", ").append(key).append(" : ").append(mark(stage, byteValue % l));
            }
            b.append(" }\n");
        }
        return b.append("  }\n}\n").toString();
    }

    static int evTable(int stage, int r) {
        return EV_TABLE_BASE + (stage - 1) * 256 + r;
    }

    static String mark(int stage, int r) {
        return String.format("0x%x", (stage << 16) | r);
    }

    /** lcm of the member counts, or 256 when that is larger (then r is the EV byte itself). */
    static int modulus(Map<String, List<String[]>> ev) {
        long l = 1;
        for (List<String[]> hops : ev.values()) {
            l = lcm(l, hops.size());
            if (l > 256) {
                return 256;
            }
        }
        return (int) l;
    }

    private static long lcm(long a, long b) {
        return a / gcd(a, b) * b;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** Prefix to next hops {link-local, veth} in member order, per protocol of the tenant's VRF. */
    private static final class Routes {
        final Map<String, List<String[]>> stage1 = new LinkedHashMap<>();
        final Map<String, List<String[]>> stage2 = new LinkedHashMap<>();
        final Map<String, List<String[]>> minimal = new LinkedHashMap<>();
    }

    /** Rendering a DeviceIntent walks every destination: once per switch is enough. */
    private Routes routes(String sw) {
        return cache.computeIfAbsent(sw, this::render);
    }

    private Routes render(String sw) {
        Map<String, String> veth = new LinkedHashMap<>();
        for (Link l : plan.fabric().linksOf(sw)) {
            veth.putIfAbsent(l.endOf(sw).port(), layout.iface(l.id(), sw));
        }
        Routes r = new Routes();
        String path = "/network-instances/network-instance[name=" + plan.vrfName(tenant) + "]";
        for (JsonNode op : DeviceIntent.render(plan, sw).get("replace")) {
            if (!op.get("path").asText().equals(path)) {
                continue;
            }
            for (JsonNode p : op.at("/value/protocols/protocol")) {
                String name = p.get("name").asText();
                Map<String, List<String[]>> into = name.equals("EV-STAGE1") ? r.stage1
                        : name.equals("EV-STAGE2") ? r.stage2 : name.equals("MINIMAL") ? r.minimal : null;
                if (into == null) {
                    continue;
                }
                for (JsonNode route : p.at("/static-routes/static")) {
                    List<String[]> hops = new ArrayList<>();
                    for (JsonNode h : route.at("/next-hops/next-hop")) {
                        int index = Integer.parseInt(h.at("/config/index").asText());
                        if (index != hops.size()) {
                            throw new IllegalStateException(sw + " " + name + " " + route.get("prefix")
                                    + ": next-hop indexes are not 0, 1, ... in order");
                        }
                        String port = h.at("/interface-ref/config/interface").asText();
                        String dev = veth.get(port);
                        if (dev == null) {
                            throw new IllegalStateException(sw + ": intent names port " + port
                                    + ", which it does not have");
                        }
                        hops.add(new String[] {h.at("/config/next-hop").asText(), dev});
                    }
                    into.put(route.get("prefix").asText(), hops);
                }
            }
        }
        return r;
    }
}
