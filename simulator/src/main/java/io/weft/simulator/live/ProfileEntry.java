package io.weft.simulator.live;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.weft.simulator.Routing;

/**
 * One entry of a NIC's EV profile (scheduler-api's {@code EvProfile}: per peer, the ways to reach
 * it), reduced to what the simulated agent uses: the flow, its peer, state, demand and encoding.
 *
 * @param flowId     the entry id without its {@code #srv6} / {@code #ev} suffix (the flow slice id)
 * @param demandGbps the entry's weight (the slice's demand in Mbit/s) in Gbit/s
 * @param routing    the SRv6 carriers or the EV (UDP source port); null when the entry has none
 */
record ProfileEntry(String flowId, String jobId, String peer, String state, double demandGbps, Routing routing) {

    boolean good() {
        return "GOOD".equals(state) && routing != null;
    }

    /** The entries of a profile; a field of the wrong shape is an error naming it. */
    static List<ProfileEntry> parse(JsonNode profile) {
        List<ProfileEntry> out = new ArrayList<>();
        JsonNode peers = profile.path("peers");
        if (!peers.isArray()) {
            throw new IllegalArgumentException("peers: must be an array");
        }
        for (int i = 0; i < peers.size(); i++) {
            JsonNode p = peers.get(i);
            String peer = p.path("peer").asText("");
            JsonNode entries = p.path("entries");
            if (peer.isEmpty() || !entries.isArray()) {
                throw new IllegalArgumentException("peers[" + i + "]: needs a peer and an entries array");
            }
            for (int j = 0; j < entries.size(); j++) {
                JsonNode e = entries.get(j);
                String field = "peers[" + i + "].entries[" + j + "]";
                String id = e.path("id").asText("");
                int hash = id.lastIndexOf('#');
                if (hash <= 0) {
                    throw new IllegalArgumentException(field + ".id: \"" + id + "\" is not <flow>#srv6 or <flow>#ev");
                }
                out.add(new ProfileEntry(id.substring(0, hash), e.path("jobId").asText(null), peer,
                        e.path("state").asText(""), e.path("weight").asDouble(0) / 1000.0, routing(e, field)));
            }
        }
        return out;
    }

    private static Routing routing(JsonNode e, String field) {
        String format = e.path("format").asText("");
        if (format.equals("srv6")) {
            JsonNode c = e.path("carriers");
            if (!c.isArray() || c.isEmpty()) {
                return null;
            }
            List<String> carriers = new ArrayList<>();
            c.forEach(x -> carriers.add(x.asText()));
            return Routing.srv6(carriers);
        }
        if (format.equals("udp-sport")) {
            String v = e.path("value").asText("");
            if (v.isEmpty()) {
                return null;
            }
            try {
                // On a multi-plane NIC the entry's port is the link its agent sends that source port out of.
                return Routing.ev(Integer.parseInt(v), e.hasNonNull("port") ? e.get("port").asText() : null);
            } catch (IllegalArgumentException bad) {
                throw new IllegalArgumentException(field + ".value: \"" + v + "\" is not an EV in 1..65535");
            }
        }
        throw new IllegalArgumentException(field + ".format: \"" + format + "\" is neither srv6 nor udp-sport");
    }
}
