import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.lab.netns.LabLayout;
import io.weft.lab.netns.LabScript;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;

/**
 * Writes what the namespace lab's LabScript installs on every switch of a fabric, as
 * <out>/<switch>.lab (its ip -6 -batch lines) and <out>/<switch>.nft (its nft script, if any):
 * the switch agent's test requires the same kernel state from the gNMI payloads.
 * Usage: like RenderIntents.java, with the weft-lab-topologies and weft-netns-lab
 * (lab-topologies/netns/target) jars on the class path too.
 */
public class RenderLabScript {
    public static void main(String[] args) throws Exception {
        Fabric fabric = FabricJson.read(Path.of(args[0]));
        FabricPlan plan = Planner.plan(fabric, null);
        LabScript script = new LabScript(plan, new LabLayout(fabric, "t"));
        Path out = Path.of(args[1]);
        Files.createDirectories(out);
        for (Map.Entry<String, List<String>> e : script.nodeLines().entrySet()) {
            if (!plan.switches().contains(e.getKey())) {
                continue;
            }
            Files.writeString(out.resolve(e.getKey() + ".lab"), String.join("\n", e.getValue()) + "\n");
            String nft = script.nftScript(e.getKey());
            if (nft != null) {
                Files.writeString(out.resolve(e.getKey() + ".nft"), nft);
            }
        }
    }
}
