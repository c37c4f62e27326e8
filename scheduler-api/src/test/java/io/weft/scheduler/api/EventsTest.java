package io.weft.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.weft.scheduler.events.EventLog;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

class EventsTest extends ApiTestSupport {
    @Autowired
    JdbcClient jdbc;
    @Autowired
    EventLog events;
    @Autowired
    PlatformTransactionManager txManager;

    /**
     * An event another replica commits (the row plus its notification, as its EventLog writes them)
     * reaches this replica's subscribers live, through PostgreSQL alone.
     */
    @Test
    void subscribersSeeEventsCommittedByAnotherReplica() throws Exception {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        var response = HTTP.sendAsync(builder("/v1/events", OPERATOR)
                .header("Accept", "text/event-stream").GET().build(),
                HttpResponse.BodyHandlers.ofLines()).get(10, TimeUnit.SECONDS);
        Thread reader = new Thread(() -> response.body().forEach(lines::add), "sse-reader");
        reader.setDaemon(true);
        reader.start();
        assertThat(waitFor(lines, "event:hello")).isTrue();

        long id = jdbc.sql("with e as (insert into events (type, subject, payload) "
                        + "values ('link-undrained', 'relayed-from-peer', '{}'::jsonb) returning id) "
                        + "select id, pg_notify(?, id || ' another-replica') from e")
                .param(events.channel()).query((rs, n) -> rs.getLong(1)).single();
        assertThat(waitFor(lines, "id:" + id)).isTrue();
        assertThat(waitFor(lines, "relayed-from-peer")).isTrue();
        response.body().close();
    }

    @Test
    void subscribersSeeJobCreatedAndReleased() throws Exception {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        var stream = HTTP.sendAsync(builder("/v1/events", OPERATOR).header("Accept", "text/event-stream").GET().build(),
                HttpResponse.BodyHandlers.ofLines());
        HttpResponse<java.util.stream.Stream<String>> response = stream.get(10, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        Thread reader = new Thread(() -> response.body().forEach(lines::add), "sse-reader");
        reader.setDaemon(true);
        reader.start();
        assertThat(waitFor(lines, "event:hello")).isTrue();

        String id = createRing("sse", 10, "nic1", "nic2").get("id").asString();
        assertThat(waitFor(lines, "event:job-created")).isTrue();
        assertThat(waitFor(lines, id)).isTrue();
        delete("/v1/jobs/" + id, SCHEDULER);
        assertThat(waitFor(lines, "event:job-released")).isTrue();
        response.body().close();
    }

    /**
     * Events commit in id order: while one transaction holds an appended event, another's append
     * waits, so its event gets the higher id and commits after. Without that, a client resuming
     * from the later-committed higher id would never see the lower one.
     */
    @Test
    void eventsCommitInIdOrder() throws Exception {
        var tx = new TransactionTemplate(txManager);
        CountDownLatch firstAppended = new CountDownLatch(1);
        CountDownLatch commitFirst = new CountDownLatch(1);
        var pool = Executors.newFixedThreadPool(2);
        try {
            Future<Long> first = pool.submit(() -> tx.execute(s -> {
                events.append("link-undrained", "held-open", Map.of());
                long id = appendedId();
                firstAppended.countDown();
                await(commitFirst);
                return id;
            }));
            await(firstAppended);
            Future<Long> second = pool.submit(() -> tx.execute(s -> {
                events.append("link-undrained", "appended-later", Map.of());
                return appendedId();
            }));
            Thread.sleep(500);
            assertThat(second.isDone()).as("the second append waits for the first's commit").isFalse();
            commitFirst.countDown();
            long firstId = first.get(10, TimeUnit.SECONDS);
            long secondId = second.get(10, TimeUnit.SECONDS);
            assertThat(secondId).isGreaterThan(firstId);
            assertThat(events.since(firstId - 1)).extracting(EventLog.Event::id).startsWith(firstId, secondId);
        } finally {
            commitFirst.countDown();
            pool.shutdownNow();
        }
    }

    /** The id this transaction's append took (the sequence's value in this session). */
    private long appendedId() {
        return jdbc.sql("select currval(pg_get_serial_sequence('events', 'id'))").query(Long.class).single();
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A resumed stream also opens with hello, at the id the client gave when nothing was missed. */
    @Test
    void resumedStreamOpensWithHelloAtTheClientsPosition() throws Exception {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        var response = HTTP.sendAsync(builder("/v1/events", OPERATOR).header("Accept", "text/event-stream")
                .header("Last-Event-ID", "9223372036854775806").GET().build(), HttpResponse.BodyHandlers.ofLines())
                .get(10, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        Thread reader = new Thread(() -> response.body().forEach(lines::add), "sse-reader");
        reader.setDaemon(true);
        reader.start();
        assertThat(waitFor(lines, "event:hello")).isTrue();
        assertThat(waitFor(lines, "id:9223372036854775806")).isTrue();
        response.body().close();
    }

    /**
     * A first connection asking for the latest events gets them, oldest first, before its hello: a
     * dashboard opened just after a re-placement still lists it.
     */
    @Test
    void firstConnectionReplaysTheLatestEventsItAsksFor() throws Exception {
        long[] ids = new long[3];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = jdbc.sql("insert into events (type, subject, payload) values ('link-drained', ?, '{}'::jsonb) "
                    + "returning id").param("recent-" + i).query(Long.class).single();
        }
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        var response = HTTP.sendAsync(builder("/v1/events?recent=2", OPERATOR).header("Accept", "text/event-stream")
                .GET().build(), HttpResponse.BodyHandlers.ofLines()).get(10, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        Thread reader = new Thread(() -> response.body().forEach(lines::add), "sse-reader");
        reader.setDaemon(true);
        reader.start();
        // One SSE event per block of lines (its fields in any order), blocks end at a blank line.
        java.util.List<String> idsBeforeHello = new java.util.ArrayList<>();
        String hello = null;
        String id = null;
        String name = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (hello == null && System.nanoTime() < deadline) {
            String l = lines.poll(200, TimeUnit.MILLISECONDS);
            if (l == null) {
                continue;
            }
            if (l.startsWith("id:")) {
                id = l.substring(3).trim();
            } else if (l.startsWith("event:")) {
                name = l.substring(6).trim();
            } else if (l.isEmpty() && name != null) {
                if (name.equals("hello")) {
                    hello = id;
                } else {
                    idsBeforeHello.add(id);
                }
                id = null;
                name = null;
            }
        }
        response.body().close();
        assertThat(idsBeforeHello).containsExactly(Long.toString(ids[1]), Long.toString(ids[2]));
        assertThat(hello).isEqualTo(Long.toString(ids[2]));
    }

    @Test
    void recentOutsideZeroToAThousandIsRefused() {
        for (String bad : new String[] {"", "-1", "x", "1001", "99999"}) {
            Reply r = send(builder("/v1/events?recent=" + bad, OPERATOR).GET().build());
            assertThat(r.status()).as("'" + bad + "'").isEqualTo(400);
            assertThat(r.body().get("field").asString()).isEqualTo("recent");
        }
    }

    @Test
    void emptyOrOversizeLastEventIdIsRefused() {
        for (String bad : new String[] {"", "x", "9223372036854775808"}) {
            Reply r = send(builder("/v1/events", OPERATOR).header("Last-Event-ID", bad).GET().build());
            assertThat(r.status()).as("'" + bad + "'").isEqualTo(400);
            assertThat(r.body().get("field").asString()).isEqualTo("Last-Event-ID");
        }
    }

    /** True once a line containing {@code text} arrived (bounded wait, not a speed assertion). */
    private static boolean waitFor(BlockingQueue<String> lines, String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline) {
            String l = lines.poll(200, TimeUnit.MILLISECONDS);
            if (l != null && l.replace(" ", "").contains(text.replace(" ", ""))) {
                return true;
            }
        }
        return false;
    }
}
