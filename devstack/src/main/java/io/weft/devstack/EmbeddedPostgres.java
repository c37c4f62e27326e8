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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
        return start(dataDir, port, readyTimeout, false);
    }

    /**
     * As {@link #start(Path, int, Duration)}; with {@code fromTemplate}, a new data directory is a copy of
     * a machine-wide ready one ({@link PostgresTemplate}) instead of a fresh initdb: ~1 s instead of ~8 s,
     * meant for tests that start a throw-away database in every JVM.
     */
    public static EmbeddedPostgres start(Path dataDir, int port, Duration readyTimeout, boolean fromTemplate) {
        if (fromTemplate && !Files.exists(dataDir.resolve("PG_VERSION"))) {
            try {
                PostgresTemplate.copyInto(dataDir, readyTimeout);
                return startWithoutTemplate(dataDir, port, readyTimeout);
            } catch (IOException | RuntimeException e) {
                // The template only saves time: fall back to initdb in a clean directory.
                PostgresTemplate.deleteTree(dataDir);
            }
        }
        return startWithoutTemplate(dataDir, port, readyTimeout);
    }

    static EmbeddedPostgres startWithoutTemplate(Path dataDir, int port, Duration readyTimeout) {
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

    /**
     * Stops a PostgreSQL server left running on {@code dataDir} by a devstack that was killed without
     * its shutdown hook (kill -9): it would hold the port and the data directory. Only a live process
     * whose command line is postgres on exactly this directory is stopped (SIGTERM, then waited for).
     *
     * @return the pid of the stopped server, or -1 when there was none
     */
    static long stopOrphan(Path dataDir, Duration timeout) {
        Path pidFile = dataDir.resolve("postmaster.pid");
        long pid;
        try {
            List<String> lines = Files.readAllLines(pidFile);
            pid = lines.isEmpty() ? -1 : Long.parseLong(lines.get(0).trim());
        } catch (IOException | NumberFormatException e) {
            return -1; // no pid file (clean stop) or an unreadable one (postgres itself deals with it)
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        String command = process.flatMap(p -> p.info().commandLine()).orElse("");
        if (process.isEmpty() || !process.get().isAlive() || !command.contains("postgres")
                || !command.contains(dataDir.toAbsolutePath().toString())) {
            return -1; // stale file, or the pid now belongs to something else
        }
        process.get().destroy();
        try {
            process.get().onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DevstackException("PostgreSQL: interrupted while stopping the old server " + pid);
        } catch (ExecutionException | TimeoutException e) {
            throw new DevstackException("PostgreSQL: an old server (pid " + pid + ") still runs on " + dataDir
                    + " and did not stop; stop it and retry");
        }
        return pid;
    }

    public int port() {
        return postgres.getPort();
    }

    /** JDBC URL of database {@value #DATABASE} on loopback. */
    public String jdbcUrl() {
        return jdbcUrl(port());
    }

    /** JDBC URL of database {@value #DATABASE} on loopback port {@code port}. */
    static String jdbcUrl(int port) {
        return "jdbc:postgresql://" + Ports.LOOPBACK + ":" + port + "/" + DATABASE;
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

    /**
     * Creates the weft role and database unless an earlier start on this data directory did, and the
     * services' roles ({@link ServiceRoles}).
     */
    private void createWeftDatabase() throws SQLException {
        try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            if (!exists(c, "select 1 from pg_roles where rolname = ?", USER)) {
                s.execute("create role " + USER + " login password '" + PASSWORD + "'");
            }
            if (!exists(c, "select 1 from pg_database where datname = ?", DATABASE)) {
                s.execute("create database " + DATABASE + " owner " + USER);
            }
        }
        try (Connection c = postgres.getDatabase("postgres", DATABASE).getConnection()) {
            ServiceRoles.apply(c);
        }
    }

    /** A new connection to {@value #DATABASE} as {@code user}; the caller closes it. */
    public Connection connect(String user, String password) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), user, password);
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
