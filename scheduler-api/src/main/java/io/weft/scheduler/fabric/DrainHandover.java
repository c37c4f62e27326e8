package io.weft.scheduler.fabric;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.weft.scheduler.events.EventLog;
import io.weft.scheduler.web.ApiException;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Hands drains that scheduler-api recorded before link states moved to the controller (the
 * {@code link-drain-handover} events written by the migration that dropped {@code link_drains}) to the
 * controller, once each; retried every {@link #RETRY_SECONDS} s until the controller takes them all.
 */
@Component
class DrainHandover {
    private static final Logger LOG = LoggerFactory.getLogger(DrainHandover.class);
    static final int RETRY_SECONDS = 30;

    private final JdbcClient jdbc;
    private final ControllerClient controller;
    private final EventLog events;
    private final TransactionTemplate tx;
    private final ScheduledExecutorService retry = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "weft-drain-handover");
        t.setDaemon(true);
        return t;
    });

    DrainHandover(JdbcClient jdbc, ControllerClient controller, EventLog events, TransactionTemplate tx) {
        this.jdbc = jdbc;
        this.controller = controller;
        this.events = events;
        this.tx = tx;
    }

    @EventListener(ApplicationReadyEvent.class)
    void start() {
        if (pending().isEmpty()) {
            return;
        }
        retry.scheduleWithFixedDelay(this::handOver, 0, RETRY_SECONDS, TimeUnit.SECONDS);
    }

    /** Link ids drained before the upgrade and not yet taken by the controller. */
    List<String> pending() {
        return jdbc.sql("select h.subject from events h where h.type = 'link-drain-handover' and not exists "
                        + "(select 1 from events d where d.type = 'link-drain-handed-over' and d.subject = h.subject "
                        + "and d.id > h.id) order by h.id")
                .query(String.class).list();
    }

    void handOver() {
        try {
            List<String> links = pending();
            if (links.isEmpty()) {
                retry.shutdown();
                return;
            }
            for (String link : links) {
                ControllerClient.LinkStateAnswer a = controller.setLinkState(link, true);
                tx.executeWithoutResult(s -> events.append("link-drain-handed-over", link,
                        Map.of("linkId", link, "state", a.state(), "version", a.version())));
                LOG.info("drain of {} recorded before the upgrade handed to the controller (v{})", link, a.version());
            }
        } catch (ApiException e) {
            LOG.warn("drains recorded before the upgrade still wait for the controller ({}); retrying in {} s",
                    e.getMessage(), RETRY_SECONDS);
        } catch (RuntimeException e) {
            LOG.warn("drain handover failed, retrying in {} s: {}", RETRY_SECONDS, e.toString());
        }
    }

    @PreDestroy
    void stop() {
        retry.shutdownNow();
    }
}
