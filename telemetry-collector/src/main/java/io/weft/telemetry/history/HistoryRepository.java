package io.weft.telemetry.history;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** Reads the history tables; rows come back as JSON-ready maps in the contracts' field names. */
@Repository
class HistoryRepository {
    private final JdbcTemplate jdbc;

    HistoryRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Both directions of one link, second by second in [from, to), oldest first. */
    List<Map<String, Object>> series(String linkId, Instant from, Instant to, int limit) {
        return jdbc.query("SELECT to_node, second, samples, rate_gbps_sum / samples AS rate_avg, rate_gbps_max,"
                + " util_sum / samples AS util_avg, util_max, capacity_gbps, drop_rate_max, ecn_fraction_max,"
                + " oper_status, hot FROM link_rollup WHERE link_id = ? AND second >= ? AND second < ?"
                + " ORDER BY second, to_node LIMIT ?", (rs, i) -> {
                    Map<String, Object> p = new LinkedHashMap<>();
                    p.put("toNode", rs.getString("to_node"));
                    p.put("second", time(rs, "second"));
                    p.put("samples", rs.getInt("samples"));
                    p.put("rateGbpsAvg", rs.getDouble("rate_avg"));
                    p.put("rateGbpsMax", rs.getDouble("rate_gbps_max"));
                    p.put("utilisationAvg", rs.getDouble("util_avg"));
                    p.put("utilisationMax", rs.getDouble("util_max"));
                    p.put("capacityGbps", rs.getDouble("capacity_gbps"));
                    p.put("dropRateMax", nullableDouble(rs, "drop_rate_max"));
                    p.put("ecnFractionMax", nullableDouble(rs, "ecn_fraction_max"));
                    p.put("operStatus", rs.getString("oper_status"));
                    p.put("hot", rs.getBoolean("hot"));
                    return p;
                }, linkId, utc(from), utc(to), limit);
    }

    /** Hotspot events with a sample time in [from, to), newest first, optionally of one link / kind. */
    List<Map<String, Object>> hotspots(Instant from, Instant to, String linkId, String kind, int limit) {
        StringBuilder sql = new StringBuilder("SELECT event_id, kind, link_id, direction, sample_ts_ns, detected_at,"
                + " utilisation, drop_rate, ecn_fraction, threshold FROM hotspot_event"
                + " WHERE sample_time >= ? AND sample_time < ?");
        List<Object> args = new ArrayList<>(List.of(utc(from), utc(to)));
        if (linkId != null) {
            sql.append(" AND link_id = ?");
            args.add(linkId);
        }
        if (kind != null) {
            sql.append(" AND kind = ?");
            args.add(kind);
        }
        sql.append(" ORDER BY sample_time DESC, event_id LIMIT ?");
        args.add(limit);
        return jdbc.query(sql.toString(), (rs, i) -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("schemaVersion", 1);
            e.put("eventId", rs.getString("event_id"));
            e.put("kind", rs.getString("kind"));
            e.put("linkId", rs.getString("link_id"));
            e.put("direction", rs.getString("direction"));
            e.put("sampleTimestampNs", rs.getObject("sample_ts_ns", BigDecimal.class).toPlainString());
            e.put("detectedAt", time(rs, "detected_at"));
            e.put("utilisation", nullableDouble(rs, "utilisation"));
            e.put("dropRate", nullableDouble(rs, "drop_rate"));
            e.put("ecnFraction", nullableDouble(rs, "ecn_fraction"));
            e.put("threshold", nullableDouble(rs, "threshold"));
            return e;
        }, args.toArray());
    }

    private static OffsetDateTime utc(Instant t) {
        return t.atOffset(ZoneOffset.UTC);
    }

    private static String time(ResultSet rs, String column) throws SQLException {
        return rs.getObject(column, OffsetDateTime.class).toInstant().toString();
    }

    private static Double nullableDouble(ResultSet rs, String column) throws SQLException {
        double v = rs.getDouble(column);
        return rs.wasNull() ? null : v;
    }
}
