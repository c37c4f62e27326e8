package io.weft.telemetry.stream;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.contracts.DirectionKey;
import io.weft.fabric.Endpoint;
import io.weft.fabric.Fabric;
import io.weft.fabric.FabricFormatException;
import io.weft.fabric.FabricJson;
import io.weft.fabric.Link;
import io.weft.fabric.Node;
import io.weft.fabric.Role;

/**
 * Which link directions each (switch, interface) of one fabric snapshot measures.
 *
 * <p>Each direction is measured once, by the interface that SENDS it (its out-octets), because that
 * is where the queue builds up and the drops and ECN marks happen. A direction sent by a NIC has no
 * polled sender (gnmic talks to switches only), so it is measured by the receiving switch port's
 * in-octets. A gnmic target is matched against node ids and, where different, node names. Link ends
 * without a port cannot be matched and are left out. Immutable.
 */
public final class InterfaceDirectionIndex {
    private final String fabricId;
    private final long version;
    /** target (node id or name) → interface → directions: two lookups, no key string built per sample. */
    private final Map<String, Map<String, List<MeasuredArc>>> byPort;
    private final int arcs;

    private InterfaceDirectionIndex(String fabricId, long version, Map<String, Map<String, List<MeasuredArc>>> byPort,
                                    int arcs) {
        this.fabricId = fabricId;
        this.version = version;
        this.byPort = byPort;
        this.arcs = arcs;
    }

    /**
     * Builds the index of a weft.fabric snapshot (fabric-snapshot.schema.json: fabricId, version, fabric).
     *
     * @throws IllegalArgumentException naming the field when the snapshot cannot be read
     */
    public static InterfaceDirectionIndex fromSnapshot(JsonNode snapshot) {
        if (snapshot == null || !snapshot.isObject()) {
            throw new IllegalArgumentException("$: a fabric snapshot must be a JSON object");
        }
        JsonNode version = snapshot.get("version");
        if (version == null || !version.canConvertToLong() || version.asLong() < 0) {
            throw new IllegalArgumentException("$.version: required, a non-negative integer");
        }
        Fabric fabric;
        try {
            fabric = FabricJson.fromTree(snapshot.get("fabric"));
        } catch (FabricFormatException e) {
            throw new IllegalArgumentException("$.fabric: " + e.getMessage());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("$.fabric: required, a fabric object");
        }
        return of(fabric, version.asLong());
    }

    /** The index of a fabric (tests, benchmark). */
    public static InterfaceDirectionIndex of(Fabric fabric, long version) {
        Map<String, Map<String, List<MeasuredArc>>> byPort = new HashMap<>();
        int arcs = 0;
        for (Link l : fabric.links()) {
            for (Endpoint from : List.of(l.a(), l.b())) {
                Endpoint to = l.otherEnd(from.node());
                Node sender = fabric.node(from.node());
                boolean nicSends = sender != null && sender.role() == Role.NIC;
                Endpoint measuring = nicSends ? to : from;
                if (measuring.port() == null || measuring.port().isEmpty()) {
                    continue;
                }
                MeasuredArc arc = new MeasuredArc(fabric.id(), l.id(), to.node(), DirectionKey.text(l.id(), to.node()),
                        nicSends ? MeasuredArc.Side.RECEIVER : MeasuredArc.Side.SENDER, l.capacityGbps());
                arcs++;
                Node node = fabric.node(measuring.node());
                add(byPort, measuring.node(), measuring.port(), arc);
                if (node != null && node.name() != null && !node.name().equals(node.id())) {
                    add(byPort, node.name(), measuring.port(), arc);
                }
            }
        }
        byPort.replaceAll((target, ports) -> {
            ports.replaceAll((port, list) -> List.copyOf(list));
            return Collections.unmodifiableMap(ports);
        });
        return new InterfaceDirectionIndex(fabric.id(), version, Collections.unmodifiableMap(byPort), arcs);
    }

    private static void add(Map<String, Map<String, List<MeasuredArc>>> byPort, String target, String port,
                            MeasuredArc arc) {
        byPort.computeIfAbsent(target, k -> new HashMap<>()).computeIfAbsent(port, k -> new ArrayList<>(2)).add(arc);
    }

    /** The directions this interface measures (none when it is not a fabric link port). */
    public List<MeasuredArc> lookup(String target, String interfaceName) {
        return lookup(byPort, target, interfaceName);
    }

    static List<MeasuredArc> lookup(Map<String, Map<String, List<MeasuredArc>>> byPort, String target,
                                    String interfaceName) {
        Map<String, List<MeasuredArc>> ports = byPort.get(target);
        List<MeasuredArc> arcs = ports == null ? null : ports.get(interfaceName);
        return arcs == null ? List.of() : arcs;
    }

    Map<String, Map<String, List<MeasuredArc>>> byPort() {
        return byPort;
    }

    public String fabricId() {
        return fabricId;
    }

    public long version() {
        return version;
    }

    /** How many link directions can be measured. */
    public int arcCount() {
        return arcs;
    }
}
