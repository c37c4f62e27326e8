package io.weft.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * One fixture per kind of problem: a small valid fabric (2 leaves, 1 spine, 2 NICs) with one thing
 * broken, and the exact message expected.
 */
class FabricValidatorTest {

    private static final String VALID = "{\"schemaVersion\":1,\"id\":\"tiny\",\"srv6\":{\"block\":\"fcbb:bb00::/32\"},"
            + "\"tenants\":[\"default\",\"blue\"],"
            + "\"nodes\":["
            + "{\"id\":\"leaf1\",\"role\":\"leaf\",\"srv6NodeId\":17},"
            + "{\"id\":\"leaf2\",\"role\":\"leaf\",\"srv6NodeId\":18},"
            + "{\"id\":\"spine1\",\"role\":\"spine\",\"address\":\"2001:db8::1\"},"
            + "{\"id\":\"h1\",\"role\":\"nic\",\"address\":\"2001:db8:1::10\"},"
            + "{\"id\":\"h2\",\"role\":\"nic\"}],"
            + "\"links\":["
            + "{\"id\":\"l1\",\"a\":{\"node\":\"leaf1\",\"port\":\"eth1\"},\"b\":{\"node\":\"spine1\",\"port\":"
            + "\"eth1\"},"
            + "\"capacityGbps\":400,\"latencyNs\":500},"
            + "{\"id\":\"l2\",\"a\":{\"node\":\"leaf2\",\"port\":\"eth1\"},\"b\":{\"node\":\"spine1\",\"port\":"
            + "\"eth2\"},"
            + "\"capacityGbps\":400},"
            + "{\"id\":\"h1-up\",\"a\":{\"node\":\"h1\",\"port\":\"eth1\"},\"b\":{\"node\":\"leaf1\",\"port\":"
            + "\"eth2\"},"
            + "\"capacityGbps\":100},"
            + "{\"id\":\"h2-up\",\"a\":{\"node\":\"h2\",\"port\":\"eth1\"},\"b\":{\"node\":\"leaf2\",\"port\":"
            + "\"eth2\"},"
            + "\"capacityGbps\":100}]}";

    private static List<String> problemsAfter(Consumer<ObjectNode> edit) throws Exception {
        ObjectNode root = (ObjectNode) FabricJson.mapper().readTree(VALID);
        edit.accept(root);
        return FabricValidator.validate(FabricJson.fromTree(root));
    }

    private static ObjectNode node(ObjectNode root, int i) {
        return (ObjectNode) root.get("nodes").get(i);
    }

    private static ObjectNode link(ObjectNode root, int i) {
        return (ObjectNode) root.get("links").get(i);
    }

    private static ObjectNode addLink(ObjectNode root, String id, String a, String pa, String b, String pb) {
        ObjectNode l = ((ArrayNode) root.get("links")).addObject();
        l.put("id", id);
        l.putObject("a").put("node", a).put("port", pa);
        l.putObject("b").put("node", b).put("port", pb);
        l.put("capacityGbps", 100);
        return l;
    }

    @Test
    void theBaseFixtureIsValid() throws Exception {
        assertThat(problemsAfter(r -> { })).isEmpty();
    }

    @Test
    void unknownNodeInALink() throws Exception {
        assertThat(problemsAfter(r -> ((ObjectNode) link(r, 1).get("b")).put("node", "spine9")))
                .containsExactly("link l2: unknown node \"spine9\" (end b)");
    }

    @Test
    void duplicateNodeId() throws Exception {
        assertThat(problemsAfter(r -> node(r, 1).put("id", "leaf1").remove("srv6NodeId")))
                .contains("node leaf1: duplicate id (also $.nodes[0])");
    }

    @Test
    void duplicateLinkId() throws Exception {
        assertThat(problemsAfter(r -> link(r, 1).put("id", "l1")))
                .containsExactly("link l1: duplicate id (also $.links[0])");
    }

    @Test
    void nicAttachedToTwoLeavesInOnePlane() throws Exception {
        assertThat(problemsAfter(r -> addLink(r, "h1-up2", "h1", "eth2", "leaf2", "eth3")))
                .containsExactly("nic h1: attached to two leaves in plane 0 (leaf1, leaf2)");
    }

    @Test
    void nicOnTwoLeavesOfDifferentPlanesIsFine() throws Exception {
        assertThat(problemsAfter(r -> {
            node(r, 1).put("plane", 1);
            addLink(r, "h1-up2", "h1", "eth2", "leaf2", "eth3");
        })).isEmpty();
    }

    @Test
    void srv6NodeIdCollision() throws Exception {
        assertThat(problemsAfter(r -> node(r, 1).put("srv6NodeId", 17)))
                .containsExactly("srv6NodeId 17 used by both leaf1 and leaf2");
    }

    @Test
    void srv6NodeIdOutOfRange() throws Exception {
        assertThat(problemsAfter(r -> node(r, 0).put("srv6NodeId", 0)))
                .containsExactly("leaf leaf1: srv6NodeId must be in 1..57343 (0x0001-0xDFFF; got 0)");
        assertThat(problemsAfter(r -> node(r, 0).put("srv6NodeId", 0xE000)))
                .containsExactly("leaf leaf1: srv6NodeId must be in 1..57343 (0x0001-0xDFFF; got 57344)");
    }

    @Test
    void srv6NodeIdOnANic() throws Exception {
        assertThat(problemsAfter(r -> node(r, 3).put("srv6NodeId", 99)))
                .containsExactly("nic h1: srv6NodeId is for switches only (NICs have no uN locator)");
    }

    @Test
    void gnmiEndpointsAreCheckedNamingTheSwitchAndField() throws Exception {
        assertThat(problemsAfter(r -> node(r, 0).putObject("gnmi").put("address", "127.0.0.1").put("port", 50001)))
                .isEmpty();
        assertThat(problemsAfter(r -> node(r, 3).putObject("gnmi").put("address", "127.0.0.1")))
                .containsExactly("nic h1: gnmi is for switches only (the controller configures switches, not NICs)");
        assertThat(problemsAfter(r -> node(r, 0).putObject("gnmi").put("address", "127.0.0.1").put("port", 70000)))
                .containsExactly("leaf leaf1: gnmi.port must be in 1..65535 (got 70000)");
        assertThat(problemsAfter(r -> node(r, 0).putObject("gnmi").put("address", "sw1").put("tls", true)
                .put("certFile", "c.pem")))
                .containsExactly("leaf leaf1: gnmi.certFile and gnmi.keyFile go together (mutual TLS needs both)");
        assertThat(problemsAfter(r -> node(r, 0).putObject("gnmi").put("address", "sw1").put("caFile", "ca.pem")))
                .containsExactly("leaf leaf1: gnmi.tls is false but certificate files are given (set \"tls\": true)");
        assertThat(problemsAfter(r -> node(r, 0).putObject("gnmi").put("address", "sw1").put("usernameEnv", "A-B")))
                .containsExactly("leaf leaf1: gnmi environment variable name \"A-B\" is not a valid name "
                        + "([A-Za-z_][A-Za-z0-9_]*)");
        assertThat(problemsAfter(r -> node(r, 0).putObject("gnmi").put("address", "sw1").put("passwordEnv", "PW")))
                .containsExactly("leaf leaf1: gnmi.passwordEnv without gnmi.usernameEnv");
        assertThat(problemsAfter(r -> {
            node(r, 0).putObject("gnmi").put("address", "127.0.0.1").put("port", 50001);
            node(r, 1).putObject("gnmi").put("address", "127.0.0.1").put("port", 50001);
        })).containsExactly("gnmi endpoint 127.0.0.1:50001 used by both leaf1 and leaf2");
    }

    @Test
    void capacityNotPositive() throws Exception {
        assertThat(problemsAfter(r -> link(r, 0).put("capacityGbps", 0)))
                .containsExactly("link l1: capacityGbps must be > 0 (got 0)");
        assertThat(problemsAfter(r -> link(r, 0).put("capacityGbps", -2.5)))
                .containsExactly("link l1: capacityGbps must be > 0 (got -2.5)");
    }

    @Test
    void negativeLatency() throws Exception {
        assertThat(problemsAfter(r -> link(r, 0).put("latencyNs", -1)))
                .containsExactly("link l1: latencyNs must be >= 0 (got -1)");
    }

    @Test
    void blockNotASlash32() throws Exception {
        assertThat(problemsAfter(r -> ((ObjectNode) r.get("srv6")).put("block", "fcbb:bb00::/48")))
                .containsExactly("srv6.block \"fcbb:bb00::/48\" is not a /32");
        assertThat(problemsAfter(r -> ((ObjectNode) r.get("srv6")).put("block", "fcbb:bb00:1::/32")))
                .containsExactly("srv6.block \"fcbb:bb00:1::/32\" has bits set after the /32");
        assertThat(problemsAfter(r -> ((ObjectNode) r.get("srv6")).put("block", "fcbb:zz00::/32")))
                .containsExactly("srv6.block \"fcbb:zz00::/32\" is not an IPv6 prefix (expected e.g. fcbb:bb00::/32)");
    }

    @Test
    void selfLoop() throws Exception {
        assertThat(problemsAfter(r -> ((ObjectNode) link(r, 0).get("b")).put("node", "leaf1").put("port", "eth9")))
                .containsExactly("link l1: both ends on node leaf1");
    }

    @Test
    void portUsedTwiceOnOneNode() throws Exception {
        assertThat(problemsAfter(r -> ((ObjectNode) link(r, 1).get("b")).put("port", "eth1")))
                .containsExactly("node spine1: port eth1 used by two links (l1, l2)");
    }

    @Test
    void invalidPortName() throws Exception {
        assertThat(problemsAfter(r -> ((ObjectNode) link(r, 1).get("b")).put("port", "eth 2")))
                .containsExactly("link l2: invalid port name \"eth 2\" (end b; 1-64 letters, digits, '.', '_', ':', "
                        + "'/' or '-')");
    }

    @Test
    void nicWithoutLink() throws Exception {
        assertThat(problemsAfter(r -> ((ArrayNode) r.get("links")).remove(3)))
                .containsExactly("nic h2: no link (a NIC attaches to a leaf or a router)");
    }

    @Test
    void nicLinkedToANicOrASpine() throws Exception {
        assertThat(problemsAfter(r -> addLink(r, "h1-h2", "h1", "eth2", "h2", "eth2")))
                .containsExactly("nic h1: link h1-h2 goes to nic h2 (a NIC attaches only to a leaf or a router)",
                        "nic h2: link h1-h2 goes to nic h1 (a NIC attaches only to a leaf or a router)");
        assertThat(problemsAfter(r -> addLink(r, "h1-s", "h1", "eth2", "spine1", "eth3")))
                .containsExactly("nic h1: link h1-s goes to spine spine1 (a NIC attaches only to a leaf or a router)");
    }

    @Test
    void invalidAddress() throws Exception {
        assertThat(problemsAfter(r -> node(r, 3).put("address", "2001:db8::zz")))
                .containsExactly("nic h1: address \"2001:db8::zz\" is not a valid IPv6 address");
        assertThat(problemsAfter(r -> node(r, 3).put("address", "10.0.0.1")))
                .containsExactly("nic h1: address \"10.0.0.1\" is not a valid IPv6 address");
    }

    @Test
    void duplicateAddressEvenWhenWrittenDifferently() throws Exception {
        assertThat(problemsAfter(r -> node(r, 4).put("address", "2001:0db8:0001:0:0:0:0:0010")))
                .containsExactly("address 2001:0db8:0001:0:0:0:0:0010 used by both h1 and h2");
    }

    @Test
    void tenantsDuplicatedOrInvalid() throws Exception {
        assertThat(problemsAfter(r -> ((ArrayNode) r.get("tenants")).add("blue").add("red team")))
                .containsExactly("tenant \"blue\": listed twice",
                        "tenant \"red team\": invalid name (1-128 letters, digits, '.', '_' or '-', "
                                + "starting with a letter or digit)");
    }

    @Test
    void nodeIdSyntax() throws Exception {
        assertThat(problemsAfter(r -> {
            node(r, 2).put("id", "spine>1");
            ((ObjectNode) link(r, 0).get("b")).put("node", "spine>1");
            ((ObjectNode) link(r, 1).get("b")).put("node", "spine>1");
        })).containsExactly("node \"spine>1\" ($.nodes[2]): invalid id (1-128 letters, digits, '.', '_' or '-', "
                + "starting with a letter or digit)");
    }

    @Test
    void negativeGroupingField() throws Exception {
        assertThat(problemsAfter(r -> node(r, 2).put("plane", -1)))
                .containsExactly("spine spine1: plane must be >= 0 (got -1)");
    }

    @Test
    void reportsEveryProblemInAStableOrder() throws Exception {
        List<String> problems = problemsAfter(r -> {
            link(r, 0).put("capacityGbps", 0);
            ((ObjectNode) link(r, 1).get("a")).put("node", "ghost");
            node(r, 1).put("srv6NodeId", 17);
        });
        assertThat(problems).containsExactly(
                "link l1: capacityGbps must be > 0 (got 0)",
                "link l2: unknown node \"ghost\" (end a)",
                "srv6NodeId 17 used by both leaf1 and leaf2");
    }

    @Test
    void requireValidThrowsWithTheFirstProblemsOnOneLine() throws Exception {
        ObjectNode root = (ObjectNode) FabricJson.mapper().readTree(VALID);
        for (int i = 0; i < 4; i++) {
            link(root, i).put("capacityGbps", 0);
        }
        Fabric f = FabricJson.fromTree(root);
        assertThatThrownBy(() -> FabricValidator.requireValid(f))
                .isInstanceOf(FabricFormatException.class)
                .hasMessage("link l1: capacityGbps must be > 0 (got 0); link l2: capacityGbps must be > 0 (got 0); "
                        + "link h1-up: capacityGbps must be > 0 (got 0) (and 1 more)");
        FabricValidator.requireValid(FabricJson.parse(VALID));
    }

    @Test
    void parsesIpv6TextStrictly() {
        assertThat(FabricValidator.parseIpv6("::")).hasSize(16);
        assertThat(FabricValidator.parseIpv6("::ffff:10.0.0.1")).isNotNull();
        assertThat(FabricValidator.parseIpv6("1:2:3:4:5:6:7:8")).isNotNull();
        assertThat(FabricValidator.parseIpv6("fe80::1%eth0")).isNull();
        assertThat(FabricValidator.parseIpv6("1:2:3:4:5:6:7:8:9")).isNull();
        assertThat(FabricValidator.parseIpv6("1::2::3")).isNull();
        assertThat(FabricValidator.parseIpv6("12345::")).isNull();
        assertThat(FabricValidator.parseIpv6("1:2:3:4:5:6:7::8")).isNull();
        assertThat(FabricValidator.parseIpv6("host.example")).isNull();
        assertThat(FabricValidator.parseIpv6("::1.2.3.256")).isNull();
    }
}
