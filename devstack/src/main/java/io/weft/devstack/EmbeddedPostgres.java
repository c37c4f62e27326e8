package io.weft.devstack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * PostgreSQL (zonky embedded binaries, PostgreSQL 17) run as a child process on loopback with a
 * persistent data directory, holding database {@value #DATABASE} owned by user {@value #USER}.
 *
 * <p>The first start runs initdb (~8 s); later starts on the same directory reuse the cluster.
 */
public final class EmbeddedPostgres implements AutoCloseable {
    public static final String DATABASE = "weft";
    public static final String USER = "weft";
    public static final String PASSWORD = "weft";

    private final io.zonky.test.db.postgres.embedded.EmbeddedPostgres postgres;
    private boolean closed;

    private EmbeddedPostgres(io.zonky.test.db.postgres.embedded.EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    /** Starts PostgreSQL with data in {@code dataDir} on 127.0.0.1:{@code port} (0 = a free port). */
    public static EmbeddedPostgres start(Path dataDir, int port, Duration readyTimeout) {
        int pgPort = Ports.claim("PostgreSQL", port);
        io.zonky.test.db.postgres.embedded.EmbeddedPostgres pg;
        try {
            Files.createDirectories(dataDir);
            pg = io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    .setPort(pgPort)
                    .setServerConfig("listen_addresses", Ports.LOOPBACK)
                    .setPGStartupWait(readyTimeout)
                    // zonky's own shutdown hook stays on: it stops the server process even when the JVM
                    // exits half-way through a start, before anyone holds this wrapper to close it.
                    .start();
        } catch (IOException | RuntimeException e) {
            throw new DevstackException("PostgreSQL: cannot start on port " + pgPort + " with data in " + dataDir
                    + ": " + e.getMessage(), e);
        }
        EmbeddedPostgres wrapper = new EmbeddedPostgres(pg);
        try {
            wrapper.createWeftDatabase();
            wrapper.selectOne();
        } catch (SQLException | RuntimeException e) {
            wrapper.close();
            throw new DevstackException("PostgreSQL on port " + pgPort + " not usable: " + e.getMessage(), e);
        }
        return wrapper;
    }

    public int port() {
        return postgres.getPort();
    }

    /** JDBC URL of database {@value #DATABASE} on loopback. */
    public String jdbcUrl() {
        return "jdbc:postgresql://" + Ports.LOOPBACK + ":" + port() + "/" + DATABASE;
    }

    public String user() {
        return USER;
    }

    public String password() {
        return PASSWORD;
    }

    /** A new connection to {@value #DATABASE} as {@value #USER}; the caller closes it. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), USER, PASSWORD);
    }

    /** Stops the server (fast shutdown: open sessions are rolled back). Safe to call twice. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            postgres.close();
        } catch (IOException e) {
            throw new DevstackException("PostgreSQL: stop failed: " + e.getMessage(), e);
        }
    }

    /** Creates the weft role and database unless an earlier start on this data directory did. */
    private void createWeftDatabase() throws SQLException {
        try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            if (!exists(c, "select 1 from pg_roles where rolname = ?", USER)) {
                s.execute("create role " + USER + " login password '" + PASSWORD + "'");
            }
            if (!exists(c, "select 1 from pg_database where datname = ?", DATABASE)) {
                s.execute("create database " + DATABASE + " owner " + USER);
            }
        }
    }

    private static boolean exists(Connection c, String sql, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private void selectOne() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select 1")) {
            if (!rs.next() || rs.getInt(1) != 1) {
                throw new SQLException("select 1 returned no row");
            }
        }
    }
}
