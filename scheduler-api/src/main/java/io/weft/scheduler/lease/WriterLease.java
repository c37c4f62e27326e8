package io.weft.scheduler.lease;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.weft.scheduler.fabric.Placement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Exactly one scheduler-api replica places at a time: the one holding this lease, a PostgreSQL
 * session advisory lock ({@code pg_try_advisory_lock}) on a dedicated connection, keyed by the
 * service's schema (so services on other schemas of one database do not compete). The lock lives as
 * long as that connection: when the writer dies (even by SIGKILL) PostgreSQL sees its socket close
 * and frees the lock, and a standby polling every {@code pollMs} takes it.
 *
 * <p>On taking the lease a replica bumps the lease epoch (the fence every placement transaction
 * checks) and becomes the writer ({@link Placement#becomeWriter}), which rebuilds its engine from
 * PostgreSQL. The writer checks its connection on the same period; if the connection is gone, so is
 * the lock, and the replica becomes a standby at once. Started before the web server (and stopped
 * after it), so a single replica answers its first request as the writer.
 */
@Component
class WriterLease implements SmartLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(WriterLease.class);
    /** Advisory lock class id of the writer lease ("WEFT" in ASCII); the object id hashes the schema. */
    private static final int LOCK_CLASS = 0x57454654;

    private final Placement placement;
    private final JdbcClient jdbc;
    private final DataSourceProperties dataSource;
    private final LeaseProperties props;
    private final String holder;
    private ScheduledExecutorService poller;
    private volatile boolean running;
    /** Owned by the poller thread (and start/stop, which exclude it). */
    private Connection connection;
    private String schema;
    private boolean held;

    WriterLease(Placement placement, JdbcClient jdbc, DataSourceProperties dataSource, LeaseProperties props) {
        this.placement = placement;
        this.jdbc = jdbc;
        this.dataSource = dataSource;
        this.props = props;
        this.holder = props.holder().isBlank() ? ManagementFactory.getRuntimeMXBean().getName() : props.holder();
    }

    @Override
    public synchronized void start() {
        schema = jdbc.sql("select current_schema()").query(String.class).single();
        running = true;
        tick();
        if (!held) {
            LOG.info("standby: another replica holds the writer lease of schema {}; polling every {} ms", schema,
                    props.pollMs());
        }
        poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "weft-writer-lease");
            t.setDaemon(true);
            return t;
        });
        poller.scheduleWithFixedDelay(this::tick, props.pollMs(), props.pollMs(), TimeUnit.MILLISECONDS);
    }

    /** One poll: a standby tries to take the lease, the writer checks it still has it. */
    synchronized void tick() {
        if (!running) {
            return;
        }
        try {
            if (held) {
                if (!connection.isValid(2)) {
                    lost("its connection to PostgreSQL is gone");
                }
                return;
            }
            if (connection == null || connection.isClosed()) {
                connection = DedicatedConnection.open(dataSource, schema, "writer lease");
            }
            if (tryLock()) {
                held = true;
                long epoch = bumpEpoch();
                LOG.info("took the writer lease of schema {} (epoch {}, holder {})", schema, epoch, holder);
                placement.becomeWriter(epoch);
            }
        } catch (SQLException | RuntimeException e) {
            if (held) {
                lost(e.toString());
            } else {
                LOG.warn("writer lease poll failed: {}", e.toString());
                closeQuietly();
            }
        }
    }

    private boolean tryLock() throws SQLException {
        try (PreparedStatement s = connection.prepareStatement("select pg_try_advisory_lock(?, hashtext(?))")) {
            s.setInt(1, LOCK_CLASS);
            s.setString(2, "weft-scheduler-writer:" + schema);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /** The new term's epoch; waits for any transaction of the previous writer still holding the row. */
    private long bumpEpoch() throws SQLException {
        try (PreparedStatement s = connection.prepareStatement("insert into writer_lease (id, epoch, holder) "
                + "values (1, 1, ?) on conflict (id) do update set epoch = writer_lease.epoch + 1, "
                + "holder = excluded.holder, since = now() returning epoch")) {
            s.setString(1, holder);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private void lost(String why) {
        LOG.error("lost the writer lease of schema {}: {}", schema, why);
        held = false;
        closeQuietly();
        placement.becomeStandby();
    }

    private void closeQuietly() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // Closing is all that is left to do with it.
            }
            connection = null;
        }
    }

    @Override
    public void stop() {
        ScheduledExecutorService p = poller;
        if (p != null) {
            p.shutdownNow();
        }
        synchronized (this) {
            running = false;
            if (held) {
                held = false;
                placement.becomeStandby();
                // Closing the session frees the lock: a standby takes over on its next poll.
                LOG.info("giving up the writer lease of schema {}", schema);
            }
            closeQuietly();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Before the web server starts (Integer.MAX_VALUE - 2048) and after it stops. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 4096;
    }
}
