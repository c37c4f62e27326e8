package io.weft.scheduler.agent;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.weft.scheduler.events.EventLog;
import io.weft.scheduler.job.PathLedger;
import io.weft.scheduler.lease.DedicatedConnection;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Every replica answers agent polls, but only the writer commits new versions: this feed tells the
 * others. It LISTENs on the ledger's channel (one notification per committed transaction, with the
 * range of versions it issued), reads the NICs of that range from {@code nic_versions} and publishes
 * the newer ones on the {@link PathBoard}, waking the agents parked here. On the writer itself the
 * board already has them (published after the commit) and nothing happens twice.
 *
 * <p>After (re)connecting it reads every NIC's version once, so a notification missed while the
 * connection was down costs nothing but latency. One thread ("weft-version-feed"), on a dedicated
 * connection. The same connection LISTENs on the events channel and hands other replicas' events
 * to the {@link EventLog} for its SSE clients (an event committed while the connection is down is
 * not pushed live; clients get it on their next reconnect with Last-Event-ID).
 */
@Component
class VersionFeed implements SmartLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(VersionFeed.class);
    private static final int WAIT_MS = 1000;

    private final PathBoard board;
    private final JdbcClient jdbc;
    private final DataSourceProperties dataSource;
    private final EventLog events;
    private volatile boolean running;
    private volatile Thread thread;
    private volatile Connection connection;

    VersionFeed(PathBoard board, JdbcClient jdbc, DataSourceProperties dataSource, EventLog events) {
        this.board = board;
        this.events = events;
        this.jdbc = jdbc;
        this.dataSource = dataSource;
    }

    @Override
    public void start() {
        String schema = jdbc.sql("select current_schema()").query(String.class).single();
        running = true;
        thread = new Thread(() -> run(schema), "weft-version-feed");
        thread.setDaemon(true);
        thread.start();
    }

    private void run(String schema) {
        String channel = PathLedger.VERSIONS_CHANNEL_PREFIX + schema;
        long backoffMs = 100;
        while (running) {
            try (Connection c = DedicatedConnection.open(dataSource, schema, "version feed")) {
                connection = c;
                try (Statement s = c.createStatement()) {
                    s.execute("LISTEN \"" + channel.replace("\"", "\"\"") + "\"");
                    s.execute("LISTEN \"" + events.channel().replace("\"", "\"\"") + "\"");
                }
                publish(c, "select nic, version from nic_versions", -1, -1);
                backoffMs = 100;
                PGConnection pg = c.unwrap(PGConnection.class);
                while (running) {
                    PGNotification[] ns = pg.getNotifications(WAIT_MS);
                    if (ns == null) {
                        continue;
                    }
                    long min = Long.MAX_VALUE;
                    long max = Long.MIN_VALUE;
                    List<String> eventIds = new ArrayList<>();
                    for (PGNotification n : ns) {
                        if (!n.getName().equals(channel)) {
                            eventIds.add(n.getParameter());
                            continue;
                        }
                        String[] range = n.getParameter().split(" ");
                        min = Math.min(min, Long.parseLong(range[0]));
                        max = Math.max(max, Long.parseLong(range[1]));
                    }
                    if (min <= max) {
                        publish(c, "select nic, version from nic_versions where version between ? and ?", min, max);
                    }
                    if (!eventIds.isEmpty()) {
                        try {
                            events.relay(eventIds);
                        } catch (RuntimeException e) {
                            // Clients still get these events on their next reconnect (Last-Event-ID).
                            LOG.warn("version feed: relaying {} events failed: {}", eventIds.size(), e.toString());
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (!running) {
                    return;
                }
                LOG.warn("version feed: {}; reconnecting in {} ms", e.toString(), backoffMs);
                try {
                    Thread.sleep(backoffMs);
                } catch (InterruptedException ie) {
                    return;
                }
                backoffMs = Math.min(5000, backoffMs * 2);
            } finally {
                connection = null;
            }
        }
    }

    private void publish(Connection c, String sql, long min, long max) throws SQLException {
        Map<String, Long> versions = new HashMap<>();
        try (PreparedStatement s = c.prepareStatement(sql)) {
            if (min >= 0) {
                s.setLong(1, min);
                s.setLong(2, max);
            }
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    versions.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        board.publishNewer(versions);
    }

    @Override
    public void stop() {
        running = false;
        Connection c = connection;
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // Stopping anyway.
            }
        }
        Thread t = thread;
        if (t != null) {
            t.interrupt();
            try {
                t.join(3000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
