package io.weft.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weft.contracts.Contracts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The strict reader: every error is one line naming the place; writing round-trips. */
class FabricJsonTest {
    private static final String HEAD = "{\"schemaVersion\":1,\"id\":\"f\",";

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"schemaVersion\":1,\"id\":\"x\",\"nodes\":[                 | not valid JSON at line 1, column 38: "
                + "Unexpected end-of-input: expected close marker for Array",
        "[]                                                            | $: must be an object",
        "{\"schemaVersion\":2,\"id\":\"f\",\"nodes\":[],\"links\":[]}   | $.schemaVersion: 2 is not supported "
                + "(expected 1)",
        "{\"schemaVersion\":1,\"nodes\":[],\"links\":[]}              | $.id: required",
        "{\"schemaVersion\":1,\"id\":\"f\",\"nodes\":[],\"links\":[],\"colour\":1} | $.colour: unknown field",
        "{\"schemaVersion\":1,\"id\":\"f\",\"nodes\":{},\"links\":[]}   | $.nodes: must be an array",
        "{\"schemaVersion\":1,\"id\":\"f\",\"nodes\":[{\"id\":\"a\",\"role\":\"router9\"}],\"links\":[]} | "
                + "$.nodes[0].role: unknown role \"router9\" (expected nic, leaf, spine, superspine or router)",
        "{\"schemaVersion\":1,\"id\":\"f\",\"nodes\":[{\"id\":\"a\",\"role\":\"leaf\",\"pod\":\"1\"}],\"links\":[]} | "
                + "$.nodes[0].pod: must be an integer",
    })
    void rejectsWithOneLineNamingThePlace(String json, String message) {
        assertThatThrownBy(() -> FabricJson.parse(json))
                .isInstanceOf(FabricFormatException.class)
                .hasMessage(message.trim())
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void linkFieldsAreCheckedWithTheirPath() {
        String json = HEAD + "\"nodes\":[],\"links\":[{\"id\":\"l\",\"a\":{\"node\":\"x\",\"port\":\"e1\"},"
                + "\"b\":{\"node\":\"y\"},\"capacityGbps\":400}]}";
        assertThatThrownBy(() -> FabricJson.parse(json)).hasMessage("$.links[0].b.port: required");
        String cap = HEAD + "\"nodes\":[],\"links\":[{\"id\":\"l\",\"a\":{\"node\":\"x\",\"port\":\"e1\"},"
                + "\"b\":{\"node\":\"y\",\"port\":\"e1\"},\"capacityGbps\":\"fast\"}]}";
        assertThatThrownBy(() -> FabricJson.parse(cap))
                .hasMessage("$.links[0].capacityGbps: must be a number (Gbit/s)");
    }

    @Test
    void gnmiObjectIsReadStrictlyWithDefaults() throws Exception {
        String node = HEAD + "\"nodes\":[{\"id\":\"s\",\"role\":\"leaf\",\"gnmi\":%s}],\"links\":[]}";
        Fabric f = FabricJson.parse(String.format(node, "{\"address\":\"10.0.0.1\"}"));
        GnmiEndpoint g = f.node("s").gnmi();
        assertThat(g.address()).isEqualTo("10.0.0.1");
        assertThat(g.port()).isEqualTo(GnmiEndpoint.DEFAULT_PORT);
        assertThat(g.tls()).isFalse();
        assertThat(g.usernameEnv()).isNull();
        assertThatThrownBy(() -> FabricJson.parse(String.format(node, "{\"address\":\"a\",\"user\":\"x\"}")))
                .hasMessage("$.nodes[0].gnmi.user: unknown field");
        assertThatThrownBy(() -> FabricJson.parse(String.format(node, "{\"port\":1}")))
                .hasMessage("$.nodes[0].gnmi.address: required");
        assertThatThrownBy(() -> FabricJson.parse(String.format(node, "{\"address\":\"a\",\"tls\":\"yes\"}")))
                .hasMessage("$.nodes[0].gnmi.tls: must be true or false");
        assertThatThrownBy(() -> FabricJson.parse(String.format(node, "{\"address\":\"a\",\"port\":\"9339\"}")))
                .hasMessage("$.nodes[0].gnmi.port: must be an integer");

        String full = "{\"address\":\"sw1.example\",\"port\":50001,\"tls\":true,\"caFile\":\"ca.pem\","
                + "\"certFile\":\"c.pem\",\"keyFile\":\"k.pem\",\"usernameEnv\":\"GNMI_USER\",\"passwordEnv\":"
                + "\"GNMI_PW\"}";
        Fabric withAll = FabricJson.parse(String.format(node, full));
        assertThat(FabricJson.parse(FabricJson.write(withAll)).node("s")).isEqualTo(withAll.node("s"));
        assertThat(FabricJson.toTree(withAll).get("nodes").get(0).get("gnmi").toString()).isEqualTo(full);
    }

    @Test
    void writeThenParseKeepsEverything() throws Exception {
        Fabric f = FabricJson.parse(Contracts.read("examples/clos3-tiny.json"));
        Fabric again = FabricJson.parse(FabricJson.write(f));
        assertThat(again.nodes()).isEqualTo(f.nodes());
        assertThat(again.links()).isEqualTo(f.links());
        assertThat(again.srv6Block()).isEqualTo(f.srv6Block());
        assertThat(again.tenants()).isEqualTo(f.tenants());
        assertThat(FabricJson.write(again)).isEqualTo(FabricJson.write(f));
    }
}
