package io.weft.controller.onos;

import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weft.fabric.Endpoint;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.fabric.Role;

/**
 * What ONOS would show for a fabric file: a device "device:&lt;id&gt;" per switch with a weft netcfg,
 * numbered ports annotated with the file's port names and speeds, both directions of every switch
 * link (latencyNs annotation), and the NICs in the app config.
 */
final class OnosView {
    final FakeDeviceService devices = new FakeDeviceService();
    final FakeLinkService links = new FakeLinkService();
    final FakeConfigService configs = new FakeConfigService();

    private final Map<String, Integer> nextPort = new HashMap<>();

    static OnosView of(Fabric f) {
        OnosView v = new OnosView();
        for (Node n : f.nodes()) {
            if (n.role().isSwitch()) {
                v.devices.addDevice(device(n.id()));
                v.configs.putDevice(device(n.id()), v.deviceConfig(n));
            }
        }
        ObjectNode app = Fixtures.MAPPER.createObjectNode();
        app.put("fabricId", f.id());
        app.put("block", f.srv6Block());
        ArrayNode tenants = app.putArray("tenants");
        f.tenants().forEach(tenants::add);
        ArrayNode nics = app.putArray("nics");
        for (Link l : f.links()) {
            Node a = f.node(l.a().node());
            Node b = f.node(l.b().node());
            if (a.role().isSwitch() && b.role().isSwitch()) {
                String pa = v.port(l.a(), l.capacityGbps());
                String pb = v.port(l.b(), l.capacityGbps());
                String latency = Long.toString(l.latencyNs());
                v.links.add(pa, pb, org.onosproject.net.Link.State.ACTIVE, latency);
                v.links.add(pb, pa, org.onosproject.net.Link.State.ACTIVE, latency);
            } else {
                Node nic = a.role() == Role.NIC ? a : b;
                Endpoint nicEnd = l.endOf(nic.id());
                Endpoint switchEnd = l.otherEnd(nic.id());
                ObjectNode o = nics.addObject();
                o.put("id", nic.id());
                o.put("attach", v.port(switchEnd, l.capacityGbps()));
                o.put("port", nicEnd.port());
                o.put("capacityGbps", l.capacityGbps());
                putIfSet(o, "server", nic.server());
                putIfSet(o, "pod", nic.pod());
                putIfSet(o, "group", nic.group());
                putIfSet(o, "rail", nic.rail());
                putIfSet(o, "plane", nic.plane());
                putIfSet(o, "address", nic.address());
            }
        }
        v.configs.putApp(TestFabric.APP_ID, app);
        return v;
    }

    static String device(String nodeId) {
        return "device:" + nodeId;
    }

    private ObjectNode deviceConfig(Node n) {
        ObjectNode o = Fixtures.MAPPER.createObjectNode();
        o.put("role", n.role().jsonName());
        o.put("name", n.id());
        putIfSet(o, "pod", n.pod());
        putIfSet(o, "group", n.group());
        putIfSet(o, "plane", n.plane());
        putIfSet(o, "rail", n.rail());
        putIfSet(o, "srv6NodeId", n.srv6NodeId());
        putIfSet(o, "address", n.address());
        return o;
    }

    /** Adds the next numbered port of a switch, named as in the file; returns "device:x/N". */
    private String port(Endpoint e, double capacityGbps) {
        int number = nextPort.merge(e.node(), 1, Integer::sum);
        devices.addPort(device(e.node()), number, e.port(), Math.round(capacityGbps * 1000));
        return device(e.node()) + "/" + number;
    }

    private static void putIfSet(ObjectNode o, String field, Object v) {
        if (v instanceof Integer) {
            o.put(field, (Integer) v);
        } else if (v != null) {
            o.put(field, v.toString());
        }
    }
}
