package io.weft.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/postgres/roles.sql on a real PostgreSQL (its own throw-away server, not the shared
 * devstack): each service's role logs in only with its password, and owns its schema and nothing
 * else, so neither service can read or write the other's tables.
 */
class ServiceRolesTest {
    /** PostgreSQL: invalid_password, insufficient_privilege. */
    private static final String BAD_PASSWORD = "28P01";
    private static final String DENIED = "42501";

    @TempDir
    static Path dir;
    private static EmbeddedPostgres pg;

    @BeforeAll
    static void startWithRolesAndATableEach() throws SQLException {
        pg = EmbeddedPostgres.start(dir.resolve("pg"), 0, Duration.ofSeconds(120), true);
        try (Connection c = scheduler(); Statement s = c.createStatement()) {
            s.execute("create table scheduler.jobs (id text primary key)");
            s.execute("insert into scheduler.jobs values ('j1')");
        }
        try (Connection c = collector(); Statement s = c.createStatement()) {
            s.execute("create table telemetry.link_history (link text)");
            s.execute("insert into telemetry.link_history values ('l1')");
        }
    }

    @AfterAll
    static void stop() {
        if (pg != null) {
            pg.close();
        }
    }

    private static Connection scheduler() throws SQLException {
        return pg.connect(ServiceRoles.SCHEDULER, ServiceRoles.SCHEDULER_PASSWORD);
    }

    private static Connection collector() throws SQLException {
        return pg.connect(ServiceRoles.COLLECTOR, ServiceRoles.COLLECTOR_PASSWORD);
    }

    @Test
    void aWrongOrMissingPasswordIsRefused() {
        assertThatThrownBy(() -> pg.connect(ServiceRoles.SCHEDULER, "wrong").close())
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo(BAD_PASSWORD));
        assertThatThrownBy(() -> pg.connect(ServiceRoles.COLLECTOR, ServiceRoles.SCHEDULER_PASSWORD).close())
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo(BAD_PASSWORD));
        assertThatThrownBy(() -> pg.connect(ServiceRoles.COLLECTOR, "").close()).isInstanceOf(SQLException.class);
    }

    @Test
    void theCollectorCannotTouchTheSchedulersTables() throws SQLException {
        try (Connection c = collector(); Statement s = c.createStatement()) {
            assertDenied(s, "insert into scheduler.jobs values ('stolen')");
            assertDenied(s, "select * from scheduler.jobs");
            assertDenied(s, "create table scheduler.extra (x int)");
        }
    }

    @Test
    void theSchedulerCannotTouchTheCollectorsTables() throws SQLException {
        try (Connection c = scheduler(); Statement s = c.createStatement()) {
            assertDenied(s, "delete from telemetry.link_history");
            assertDenied(s, "select * from telemetry.link_history");
            assertDenied(s, "create table telemetry.extra (x int)");
        }
    }

    @Test
    void neitherCreatesOutsideItsSchemaNorGrowsItsRights() throws SQLException {
        for (Connection c : new Connection[] {scheduler(), collector()}) {
            try (c; Statement s = c.createStatement()) {
                assertDenied(s, "create table public.anything (x int)");
                assertDenied(s, "create schema elsewhere");
                assertDenied(s, "create role intruder");
            }
        }
    }

    @Test
    void applyingTheRolesAgainOnARestartKeepsEveryTable() throws SQLException {
        // The devstack applies the file on every start of the same data directory: it must be idempotent.
        pg.close();
        pg = EmbeddedPostgres.start(dir.resolve("pg"), 0, Duration.ofSeconds(120), true);
        try (Connection c = scheduler(); Statement s = c.createStatement()) {
            s.execute("insert into scheduler.jobs values ('j2')");
        }
        try (Connection c = collector(); Statement s = c.createStatement()) {
            s.execute("insert into telemetry.link_history values ('l2')");
        }
    }

    @Test
    void tablesMadeBeforeTheRolesAreHandedToThemOnTheNextStart() throws SQLException {
        // Before the services logged in as themselves, the devstack's user made their tables (and owned them).
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("create table scheduler.legacy (id bigint generated always as identity, v text)");
            s.execute("create table telemetry.legacy_history (t timestamptz) partition by range (t)");
            s.execute("create table telemetry.legacy_history_1 partition of telemetry.legacy_history"
                    + " for values from ('2026-01-01') to ('2026-01-02')");
        }
        pg.close();
        pg = EmbeddedPostgres.start(dir.resolve("pg"), 0, Duration.ofSeconds(120), true);
        try (Connection c = scheduler(); Statement s = c.createStatement()) {
            s.execute("insert into scheduler.legacy (v) values ('mine now')");
            s.execute("drop table scheduler.legacy");
        }
        try (Connection c = collector(); Statement s = c.createStatement()) {
            s.execute("insert into telemetry.legacy_history values ('2026-01-01T10:00:00Z')");
            s.execute("drop table telemetry.legacy_history_1");
            s.execute("drop table telemetry.legacy_history");
        }
    }

    private static void assertDenied(Statement s, String sql) {
        assertThatThrownBy(() -> s.execute(sql)).as(sql)
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo(DENIED));
    }
}
