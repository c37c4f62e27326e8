package io.weft.scheduler.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.weft.devstack.DevstackEndpoints;
import io.weft.devstack.junit.WeftDevstackTest;
import io.weft.placement.PlacementConfig;
import io.weft.scheduler.fabric.Placement;
import io.weft.scheduler.web.ApiException;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The lease on the devstack's real PostgreSQL, two replicas in this JVM (each its own Placement and
 * lease, polling every 50 ms), on a schema of their own: exactly one writes, the other takes over when
 * the writer lets go or its connection dies, and a writer that has not yet noticed its loss cannot
 * commit (the epoch fence).
 */
@WeftDevstackTest
class WriterLeaseTest {
    private static final long POLL_MS = 50;

    private final List<WriterLease> leases = new ArrayList<>();
    private DevstackEndpoints e;
    private String schema;
    private JdbcClient jdbc;
    private TransactionTemplate tx;

    @BeforeEach
    void ownSchema(DevstackEndpoints e) {
        this.e = e;
        schema = "lease_test_" + System.nanoTime();
        Flyway.configure().dataSource(e.jdbcUrl(), e.jdbcUser(), e.jdbcPassword()).schemas(schema)
                .defaultSchema(schema).locations("classpath:db/migration").load().migrate();
        DriverManagerDataSource ds = new DriverManagerDataSource(e.jdbcUrl(), e.jdbcUser(), e.jdbcPassword());
        ds.setSchema(schema);
        jdbc = JdbcClient.create(ds);
        tx = new TransactionTemplate(new DataSourceTransactionManager(ds));
    }

    @AfterEach
    void stopLeases() {
        leases.forEach(WriterLease::stop);
    }

    /** One replica: its Placement (fenced by the real epoch row) and its lease, started. */
    private Placement replica(String name) {
        return replica(name, POLL_MS);
    }

    private Placement replica(String name, long pollMs) {
        Placement p = new Placement(PlacementConfig.DEFAULTS, tx, () -> jdbc
                .sql("select epoch from writer_lease where id = 1 for share").query(Long.class).single());
        DataSourceProperties ds = new DataSourceProperties();
        ds.setUrl(e.jdbcUrl());
        ds.setUsername(e.jdbcUser());
        ds.setPassword(e.jdbcPassword());
        WriterLease lease = new WriterLease(p, jdbc, ds, new LeaseProperties(pollMs, name));
        leases.add(lease);
        lease.start();
        return p;
    }

    private long epoch() {
        return jdbc.sql("select epoch from writer_lease where id = 1").query(Long.class).single();
    }

    private String holder() {
        return jdbc.sql("select holder from writer_lease where id = 1").query(String.class).single();
    }

    /** A change that commits an empty transaction: fails unless this replica writes under the current epoch. */
    private static void commitSomething(Placement p) {
        p.write("commit nothing", w -> w.commit(status -> null));
    }

    @Test
    void theFirstReplicaWritesTheSecondWaitsAndTakesOverWhenTheFirstLetsGo() throws Exception {
        Placement a = replica("a");
        Placement b = replica("b");
        assertThat(a.writer()).isTrue();
        assertThat(b.writer()).isFalse();
        assertThat(epoch()).isEqualTo(1);
        assertThat(holder()).isEqualTo("a");
        commitSomething(a);
        assertThatThrownBy(() -> commitSomething(b)).isInstanceOf(ApiException.class).hasMessageContaining("standby");
        Thread.sleep(5 * POLL_MS);
        assertThat(b.writer()).as("still a standby while a holds the lease").isFalse();

        leases.get(0).stop();
        assertThat(a.writer()).isFalse();
        long t0 = System.nanoTime();
        await("b takes the lease", () -> b.writer());
        System.out.printf("lease handed over %d ms after the writer let go (poll %d ms)%n",
                (System.nanoTime() - t0) / 1_000_000, POLL_MS);
        assertThat(epoch()).isEqualTo(2);
        assertThat(holder()).isEqualTo("b");
        commitSomething(b);
    }

    @Test
    void aWriterWhoseConnectionDiedIsFencedThenStepsDown() throws Exception {
        // a polls once a minute, so it cannot notice its loss during the test: the fence alone must keep
        // it from committing after b took over.
        Placement a = replica("a", 60_000);
        Placement b = replica("b");
        assertThat(a.writer()).isTrue();
        int killed = jdbc.sql("select count(pg_terminate_backend(pid)) from pg_locks where locktype = 'advisory' "
                + "and granted and classid = 1464157780 and objid::bigint = (hashtext(?)::bigint & 4294967295)")
                .param("weft-scheduler-writer:" + schema).query(Integer.class).single();
        assertThat(killed).as("a's lease connection").isEqualTo(1);
        await("b takes the lease", () -> b.writer());
        assertThat(a.writer()).as("a has not noticed yet").isTrue();
        assertThatThrownBy(() -> commitSomething(a)).isInstanceOf(ApiException.class)
                .hasMessageContaining("writer lease moved");
        commitSomething(b);
        leases.get(0).tick();
        assertThat(a.writer()).as("a's next poll finds its connection gone").isFalse();
        assertThat(b.writer()).isTrue();
    }

    private static void await(String what, Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.call()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after 10 s waiting for " + what);
            }
            Thread.sleep(5);
        }
    }
}
