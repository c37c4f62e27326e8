package io.weft.scheduler.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import io.weft.contracts.LinkState;
import io.weft.fabric.Fabric;
import io.weft.fabric.Link;
import io.weft.lab.fabric.LeafSpineGenerator;
import io.weft.placement.Flow;
import io.weft.placement.Job;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlacementException;
import io.weft.plan.Planner;
import io.weft.scheduler.web.ApiException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.transaction.support.TransactionOperations;

/**
 * The single writer, without Spring or PostgreSQL: transactions run in place (a record callback that
 * throws is a failed transaction) and the lease epoch in the database is a number the test moves.
 */
class PlacementTest {
    private final Fabric fabric = LeafSpineGenerator.generate(LeafSpineGenerator.Params.of(2, 2, 2));
    private final AtomicLong epochInDatabase = new AtomicLong(Placement.NO_EPOCH);
    private final Placement placement = new Placement(PlacementConfig.DEFAULTS, TransactionOperations
            .withoutTransaction(), epochInDatabase::get);
    private final List<String> rebuilds = new ArrayList<>();
    private final List<Boolean> roles = new ArrayList<>();

    @BeforeEach
    void fabricKnownAndRebuildRecorded() throws Exception {
        Map<String, LinkState> up = new HashMap<>();
        for (Link l : fabric.links()) {
            up.put(l.id(), LinkState.UP);
        }
        FabricView view = Placement.viewOf(Planner.plan(fabric, null), up, 1);
        placement.onTakeover(w -> {
            rebuilds.add("rebuild");
            w.install(w.view());
        });
        placement.onRoleChange(roles::add);
        placement.writeOrFollow("follow the fabric", w -> {
            w.follow(view);
            return null;
        });
    }

    private void takeLease(long epoch) {
        epochInDatabase.set(epoch);
        placement.becomeWriter(epoch);
    }

    private static Job ring(String id) {
        return new Job(id, "default", List.of(new Flow(id + "/0", id, "leaf1-nic1", "leaf2-nic1", 10, 0),
                new Flow(id + "/1", id, "leaf2-nic1", "leaf1-nic1", 10, 0)));
    }

    private static void add(PlacementEngine engine, Job job) {
        try {
            engine.add(job);
        } catch (PlacementException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void release(PlacementEngine engine, String jobId) {
        try {
            engine.release(jobId);
        } catch (PlacementException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aStandbyFollowsTheFabricButRefusesEveryWriteWithRetryAfter() {
        assertThat(placement.ready()).isTrue();
        assertThat(placement.writer()).isFalse();
        assertThatThrownBy(() -> placement.write("place a job", w -> w.engine()))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
                    assertThat(e.retryAfterSeconds()).isEqualTo(1);
                    assertThat(e.getMessage()).contains("standby");
                });
        assertThatThrownBy(placement::reservations).isInstanceOf(ApiException.class);
        assertThat(rebuilds).isEmpty();
    }

    @Test
    void takingTheLeaseRebuildsTheEngineThenTellsTheListeners() {
        takeLease(7);
        assertThat(placement.writer()).isTrue();
        assertThat(rebuilds).containsExactly("rebuild");
        assertThat(roles).containsExactly(true);
        assertThat(placement.reservations().directions()).isEmpty();
    }

    @Test
    void readersSeeANewFabricOnlyOnceItsReplacementIsCommitted() {
        takeLease(1);
        FabricView v1 = placement.view();
        FabricView v2 = new FabricView(v1.fabric(), v1.plan(), v1.effective(), 2);
        List<Long> seenByReaders = new ArrayList<>();
        placement.write("replace the fabric", w -> {
            w.install(v2);
            add(w.engine(), ring("j1"));
            assertThat(w.view()).as("the change places on the fabric it set").isSameAs(v2);
            seenByReaders.add(placement.view().version());
            w.commit(status -> {
                seenByReaders.add(placement.view().version());
                return null;
            });
            seenByReaders.add(placement.view().version());
            return null;
        });
        assertThat(seenByReaders).as("before, during and after the commit, inside the change")
                .containsExactly(1L, 1L, 1L);
        assertThat(placement.view()).isSameAs(v2);
    }

    @Test
    void aFabricSetByAFailedChangeIsStillPublished() {
        takeLease(1);
        FabricView v1 = placement.view();
        FabricView v2 = new FabricView(v1.fabric(), v1.plan(), v1.effective(), 2);
        assertThatThrownBy(() -> placement.write("replace the fabric", w -> {
            w.install(v2);
            return w.commit(status -> {
                throw new IllegalStateException("database down");
            }, w::discardEngine);
        })).hasMessageContaining("database down");
        // The engine was dropped and is rebuilt on this fabric by the next change.
        assertThat(placement.view()).isSameAs(v2);
    }

    @Test
    void aCommittedChangeShowsInANewImmutableReservationsCopy() {
        takeLease(1);
        Reservations before = placement.reservations();
        placement.write("place", w -> {
            PlacementEngine engine = w.engine();
            add(engine, ring("j1"));
            return w.commit(status -> "stored", () -> release(engine, "j1"));
        });
        Reservations after = placement.reservations();
        assertThat(before.directions()).isEmpty();
        assertThat(after).isNotSameAs(before);
        assertThat(after.directions()).isNotEmpty().allMatch(r -> r.reservedGbps() == 10);
        assertThatThrownBy(() -> after.directions().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThat(placement.reservations()).as("no change since: the same copy").isSameAs(after);
    }

    @Test
    void aFailedTransactionRunsTheUndoSoTheEngineHoldsNothingTheDatabaseDoesNot() {
        takeLease(1);
        assertThatThrownBy(() -> placement.write("place", w -> {
            PlacementEngine engine = w.engine();
            add(engine, ring("j1"));
            return w.commit(status -> {
                throw new IllegalStateException("database down");
            }, () -> release(engine, "j1"));
        })).hasMessage("database down");
        assertThat(placement.reservations().directions()).isEmpty();
        Set<String> jobs = placement.write("look", w -> w.engine().jobIds());
        assertThat(jobs).isEmpty();
    }

    @Test
    void aWriterWhoseLeaseMovedOnCannotCommitAndUndoes() {
        takeLease(3);
        epochInDatabase.set(4); // another replica took the lease; this one has not noticed yet
        boolean[] recorded = {false};
        assertThatThrownBy(() -> placement.write("place", w -> {
            PlacementEngine engine = w.engine();
            add(engine, ring("j1"));
            return w.commit(status -> recorded[0] = true, () -> release(engine, "j1"));
        })).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
            assertThat(e.getMessage()).contains("epoch 4").contains("this one 3");
        });
        assertThat(recorded[0]).as("the record step never ran").isFalse();
        assertThat(placement.reservations().directions()).isEmpty();
    }

    @Test
    void theHandleDiesWithItsChange() {
        takeLease(1);
        Placement.Writing[] kept = new Placement.Writing[1];
        placement.write("leak the handle", w -> kept[0] = w);
        assertThatThrownBy(() -> kept[0].engine()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("used after its change returned");
    }

    @Test
    void aDiscardedEngineIsRebuiltFromTheDatabaseBeforeTheNextChange() {
        takeLease(1);
        placement.write("re-place everything, then fail to record it", w -> {
            w.discardEngine();
            return null;
        });
        assertThat(rebuilds).hasSize(1);
        placement.write("next", w -> w.engine());
        assertThat(rebuilds).hasSize(2);
        placement.write("drop it again", w -> {
            w.discardEngine();
            return null;
        });
        assertThat(placement.reservations().directions()).as("a reader also gets the rebuilt engine's").isEmpty();
        assertThat(rebuilds).hasSize(3);
    }

    @Test
    void losingTheLeaseDropsTheEngineAndRefusesWrites() {
        takeLease(1);
        placement.write("place", w -> {
            PlacementEngine engine = w.engine();
            add(engine, ring("j1"));
            return w.commit(status -> null, () -> release(engine, "j1"));
        });
        placement.becomeStandby();
        assertThat(roles).containsExactly(true, false);
        assertThat(placement.writer()).isFalse();
        assertThatThrownBy(() -> placement.write("place", w -> w.engine())).isInstanceOf(ApiException.class);
        // Taking it again starts from the database, not from what this replica held before.
        takeLease(2);
        assertThat(rebuilds).hasSize(2);
        assertThat(placement.reservations().directions()).isEmpty();
    }
}
