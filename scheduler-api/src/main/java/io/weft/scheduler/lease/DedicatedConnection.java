package io.weft.scheduler.lease;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;

/**
 * A PostgreSQL connection of its own, outside the pool, for state that lives as long as the
 * connection: the writer lease's advisory lock and the version feed's LISTEN. A pooled connection
 * would be recycled under them (and would take a slot from requests for good).
 */
public final class DedicatedConnection {
    private DedicatedConnection() {
    }

    /** Opens one, in {@code schema}, named {@code purpose} in pg_stat_activity. */
    public static Connection open(DataSourceProperties ds, String schema, String purpose) throws SQLException {
        Properties p = new Properties();
        if (ds.determineUsername() != null) {
            p.put("user", ds.determineUsername());
        }
        if (ds.determinePassword() != null) {
            p.put("password", ds.determinePassword());
        }
        p.put("ApplicationName", "weft-scheduler-api " + purpose);
        p.put("connectTimeout", "5");
        // A half-open connection (host gone without a FIN) must not hide a lost lease for long.
        p.put("tcpKeepAlive", "true");
        Connection c = DriverManager.getConnection(ds.determineUrl(), p);
        c.setSchema(schema);
        c.setAutoCommit(true);
        return c;
    }
}
