package io.weft.scheduler.agent;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** Builds a NIC's {@link EvProfile} from the committed assignments of its active flows. */
@Component
class ProfileReader {
    private final JdbcClient jdbc;

    ProfileReader(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The version is read before the flows: a change committed in between then shows up with the
     * older version number, and the agent is woken once more for it; the reverse order could
     * label old flows with a new version and lose an update.
     */
    EvProfile read(String nic) {
        long version = jdbc.sql("select version from nic_versions where nic = ?").param(nic).query(Long.class)
                .optional().orElse(0L);
        Map<String, List<EvProfile.Entry>> byPeer = new LinkedHashMap<>();
        jdbc.sql("select f.id, f.job_id, f.dst_nic, f.demand_gbps, p.state, p.carriers, p.ev, j.encoding "
                        + "from flows f join path_assignments p on p.flow_id = f.id join jobs j on j.id = f.job_id "
                        + "where f.src_nic = ? and j.state = 'ACTIVE' order by f.dst_nic, j.seq, f.flow_index, f.slice")
                .param(nic)
                .query((rs, n) -> {
                    String id = rs.getString(1);
                    String job = rs.getString(2);
                    int weight = (int) Math.max(1, Math.round(rs.getDouble(4) * 1000));
                    String state = rs.getString(5);
                    List<String> carriers = Arrays.asList((String[]) rs.getArray(6).getArray());
                    Integer ev = (Integer) rs.getObject(7);
                    String enc = rs.getString(8);
                    List<EvProfile.Entry> entries = byPeer.computeIfAbsent(rs.getString(3), k -> new ArrayList<>());
                    if (!enc.equals("ev")) {
                        entries.add(new EvProfile.Entry(id + "#srv6", job, "srv6",
                                carriers.isEmpty() ? null : carriers.get(0), carriers.isEmpty() ? null : carriers,
                                weight, state));
                    }
                    if (!enc.equals("srv6") && (ev != null || !state.equals("GOOD"))) {
                        entries.add(new EvProfile.Entry(id + "#ev", job, "udp-sport",
                                ev == null ? null : Integer.toString(ev), null, weight, ev == null ? "DENIED" : state));
                    }
                    return null;
                })
                .list();
        List<EvProfile.Peer> peers = new ArrayList<>();
        byPeer.forEach((peer, entries) -> peers.add(new EvProfile.Peer(peer,
                entries.stream().anyMatch(e -> e.state().equals("GOOD")) ? 1 : 0, entries)));
        return new EvProfile(nic, version, peers);
    }
}
