package io.weft.devstack;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Weft's per-service PostgreSQL roles in the devstack: {@code deploy/postgres/roles.sql} (the file
 * deployments apply), the devstack's passwords, and password authentication for those roles (the
 * embedded server trusts every other local login, as a dev database does).
 *
 * <p>The devstack's own user {@value EmbeddedPostgres#USER} is made a member of both roles: it is the
 * devstack's administrator, reading every schema for tests and making throw-away schemas for them. The
 * services started on the devstack (the demo, the system tests) log in as their own role.
 */
public final class ServiceRoles {
    /** Owns schema {@code scheduler}; scheduler-api's login in deploy/. */
    public static final String SCHEDULER = "weft_scheduler";
    public static final String SCHEDULER_PASSWORD = "weft-scheduler-dev";
    /** Owns schema {@code telemetry}; telemetry-collector's login in deploy/. */
    public static final String COLLECTOR = "weft_collector";
    public static final String COLLECTOR_PASSWORD = "weft-collector-dev";

    private static final String SQL = "roles.sql";
    /**
     * A devstack database made before the roles existed has both schemas and their tables owned by
     * {@value EmbeddedPostgres#USER} (the services logged in as it); hand them to the roles so the services
     * can log in as themselves. Sequences and indexes of a table follow it; partitions do not, so each
     * relation is handed over on its own. A no-op once done.
     */
    private static final String ADOPT_OLDER_OBJECTS = """
            DO $$
            DECLARE
                r record;
                owner text;
            BEGIN
                FOR r IN SELECT n.nspname AS schema, c.relname AS rel, c.relkind AS kind
                         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                         WHERE n.nspname IN ('scheduler', 'telemetry') AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
                           -- a serial or identity sequence follows its table (and refuses to move alone)
                           AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d
                                    WHERE d.objid = c.oid AND d.deptype IN ('a', 'i')))
                LOOP
                    owner := CASE r.schema WHEN 'scheduler' THEN '%1$s' ELSE '%2$s' END;
                    EXECUTE format('ALTER %%s %%I.%%I OWNER TO %%I', CASE r.kind WHEN 'S' THEN 'SEQUENCE'
                        WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END,
                        r.schema, r.rel, owner);
                END LOOP;
                ALTER SCHEMA scheduler OWNER TO %1$s;
                ALTER SCHEMA telemetry OWNER TO %2$s;
            END
            $$""".formatted(SCHEDULER, COLLECTOR);
    private static final String HBA_MARKER = "# weft service roles: password logins";

    private ServiceRoles() {
    }

    /** Applies the roles on the weft database through a superuser connection; idempotent. */
    static void apply(Connection superuserOnWeft) throws SQLException {
        try (Statement s = superuserOnWeft.createStatement()) {
            s.execute(rolesSql());
            // Literals, not parameters (ALTER ROLE takes none): the passwords are the constants above.
            s.execute("alter role " + SCHEDULER + " password '" + SCHEDULER_PASSWORD + "'");
            s.execute("alter role " + COLLECTOR + " password '" + COLLECTOR_PASSWORD + "'");
            s.execute("grant " + SCHEDULER + ", " + COLLECTOR + " to " + EmbeddedPostgres.USER);
            s.execute(ADOPT_OLDER_OBJECTS);
            requirePasswords(s);
        }
    }

    /** The SQL file deploy/postgres/roles.sql, packaged with the devstack. */
    static String rolesSql() {
        try (InputStream in = ServiceRoles.class.getResourceAsStream(SQL)) {
            if (in == null) {
                throw new DevstackException("PostgreSQL: " + SQL
                        + " is not on the devstack's classpath (build it with Maven)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DevstackException("PostgreSQL: cannot read " + SQL + ": " + e.getMessage(), e);
        }
    }

    /** Puts scram-sha-256 lines for the service roles before the server's trust lines, then reloads. */
    private static void requirePasswords(Statement s) throws SQLException {
        Path hba;
        try (ResultSet rs = s.executeQuery("show hba_file")) {
            rs.next();
            hba = Path.of(rs.getString(1));
        }
        try {
            String current = Files.readString(hba);
            if (current.contains(HBA_MARKER)) {
                return;
            }
            String roles = SCHEDULER + "," + COLLECTOR;
            // pg_hba.conf is read top-down, first match wins: these lines must come first.
            Files.writeString(hba, HBA_MARKER + "\n"
                    + "host all " + roles + " 127.0.0.1/32 scram-sha-256\n"
                    + "host all " + roles + " ::1/128 scram-sha-256\n"
                    + "local all " + roles + " scram-sha-256\n\n" + current);
        } catch (IOException e) {
            throw new DevstackException("PostgreSQL: cannot update " + hba + ": " + e.getMessage(), e);
        }
        try (ResultSet rs = s.executeQuery("select pg_reload_conf()")) {
            rs.next();
        }
    }
}
