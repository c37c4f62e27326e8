import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import io.weft.plan.intent.DeviceIntent;

/**
 * Writes every switch's DeviceIntent of a fabric file as <out>/<switch>.json, exactly as the
 * controller renders it; the switch agent's end-to-end test pushes these with Set.
 * Usage (from the repo root, after ./mvnw -pl controller-app/fabric-plan -am install -DskipTests):
 *   java -cp "$(cat /tmp/cp.txt)" lab-topologies/switch-agent/testdata/RenderIntents.java \
 *     contracts/examples/leaf-spine-2x2.json lab-topologies/switch-agent/testdata/ls-2x2
 */
public class RenderIntents {
    public static void main(String[] args) throws Exception {
        Fabric fabric = FabricJson.read(Path.of(args[0]));
        FabricPlan plan = Planner.plan(fabric, null);
        Path out = Path.of(args[1]);
        Files.createDirectories(out);
        for (String sw : plan.switches()) {
            ObjectNode intent = DeviceIntent.render(plan, sw);
            Files.writeString(out.resolve(sw + ".json"), FabricJson.mapper().writeValueAsString(intent) + "\n");
        }
        // The plan's NIC addressing, which a host namespace needs to use the fabric.
        StringBuilder nics = new StringBuilder();
        for (String nic : plan.nics()) {
            nics.append(nic).append(' ').append(plan.nicAddress(nic)).append(' ')
                .append(plan.attachment(nic).to()).append(' ').append(plan.attachment(nic).link().id()).append('\n');
        }
        Files.writeString(out.resolve("nics.txt"), nics.toString());
    }
}
