package io.weft.lab.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.weft.fabric.FabricJson;
import io.weft.fabric.FabricValidator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The bundled examples are exactly what the generators produce today, so they never drift. After a
 * deliberate generator change, regenerate them with the commands in lab-topologies/examples/README.md.
 */
class ExamplesTest {

    @ParameterizedTest
    @CsvSource({
        "slimfly-q5.json,      slimfly,   q=5",
        "dragonfly-2-4-2.json, dragonfly, p=2;a=4;h=2",
        "fat-tree-k8.json,     fat-tree,  k=8"})
    void exampleEqualsTheGeneratorOutput(String file, String family, String params) throws Exception {
        Map<String, String> p = new java.util.LinkedHashMap<>();
        for (String kv : params.split(";")) {
            p.put(kv.split("=")[0], kv.split("=")[1]);
        }
        String onDisk = Files.readString(Path.of("examples", file));
        assertThat(onDisk).isEqualTo(FabricJson.write(FabricGenerators.generate(family, p)));
        assertThat(FabricValidator.validate(FabricJson.parse(onDisk))).isEmpty();
    }
}
