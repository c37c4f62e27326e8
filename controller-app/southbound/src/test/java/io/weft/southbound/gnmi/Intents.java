package io.weft.southbound.gnmi;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.contracts.Contracts;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricJson;
import io.weft.plan.FabricPlan;
import io.weft.plan.Planner;
import io.weft.plan.intent.DeviceIntent;

/** Real device intents (DeviceIntent.render over a planned fabric) and small edits of them. */
final class Intents {
    private Intents() {
    }

    static Map<String, ObjectNode> leafSpine2x2() throws Exception {
        Fabric f = FabricJson.parse(Contracts.read("examples/leaf-spine-2x2.json"));
        return render(Planner.plan(f, null));
    }

    static Map<String, ObjectNode> render(FabricPlan plan) {
        Map<String, ObjectNode> out = new LinkedHashMap<>();
        for (String sw : plan.switches()) {
            out.put(sw, DeviceIntent.render(plan, sw));
        }
        return out;
    }

    /** A copy with the value of op {@code index} given a new description leaf. */
    static ObjectNode withChangedOp(ObjectNode intent, int index, String mark) {
        ObjectNode copy = intent.deepCopy();
        ((ObjectNode) copy.get("replace").get(index).get("value")).put("weft-test-mark", mark);
        return copy;
    }

    /** A copy without op {@code index} (a subtree Weft no longer wants). */
    static ObjectNode withoutOp(ObjectNode intent, int index) {
        ObjectNode copy = intent.deepCopy();
        ((ArrayNode) copy.get("replace")).remove(index);
        return copy;
    }

    static int opCount(JsonNode intent) {
        return intent.get("replace").size();
    }

    static String plainPath(JsonNode intent, int index) {
        return intent.get("replace").get(index).get("path").asText();
    }
}
