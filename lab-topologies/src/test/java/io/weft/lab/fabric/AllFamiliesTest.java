package io.weft.lab.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.fabric.FabricValidator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What every generator owes its callers: valid output, a lossless file form, and determinism. */
class AllFamiliesTest {

    static Stream<Arguments> fabrics() {
        return Stream.of(
                Arguments.of("leaf-spine", Map.of()),
                Arguments.of("leaf-spine", Map.of("leaves", "3", "spines", "2", "parallelLinks", "2",
                        "nicGbps", "100.5")),
                Arguments.of("fat-tree", Map.of("k", "4")),
                Arguments.of("fat-tree", Map.of("pods", "3", "leavesPerPod", "2", "spinesPerPod", "2",
                        "superspines", "4")),
                Arguments.of("rail", Map.of()),
                Arguments.of("rail", Map.of("planes", "2")),
                Arguments.of("dragonfly", Map.of()),
                Arguments.of("dragonfly", Map.of("a", "3", "h", "2", "g", "4")),
                Arguments.of("slimfly", Map.of("q", "3")),
                Arguments.of("slimfly", Map.of("q", "4")));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fabrics")
    void validRoundTripsAndIsDeterministic(String family, Map<String, String> params) throws Exception {
        Fabric f = FabricGenerators.generate(family, params);
        assertThat(FabricValidator.validate(f)).isEmpty();
        assertThat(f.family()).isEqualTo(family);
        String json = FabricJson.write(f);
        Fabric back = FabricJson.parse(json);
        assertThat(back.nodes()).isEqualTo(f.nodes());
        assertThat(back.links()).isEqualTo(f.links());
        assertThat(FabricJson.write(back)).isEqualTo(json);
        assertThat(FabricJson.write(FabricGenerators.generate(family, params))).isEqualTo(json);
    }

    @Test
    void everyFamilyIsReachableByName() {
        assertThat(FabricGenerators.FAMILIES).containsExactly("leaf-spine", "fat-tree", "rail", "dragonfly", "slimfly");
        for (String family : FabricGenerators.FAMILIES) {
            assertThat(FabricGenerators.generate(family, Map.of()).nodes()).isNotEmpty();
        }
    }

    @Test
    void karyAndGeneralFatTreeAgreeOnShape() {
        Fabric k = FabricGenerators.generate("fat-tree", Map.of("k", "4"));
        Fabric general = FabricGenerators.generate("fat-tree", Map.of("pods", "4", "leavesPerPod", "2",
                "spinesPerPod", "2", "superspines", "4", "nicsPerLeaf", "2", "id", "ft-k4"));
        assertThat(general.nodes()).isEqualTo(k.nodes());
        assertThat(general.links()).isEqualTo(k.links());
    }

    @Test
    void badParametersAreNamed() {
        assertThatThrownBy(() -> FabricGenerators.generate("leaf-spine", Map.of("leafs", "4")))
                .hasMessageStartingWith("unknown parameter \"leafs\" for leaf-spine (known: id, leaves,");
        assertThatThrownBy(() -> FabricGenerators.generate("leaf-spine", Map.of("leaves", "four")))
                .hasMessage("leaves: must be an integer (got \"four\")");
        assertThatThrownBy(() -> FabricGenerators.generate("torus", Map.of()))
                .hasMessage("unknown family \"torus\" (known: leaf-spine, fat-tree, rail, dragonfly, slimfly)");
        assertThatThrownBy(() -> FabricGenerators.generate("slimfly", Map.of("q", "10")))
                .hasMessageStartingWith("q: must be a prime power");
        assertThatThrownBy(() -> FabricGenerators.generate("fat-tree", Map.of("k", "4", "pods", "2")))
                .hasMessageStartingWith("unknown parameter \"pods\" for fat-tree");
    }

    @Test
    void idParameterOverridesTheDerivedId() {
        assertThat(FabricGenerators.generate("dragonfly", Map.of("id", "lab-df")).id()).isEqualTo("lab-df");
        assertThat(FabricGenerators.generate("dragonfly", Map.of()).id()).isEqualTo("df-2-4-2");
        assertThat(List.of(FabricGenerators.generate("slimfly", Map.of()).id())).containsExactly("sf-q5");
    }
}
