package io.weft.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

import io.weft.devstack.junit.DevstackExtension;
import io.weft.devstack.junit.WeftDevstackTest;
import org.junit.jupiter.api.Test;

@WeftDevstackTest
class SharedPostgresTest {

    @Test
    void aRowRoundTripsThroughTheWeftDatabase(DevstackEndpoints devstack) throws Exception {
        try (Connection c = DriverManager.getConnection(devstack.jdbcUrl(), devstack.jdbcUser(),
                devstack.jdbcPassword());
             Statement s = c.createStatement()) {
            s.execute("create table if not exists roundtrip (id int primary key, name text not null)");
            s.execute("delete from roundtrip");
            try (PreparedStatement insert = c.prepareStatement("insert into roundtrip values (?, ?)")) {
                insert.setInt(1, 7);
                insert.setString(2, "spine-7");
                insert.executeUpdate();
            }
            try (ResultSet rs = s.executeQuery("select name, current_database(), current_user from roundtrip where id "
                    + "= 7")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("spine-7");
                assertThat(rs.getString(2)).isEqualTo("weft");
                assertThat(rs.getString(3)).isEqualTo("weft");
            }
        }
    }

    @Test
    void theJvmStartedOneDevstack(DevstackEndpoints devstack) {
        // SharedKafkaTest asserts the same: whichever class runs second proves the sharing.
        assertThat(DevstackExtension.startCount()).isEqualTo(1);
        assertThat(devstack.jdbcUrl()).startsWith("jdbc:postgresql://127.0.0.1:").endsWith("/weft");
    }
}
