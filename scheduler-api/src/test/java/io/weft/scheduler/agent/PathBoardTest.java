package io.weft.scheduler.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** The board's fan-out: who is woken, which profiles are read, how the work is batched. */
class PathBoardTest {
    private final AtomicInteger tasks = new AtomicInteger();
    /** Runs fan-out tasks at once, counting them. */
    private final Executor direct = r -> {
        tasks.incrementAndGet();
        r.run();
    };

    @Test
    void aPublishWakesOnlyOlderWaitersAndStampsTheVersion() {
        PathBoard board = new PathBoard(Map.of("nic1", 5L), new SimpleMeterRegistry(), direct, 2);
        List<Long> woken = new ArrayList<>();
        board.park("nic1", 5, v -> woken.add(v), () -> { });
        board.park("nic1", 9, v -> woken.add(-v), () -> { }); // an agent already at a newer version
        assertThat(board.waiting()).isEqualTo(2);
        long before = PathBoard.epochMicros();
        board.publishAll(Map.of("nic1", 7L));
        long after = PathBoard.epochMicros();
        assertThat(woken).containsExactly(7L);
        assertThat(board.waiting()).isEqualTo(1);
        assertThat(board.version("nic1")).isEqualTo(7);
        assertThat(board.publishedUs("nic1", 7)).isBetween(before, after);
        assertThat(board.publishedUs("nic1", 6)).as("only the latest version's stamp").isZero();
        board.publishAll(Map.of("nic1", 6L));
        assertThat(board.version("nic1")).as("versions never go back").isEqualTo(7);
    }

    /** The change feed's path: a version this board already has (its own commit) wakes and streams nothing. */
    @Test
    void publishNewerPassesOnOnlyVersionsTheBoardDoesNotHave() {
        PathBoard board = new PathBoard(Map.of("nic1", 5L, "nic2", 3L), new SimpleMeterRegistry(), direct, 2);
        List<String> streamed = new ArrayList<>();
        board.onPublish(new PathBoard.Listener() {
            @Override
            public boolean interested(String nic) {
                return true;
            }

            @Override
            public void published(String nic, long version) {
                streamed.add(nic + "@" + version);
            }
        });
        List<Long> woken = new ArrayList<>();
        board.park("nic2", 3, woken::add, () -> { });
        board.publishNewer(Map.of("nic1", 5L, "nic2", 4L));
        assertThat(woken).containsExactly(4L);
        assertThat(streamed).containsExactly("nic2@4");
        board.publishNewer(Map.of("nic1", 4L, "nic2", 4L));
        assertThat(streamed).as("nothing newer: nothing again").containsExactly("nic2@4");
        assertThat(board.version("nic1")).isEqualTo(5);
    }

    @Test
    void onlyNicsWithAgentsAreReadTheFirstChunkAloneAndTheWorkIsOneTaskPerWriterPerChunk() {
        PathBoard board = new PathBoard(Map.of(), new SimpleMeterRegistry(), direct, 2);
        List<List<String>> preloaded = new ArrayList<>();
        board.beforeWake(nics -> preloaded.add(List.copyOf(nics)));
        List<String> streamed = new ArrayList<>();
        board.onPublish(new PathBoard.Listener() {
            @Override
            public boolean interested(String nic) {
                return !nic.equals("idle");
            }

            @Override
            public void published(String nic, long version) {
                streamed.add(nic + "@" + version);
            }
        });
        Map<String, Long> committed = new LinkedHashMap<>();
        for (int i = 0; i < 300; i++) {
            committed.put("nic" + i, 10L + i);
        }
        committed.put("idle", 1L);
        board.publishAll(committed);
        assertThat(preloaded).as("the first chunk alone, then the rest in one read")
                .extracting(List::size).containsExactly(128, 172);
        assertThat(preloaded.stream().flatMap(List::stream)).doesNotContain("idle");
        assertThat(streamed).hasSize(300).contains("nic0@10", "nic299@309");
        assertThat(tasks.get()).as("two writer tasks per chunk, not one per agent").isEqualTo(6);
        assertThat(board.version("idle")).as("recorded even without agents").isEqualTo(1);
    }

    @Test
    void aFailingAgentStopsNeitherTheOthersNorTheStreams() {
        PathBoard board = new PathBoard(Map.of(), new SimpleMeterRegistry(), direct, 1);
        List<String> seen = new ArrayList<>();
        board.onPublish(new PathBoard.Listener() {
            @Override
            public boolean interested(String nic) {
                return false;
            }

            @Override
            public void published(String nic, long version) {
                seen.add("stream " + nic);
            }
        });
        board.park("nic1", 0, v -> {
            throw new IllegalStateException("connection gone");
        }, () -> { });
        board.park("nic1", 0, v -> seen.add("poll " + v), () -> { });
        board.publishAll(Map.of("nic1", 1L));
        assertThat(seen).containsExactly("poll 1", "stream nic1");
        assertThat(board.waiting()).isZero();
    }
}
