package io.weft.placement.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weft.fabric.FabricJson;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.placement.PlacementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.ParameterException;

class PlaceCliTest {
    @TempDir
    Path dir;

    private Path fabric() throws Exception {
        Path f = dir.resolve("fabric.json");
        Files.writeString(f, FabricJson.write(LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(2, 2, 2))));
        return f;
    }

    @Test
    void placesAJobFromFilesAndPrintsPathsAndEncodings() throws Exception {
        Path job = dir.resolve("job.json");
        Files.writeString(job, "{\"name\":\"r\",\"pattern\":\"ring\",\"endpoints\":[\"leaf1-nic1\",\"leaf2-nic1\","
                + "\"leaf1-nic2\",\"leaf2-nic2\"],\"demandGbps\":400,\"order\":\"auto\"}");
        JsonNode out = new ObjectMapper().readTree(PlaceCli.run(new String[] {"--fabric", fabric().toString(),
            "--job", job.toString(), "--down", "leaf1-spine1"}));
        assertThat(out.get("flows")).hasSize(4);
        assertThat(out.get("unplaced")).isEmpty();
        for (JsonNode f : out.get("flows")) {
            assertThat(f.get("carriers").get(0).asText()).startsWith("fcbb:bb00:");
            assertThat(f.get("links").toString()).doesNotContain("\"leaf1-spine1\"");
            assertThat(f.get("nodes").get(0).asText()).isEqualTo(f.get("src").asText());
        }
        // Auto order: leaf1-nic1 -> leaf1-nic2 -> leaf2-nic1 -> leaf2-nic2: two flows cross the fabric.
        assertThat(out.get("quality").get("maxLoad").asDouble()).isEqualTo(1.0);
    }

    @Test
    void badJobFileNamesTheField() throws Exception {
        Path job = dir.resolve("job.json");
        Files.writeString(job, "{\"name\":\"r\",\"pattern\":\"ring\",\"endpoints\":[\"leaf1-nic1\"],\"colour\":1}");
        assertThatThrownBy(() -> PlaceCli.run(new String[] {"--fabric", fabric().toString(), "--job", job.toString()}))
                .isInstanceOf(PlacementException.class).hasMessage("colour: unknown field");
        Files.writeString(job, "{\"name\":\"r\",\"pattern\":\"ring\",\"endpoints\":[\"leaf1-nic1\",\"x\"],"
                + "\"demandGbps\":1}");
        assertThatThrownBy(() -> PlaceCli.run(new String[] {"--fabric", fabric().toString(), "--job", job.toString()}))
                .hasMessageStartingWith("endpoints[1]: unknown NIC");
        assertThatThrownBy(() -> PlaceCli.run(new String[] {"--job", job.toString()}))
                .isInstanceOf(ParameterException.class).hasMessageContaining("--fabric");
        assertThatThrownBy(() -> PlaceCli.run(new String[] {"--fabric", "f", "--job", "j", "--colour", "red"}))
                .isInstanceOf(ParameterException.class).hasMessageContaining("--colour");
        assertThatThrownBy(() -> PlaceCli.run(new String[] {"--fabric", fabric().toString(), "--job", job.toString(),
            "--down", "leaf1-spine9"})).hasMessageStartingWith("--down/--drained: no link \"leaf1-spine9\" in fabric ");
    }

    @Test
    void aBadFlagIsOneLineNamingItAndExit2() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = PlaceCli.execute(new String[] {"--fabric", "f.json", "--job", "j.json", "--colour", "red"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8).lines()).singleElement().asString()
                .startsWith("weft place: ").contains("'--colour'");
    }

    @Test
    void helpListsEveryFlagAndExits0() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = PlaceCli.execute(new String[] {"--help"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        assertThat(exit).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("--fabric", "--job", "--tenant", "--down", "--drained");
    }

    /** Three line-rate flows over two uplinks: one path each loads an uplink twice, split flows 1.5. */
    @Test
    void multipathSplitsFlowsOverWeightedPaths() throws Exception {
        Path f = dir.resolve("ls.json");
        Files.writeString(f, FabricJson.write(LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(2, 2, 3))));
        Path job = dir.resolve("job.json");
        Files.writeString(job, "{\"name\":\"x\",\"pattern\":\"explicit\",\"demandGbps\":400,\"flows\":["
                + "{\"src\":\"leaf1-nic1\",\"dst\":\"leaf2-nic1\"},{\"src\":\"leaf1-nic2\",\"dst\":\"leaf2-nic2\"},"
                + "{\"src\":\"leaf1-nic3\",\"dst\":\"leaf2-nic3\"}]}");
        JsonNode out = new ObjectMapper().readTree(PlaceCli.run(new String[] {"--fabric", f.toString(),
            "--job", job.toString(), "--multipath", "4/16"}));
        JsonNode q = out.get("multipath");
        assertThat(q.get("singlePathMaxLoad").asDouble()).isEqualTo(2.0);
        assertThat(q.get("splittableOptimum").asDouble()).isCloseTo(1.5, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(q.get("maxLoad").asDouble()).isCloseTo(1.5, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(q.has("fallback")).isFalse();
        for (JsonNode fl : out.get("flows")) {
            double sum = 0;
            for (JsonNode p : fl.get("paths")) {
                sum += p.get("weight").asDouble();
                assertThat(p.get("carriers").get(0).asText()).startsWith("fcbb:bb00:");
            }
            assertThat(sum).isEqualTo(1.0);
        }
        // One path per flow: no optimum computed, so none printed (JSON has no NaN), and the reason.
        String single = PlaceCli.run(new String[] {"--fabric", f.toString(), "--job", job.toString(),
            "--multipath", "1/16"});
        assertThat(single).doesNotContain("NaN");
        JsonNode one = new ObjectMapper().readTree(single).get("multipath");
        assertThat(one.has("splittableOptimum")).isFalse();
        assertThat(one.get("fallback").asText()).contains("one path per flow");
        assertThatThrownBy(() -> PlaceCli.run(new String[] {"--fabric", f.toString(), "--job", job.toString(),
            "--multipath", "0/16"})).hasMessageContaining("--multipath");
    }
}
