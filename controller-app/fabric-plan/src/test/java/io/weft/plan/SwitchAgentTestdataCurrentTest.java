package io.weft.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.plan.intent.DeviceIntent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The switch agent's Go tests Set the intents under {@code lab-topologies/switch-agent/testdata/}:
 * files rendered once from DeviceIntent. This keeps them what the controller sends today, so the Go
 * side cannot pass against payloads the controller no longer produces. After an intended
 * DeviceIntent change, regenerate them with
 * {@code ./mvnw -pl controller-app/fabric-plan test -Dtest=SwitchAgentTestdataCurrentTest -Dweft.golden.update=true},
 * review the diff and run the Go tests ({@code go test -race ./...} in lab-topologies/switch-agent).
 */
class SwitchAgentTestdataCurrentTest {
    private static final Path REPO = Path.of("../..");
    private static final Path TESTDATA = REPO.resolve("lab-topologies/switch-agent/testdata");

    @ParameterizedTest(name = "{0} from {1}")
    @CsvSource({
        "ls-2x2, contracts/examples/leaf-spine-2x2.json",
        "ft4, lab-topologies/switch-agent/testdata/ft4-fabric.json",
        "dragonfly-tiny, contracts/examples/dragonfly-tiny.json",
    })
    void renderedIntentsAreCurrent(String dir, String fabricFile) throws Exception {
        Fabric fabric = FabricJson.read(REPO.resolve(fabricFile));
        FabricPlan plan = Planner.plan(fabric, null);
        Path out = TESTDATA.resolve(dir);
        boolean update = Boolean.getBoolean("weft.golden.update");
        if (update) {
            Files.createDirectories(out);
        }
        List<String> stale = new ArrayList<>();
        TreeSet<String> expectedFiles = new TreeSet<>();
        for (String sw : plan.switches()) {
            String text = FabricJson.mapper().writeValueAsString(DeviceIntent.render(plan, sw)) + "\n";
            Path file = out.resolve(sw + ".json");
            expectedFiles.add(file.getFileName().toString());
            if (update) {
                Files.writeString(file, text);
            } else if (!Files.exists(file) || !Files.readString(file).equals(text)) {
                stale.add(file.getFileName().toString());
            }
        }
        // The plan's NIC addressing, which the Go end-to-end test gives its host namespaces.
        StringBuilder nics = new StringBuilder();
        for (String nic : plan.nics()) {
            nics.append(nic).append(' ').append(plan.nicAddress(nic)).append(' ')
                    .append(plan.attachment(nic).to()).append(' ')
                    .append(plan.attachment(nic).link().id()).append('\n');
        }
        Path nicsFile = out.resolve("nics.txt");
        if (update && (Files.exists(nicsFile) || dir.equals("ls-2x2"))) {
            Files.writeString(nicsFile, nics.toString());
        } else if (Files.exists(nicsFile) && !Files.readString(nicsFile).equals(nics.toString())) {
            stale.add("nics.txt");
        }
        TreeSet<String> onDisk = new TreeSet<>();
        try (Stream<Path> files = Files.list(out)) {
            files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).forEach(onDisk::add);
        }
        assertThat(onDisk).as("intent files in " + out + " (one per switch, none left over)").isEqualTo(expectedFiles);
        assertThat(stale).as("files in " + out + " that DeviceIntent no longer renders so; regenerate with"
                + " -Dweft.golden.update=true (see this class)").isEmpty();
    }
}
