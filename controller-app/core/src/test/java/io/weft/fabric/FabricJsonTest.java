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
        "{\"schemaVersion\":1,\"id\":\"x\",\"nodes\":[                 | not valid JSON at line 1, column 38: Unexpected end-of-input: expected close marker for Array",
        "[]                                                            | $: must be an object",
        "{\"schemaVersion\":2,\"id\":\"f\",\"nodes\":[],\"links\":[]}   | $.schemaVersion: 2 is not supported (expected 1)",
        "{\"schemaVersion\":1,\"nodes\":[],\"links\":[]}              | $.id: required",
        "{\"schemaVersion\":1,\"id\":\"f\",\"nodes\":[],\"links\":[],\"colour\":1} | $.colour: unknown field",
        "{\"schemaVersion\":1,\"id\":\"f\",\"nodes\":{},\"links\":[]}   | $.nodes: must be an array",
        "{\"schemaVersion\":1,\"id\":\"f\",\"nodes\":[{\"id\":\"a\",\"role\":\"router9\"}],\"links\":[]} | $.nodes[0].role: unknown role \"router9\" (expected nic, leaf, spine, superspine or router)",
        "{\"schemaVersion\":1,\"id\":\"f\",\"nodes\":[{\"id\":\"a\",\"role\":\"leaf\",\"pod\":\"1\"}],\"links\":[]} | $.nodes[0].pod: must be an integer",
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
        assertThatThrownBy(() -> FabricJson.parse(cap)).hasMessage("$.links[0].capacityGbps: must be a number (Gbit/s)");
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
