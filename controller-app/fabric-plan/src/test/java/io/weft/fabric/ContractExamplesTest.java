package io.weft.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.weft.contracts.Contracts;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The example fabrics in contracts/ are read by the strict reader and pass validation. */
class ContractExamplesTest {

    @ParameterizedTest
    @ValueSource(strings = {"leaf-spine-2x2", "clos3-tiny", "dragonfly-tiny"})
    void contractExamplesParseAndValidate(String name) throws Exception {
        Fabric fabric = FabricJson.parse(Contracts.read("examples/" + name + ".json"));
        assertThat(FabricValidator.validate(fabric)).isEmpty();
        assertThat(FabricJson.parse(FabricJson.write(fabric)).nodes()).isEqualTo(fabric.nodes());
    }
}
