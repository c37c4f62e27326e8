package io.weft.lab.netns;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Link;
import io.weft.lab.fabric.FatTreeGenerator;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import io.weft.plan.intent.DeviceIntent;
import io.weft.plan.srv6.Usid;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The lab is one more consumer of the plan: what it installs on a switch must be what the
 * switch's DeviceIntent (the gNMI payloads a real switch gets) says, SID for SID and next hop
 * for next hop. The only translation is the kernel's form of uA (see LabScript).
 */
class LabMatchesDeviceIntentTest {
    private static final String NEXT_CSID = " flavors next-csid lblen 32 nflen 16";

    static Stream<Fabric> fabrics() throws Exception {
        String twoTenants = Files.readString(Path.of("../../contracts/examples/leaf-spine-2x2.json"))
                .replace("\"tenants\": [\"default\"]", "\"tenants\": [\"default\", \"blue\"]");
        return Stream.of(
                FabricJson.parse(twoTenants),
                FatTreeGenerator.generate(FatTreeGenerator.kary(4)),
                LeafSpineGenerator.generate(new LeafSpineGenerator.Params("ls-par", 2, 2, 1, 2, 400, 400, 100, 500)),
                FabricJson.read(Path.of("../../contracts/examples/dragonfly-tiny.json")));
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void everySidAndUnderlayRouteOfTheIntentIsInstalled(Fabric fabric) throws Exception {
        FabricPlan plan = Planner.plan(fabric, null);
        LabLayout layout = new LabLayout(fabric, "t");
        Map<String, List<String>> lines = new LabScript(plan, layout).nodeLines();
        for (String sw : plan.switches()) {
            List<String> lab = lines.get(sw);
            Map<String, String> veth = new HashMap<>();
            for (Link l : fabric.linksOf(sw)) {
                veth.put(l.endOf(sw).port(), layout.iface(l.id(), sw));
            }
            JsonNode intent = DeviceIntent.render(plan, sw);
            int seg6local = 0;
            for (JsonNode op : intent.get("replace")) {
                String path = op.get("path").asText();
                JsonNode v = op.get("value");
                if (path.endsWith("SRV6_MY_SIDS")) {
                    for (var it = v.fields(); it.hasNext(); ) {
                        var e = it.next();
                        String prefix = e.getKey().substring("weft|".length());
                        JsonNode sid = e.getValue();
                        seg6local++;
                        switch (sid.get("action").asText()) {
                            case "uN" -> assertThat(lab).as(sw).contains("route add " + prefix
                                    + " encap seg6local action End" + NEXT_CSID + " dev sid0");
                            case "uDT46" -> assertThat(lab).as(sw).contains("route add " + prefix
                                    + " encap seg6local action End.DT6 table "
                                    + table(plan, sid.get("decap_vrf").asText())
                                    + " dev sid0");
                            case "uA" -> {
                                int fn = Usid.parse(plan.blockGroups(), prefix.substring(0, prefix.indexOf('/')))[1];
                                String dev = veth.get(sid.get("interface").asText());
                                assertThat(lab).as(sw).contains("route add " + Usid.address(plan.blockGroups(), fn)
                                        + "/48 encap seg6local action End.X nh6 " + sid.get("adj").asText() + " oif "
                                        + dev + NEXT_CSID + " dev " + dev);
                            }
                            default -> throw new AssertionError(sw + ": unexpected action " + sid);
                        }
                    }
                } else if (path.endsWith("[name=DEFAULT]")) {
                    for (JsonNode r : v.at("/protocols/protocol/0/static-routes/static")) {
                        assertThat(lab).as(sw).contains(route(r, veth, ""));
                    }
                } else if (path.contains("[name=Vrf-")) {
                    String vrf = path.substring(path.indexOf("[name=") + 6, path.length() - 1);
                    for (JsonNode p : v.at("/protocols/protocol")) {
                        if (p.get("name").asText().equals("LOCAL")) {
                            for (JsonNode r : p.at("/static-routes/static")) {
                                assertThat(lab).as(sw).contains(route(r, veth, " table " + table(plan, vrf)));
                            }
                        }
                    }
                }
            }
            // Nothing more: the extra seg6local lines are the decap functions' local-block form.
            long extra = plan.hasNics(sw) ? plan.tenants().size() : 0;
            assertThat(lab.stream().filter(l -> l.contains("seg6local")).count()).as(sw).isEqualTo(seg6local + extra);
        }
    }

    private static String route(JsonNode r, Map<String, String> veth, String table) {
        JsonNode hops = r.at("/next-hops/next-hop");
        StringBuilder b = new StringBuilder("route add ").append(r.get("prefix").asText());
        for (JsonNode h : hops) {
            b.append(hops.size() > 1 ? " nexthop" : "").append(" via ").append(h.at("/config/next-hop").asText())
                    .append(" dev ").append(veth.get(h.at("/interface-ref/config/interface").asText()));
        }
        return b.append(table).toString();
    }

    private static int table(FabricPlan plan, String vrfName) {
        for (String t : plan.tenants()) {
            if (plan.vrfName(t).equals(vrfName)) {
                return plan.vrfTable(t);
            }
        }
        throw new AssertionError("no tenant with VRF " + vrfName);
    }
}
