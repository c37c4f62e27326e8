package io.weft.plan.intent;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.fabric.Arc;
import io.weft.fabric.FabricJson;
import io.weft.plan.FabricPlan;

/**
 * What changed in the device intents ({@link DeviceIntent#render}) from one plan to the next, switch
 * by switch and route by route, found without rendering any switch whole.
 *
 * <p>A switch's routes are its next hops towards other switches (the DEFAULT instance) and towards
 * the NIC prefixes behind them (EV and MINIMAL routes of the tenant VRFs). Those next hops depend
 * only on the switch's own arcs and EV tables and on the underlay distances towards the destination.
 * So a switch whose own links, addresses, SIDs and EV tables are unchanged ("local" inputs) can only
 * see routes towards destinations whose distance vector changed, and only those are compared. A
 * switch whose local inputs changed (an end of the changed link) is compared whole: its plain ops
 * rendered and compared as values, every route compared by next hops. Anything global (the set of
 * switches, tenants, NICs, locators) makes the answer {@code null}: render every switch instead.
 *
 * <p>Cost at k=16 (320 switches), one link changed: one distance comparison per switch pair
 * (already computed by the planner's walk), then the routes of the ~5 destinations whose
 * distances moved: milliseconds, against seconds for rendering and hashing every switch.
 */
public final class IntentChanges {
    private IntentChanges() {
    }

    /** One entry of a {@code static-routes/static} list: replaced by {@link #value()}, or deleted when that is null. */
    public static final class RouteChange {
        private final String instancePath;
        private final String protocolName;
        private final String prefix;
        private final ObjectNode value;

        RouteChange(String instancePath, String protocolName, String prefix, ObjectNode value) {
            this.instancePath = instancePath;
            this.protocolName = protocolName;
            this.prefix = prefix;
            this.value = value;
        }

        /** Origin of the instance op ({@code openconfig}). */
        public String origin() {
            return DeviceIntent.OC_ORIGIN;
        }

        /** The instance op's path, as in the intent: {@code /network-instances/network-instance[name=DEFAULT]}. */
        public String instancePath() {
            return instancePath;
        }

        /** Always {@code STATIC}. */
        public String protocolIdentifier() {
            return DeviceIntent.STATIC;
        }

        public String protocolName() {
            return protocolName;
        }

        public String prefix() {
            return prefix;
        }

        /** The route entry as rendered inside the instance, or null: delete the route. */
        public ObjectNode value() {
            return value;
        }

        @Override
        public String toString() {
            return (value == null ? "delete " : "replace ") + instancePath + " " + protocolName + " " + prefix;
        }
    }

    /** One switch's change: ops replaced whole, ops deleted, and routes inside instances kept otherwise. */
    public static final class SwitchChange {
        private final String switchId;
        private final List<ObjectNode> replace = new ArrayList<>();
        private final List<ObjectNode> delete = new ArrayList<>();
        private final List<RouteChange> routes = new ArrayList<>();

        SwitchChange(String switchId) {
            this.switchId = switchId;
        }

        public String switchId() {
            return switchId;
        }

        /** Whole ops to replace, each {@code {"origin","path","value"}} as in the rendered intent. */
        public List<ObjectNode> replace() {
            return Collections.unmodifiableList(replace);
        }

        /** Ops the new intent no longer has, each {@code {"origin","path"}}. */
        public List<ObjectNode> delete() {
            return Collections.unmodifiableList(delete);
        }

        /** Routes replaced or deleted inside network instances whose other content is unchanged. */
        public List<RouteChange> routes() {
            return Collections.unmodifiableList(routes);
        }

        boolean isEmpty() {
            return replace.isEmpty() && delete.isEmpty() && routes.isEmpty();
        }

        @Override
        public String toString() {
            return switchId + ": " + replace.size() + " replaced, " + delete.size() + " deleted, "
                    + routes.size() + " routes";
        }
    }

    /**
     * The switches whose intent differs between the plans, with what differs; switches left out are
     * unchanged.
     *
     * @return null when something global changed (switches, tenants, NICs, locators): render every switch
     */
    public static Map<String, SwitchChange> between(FabricPlan prev, FabricPlan next) {
        if (!sameGlobals(prev, next)) {
            return null;
        }
        List<String> switches = next.switches();
        List<String> moved = new ArrayList<>();
        for (String t : switches) {
            if (!prev.sameDistancesTo(next, t)) {
                moved.add(t);
            }
        }
        Map<String, List<String>> destinations = DeviceIntent.destinations(next);
        List<String> vrfPaths = new ArrayList<>();
        for (String t : next.tenants()) {
            vrfPaths.add(DeviceIntent.instancePath(next.vrfName(t)));
        }
        Map<String, SwitchChange> out = new LinkedHashMap<>();
        for (String sw : switches) {
            SwitchChange c = new SwitchChange(sw);
            if (!sameLocal(prev, next, sw)) {
                wholeSwitch(prev, next, sw, vrfPaths, c);
            } else {
                for (String t : moved) {
                    towards(prev, next, sw, t, destinations.get(t), vrfPaths, c);
                }
            }
            if (!c.isEmpty()) {
                out.put(sw, c);
            }
        }
        return out;
    }

    /** The routes of one unchanged switch towards one destination whose distances moved. */
    private static void towards(FabricPlan prev, FabricPlan next, String sw, String t, List<String> prefixes,
                                List<String> vrfPaths, SwitchChange c) {
        List<Arc> was = DeviceIntent.underlayRoute(prev, sw, t);
        List<Arc> now = DeviceIntent.underlayRoute(next, sw, t);
        if (!sameHops(was, now)) {
            c.routes.add(new RouteChange(DeviceIntent.DEFAULT_INSTANCE_PATH, DeviceIntent.UNDERLAY_PROTOCOL,
                    next.locator(t), now.isEmpty() ? null : DeviceIntent.routeValue(next, next.locator(t), now)));
        }
        if (prefixes == null || vrfPaths.isEmpty()) {
            return;
        }
        DeviceIntent.VrfRoutes a = new DeviceIntent.VrfRoutes();
        DeviceIntent.VrfRoutes b = new DeviceIntent.VrfRoutes();
        DeviceIntent.vrfRoutesTowards(prev, sw, t, prefixes, a);
        DeviceIntent.vrfRoutesTowards(next, sw, t, prefixes, b);
        vrfDiff(next, a, b, vrfPaths, c);
    }

    /** A switch whose own inputs changed: plain ops compared as rendered values, every route by next hops. */
    private static void wholeSwitch(FabricPlan prev, FabricPlan next, String sw,
            List<String> vrfPaths, SwitchChange c) {
        Map<String, ObjectNode> was = byPath(DeviceIntent.plainOps(prev, sw));
        for (ObjectNode op : DeviceIntent.plainOps(next, sw)) {
            ObjectNode old = was.remove(op.get("origin").asText() + ":" + op.get("path").asText());
            if (old == null || !old.get("value").equals(op.get("value"))) {
                c.replace.add(op);
            }
        }
        for (ObjectNode gone : was.values()) {
            ObjectNode d = FabricJson.mapper().createObjectNode();
            d.put("origin", gone.get("origin").asText());
            d.put("path", gone.get("path").asText());
            c.delete.add(d);
        }
        Map<String, List<Arc>> underlayWas = new LinkedHashMap<>();
        Map<String, List<Arc>> underlayNow = new LinkedHashMap<>();
        for (String other : next.switches()) {
            List<Arc> a = DeviceIntent.underlayRoute(prev, sw, other);
            if (!a.isEmpty()) {
                underlayWas.put(prev.locator(other), a);
            }
            List<Arc> b = DeviceIntent.underlayRoute(next, sw, other);
            if (!b.isEmpty()) {
                underlayNow.put(next.locator(other), b);
            }
        }
        routesDiff(next, DeviceIntent.DEFAULT_INSTANCE_PATH, DeviceIntent.UNDERLAY_PROTOCOL,
                underlayWas, underlayNow, c);
        if (!vrfPaths.isEmpty()) {
            vrfDiff(next, DeviceIntent.vrfRoutes(prev, sw), DeviceIntent.vrfRoutes(next, sw), vrfPaths, c);
        }
    }

    /** Every tenant VRF of a switch carries the same routes: one comparison, a change per VRF. */
    private static void vrfDiff(FabricPlan next, DeviceIntent.VrfRoutes was, DeviceIntent.VrfRoutes now,
                                List<String> vrfPaths, SwitchChange c) {
        for (String protocol : DeviceIntent.VRF_PROTOCOLS) {
            for (String path : vrfPaths) {
                routesDiff(next, path, protocol, was.of(protocol), now.of(protocol), c);
            }
        }
    }

    private static void routesDiff(FabricPlan next, String path, String protocol, Map<String, List<Arc>> was,
                                   Map<String, List<Arc>> now, SwitchChange c) {
        for (Map.Entry<String, List<Arc>> e : now.entrySet()) {
            if (!sameHops(was.get(e.getKey()), e.getValue())) {
                c.routes.add(new RouteChange(path, protocol, e.getKey(),
                        DeviceIntent.routeValue(next, e.getKey(), e.getValue())));
            }
        }
        for (String prefix : was.keySet()) {
            if (!now.containsKey(prefix)) {
                c.routes.add(new RouteChange(path, protocol, prefix, null));
            }
        }
    }

    /** Same arcs in the same order over the same links (ports and ends included: they are rendered). */
    private static boolean sameHops(List<Arc> a, List<Arc> b) {
        if (a == null || b == null || a.size() != b.size()) {
            return a == b;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).equals(b.get(i)) || !a.get(i).link().equals(b.get(i).link())) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, ObjectNode> byPath(List<ObjectNode> ops) {
        Map<String, ObjectNode> m = new LinkedHashMap<>();
        for (ObjectNode op : ops) {
            m.put(op.get("origin").asText() + ":" + op.get("path").asText(), op);
        }
        return m;
    }

    /** What every switch's intent reads from the whole plan: switches, locators, tenants, NICs. */
    private static boolean sameGlobals(FabricPlan prev, FabricPlan next) {
        if (!prev.switches().equals(next.switches()) || !prev.tenants().equals(next.tenants())
                || !prev.nics().equals(next.nics())) {
            return false;
        }
        for (String s : next.switches()) {
            if (!prev.locator(s).equals(next.locator(s)) || !Objects.equals(prev.nicPrefix(s), next.nicPrefix(s))) {
                return false;
            }
        }
        for (String t : next.tenants()) {
            if (!prev.vrfName(t).equals(next.vrfName(t)) || prev.vrfTable(t) != next.vrfTable(t)) {
                return false;
            }
        }
        for (String n : next.nics()) {
            if (!prev.nicAddress(n).equals(next.nicAddress(n))) {
                return false;
            }
        }
        return DeviceIntent.destinations(prev).equals(DeviceIntent.destinations(next));
    }

    /** A switch's own inputs: its links (ports, ends), loopback, SIDs, EV tables. */
    private static boolean sameLocal(FabricPlan prev, FabricPlan next, String sw) {
        if (!prev.fabric().linksOf(sw).equals(next.fabric().linksOf(sw))
                || !prev.switchArcs(sw).equals(next.switchArcs(sw))
                || !prev.loopback(sw).equals(next.loopback(sw))
                || !prev.uaFunctions(sw).equals(next.uaFunctions(sw))
                || prev.hasNics(sw) != next.hasNics(sw)
                || !prev.evTable(sw, 1).equals(next.evTable(sw, 1))
                || !prev.evTable(sw, 2).equals(next.evTable(sw, 2))) {
            return false;
        }
        if (next.hasNics(sw)) {
            for (String t : next.tenants()) {
                if (prev.decapFunction(sw, t) != next.decapFunction(sw, t)) {
                    return false;
                }
            }
        }
        return true;
    }
}
