package io.weft.scheduler.fabric;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import io.weft.contracts.LinkState;
import io.weft.placement.DenseFabric;
import io.weft.placement.PlacementConfig;
import io.weft.placement.PlacementEngine;
import io.weft.placement.PlanFlowEncoder;
import io.weft.plan.FabricPlan;
import io.weft.scheduler.web.ApiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionOperations;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The single writer of placement: it owns this service's placement engine, and every change to
 * the placement (a job placed or released, a re-placement on hotspots or link-down, a drain, a new
 * fabric) runs through {@link #write}, one at a time. A change gets the engine only through the
 * {@link Writing} handle it is given, which dies when the change returns; it records its outcome
 * with {@link Writing#commit}, which runs the PostgreSQL transaction and, if that fails, the undo
 * that takes the engine back to what the database holds. So memory never holds what the database
 * does not, and nothing outside a change can touch the engine.
 *
 * <p>Readers get immutable values: the fabric ({@link #view()}) and the engine's reservations
 * ({@link #reservations()}, copied once per change that a reader asks about). A new fabric or new
 * link states set by a change ({@link Writing#follow}) are seen by the change at once but by readers
 * only when the change returns, so a reader never sees a fabric whose re-placement is not committed.
 *
 * <p>Only the replica holding the writer lease may write ({@link #becomeWriter}, from
 * {@code WriterLease}); on a standby {@link #write} answers 503 with Retry-After. Every transaction
 * of a change also checks, under a row lock, that the lease epoch it was granted is still the
 * current one, so a writer that lost its lease without noticing cannot commit after its successor
 * took over.
 */
@Component
public class Placement {
    private static final Logger LOG = LoggerFactory.getLogger(Placement.class);
    /** Seconds a client is told to wait before retrying a write refused by a standby. */
    static final int RETRY_AFTER_SECONDS = 1;
    private static final long STANDBY = -1;
    /** What {@link #currentEpoch} says when no replica ever took the lease. */
    static final long NO_EPOCH = -2;

    /** What a change does with the writer's handle; its result is {@link #write}'s. */
    @FunctionalInterface
    public interface Change<T> {
        T apply(Writing w);
    }

    private final PlacementConfig config;
    private final TransactionOperations tx;
    /** The lease epoch now in PostgreSQL, read inside the caller's transaction under a share lock. */
    private final LongSupplier currentEpoch;
    private final ReentrantLock lock = new ReentrantLock();
    private final List<Consumer<Boolean>> roleListeners = new CopyOnWriteArrayList<>();
    /** Rebuilds the engine from PostgreSQL when this replica becomes the writer (set by FabricService). */
    private volatile Consumer<Writing> rebuild = w -> { };

    private volatile FabricView view;
    /** Guarded by {@link #lock}; null on a standby and before the first fabric. */
    private PlacementEngine engine;
    /** The lease epoch this replica writes under, or {@link #STANDBY}. */
    private volatile long epoch = STANDBY;
    /** The last reservations copied for readers; null once a change may have altered them. */
    private volatile Reservations reservations;
    /**
     * Counts the changes that may have altered the engine (every write, a rebuild, a dropped engine,
     * a role change); guarded by {@link #lock}. A plan made on a snapshot outside the writer applies
     * only while it still has the value the snapshot was taken at.
     */
    private long generation;
    /** What the last counted change was, for "superseded" answers; guarded by {@link #lock}. */
    private String lastChange = "none";

    @Autowired
    Placement(TransactionTemplate tx, JdbcClient jdbc) {
        this(PlacementConfig.DEFAULTS, tx, () -> jdbc.sql("select epoch from writer_lease where id = 1 for share")
                .query(Long.class).optional().orElse(NO_EPOCH));
    }

    /** For tests and embedding: {@code currentEpoch} reads the lease epoch inside the caller's transaction. */
    public Placement(PlacementConfig config, TransactionOperations tx, LongSupplier currentEpoch) {
        this.config = config;
        this.tx = tx;
        this.currentEpoch = currentEpoch;
    }

    /** The current fabric, or 503 when no snapshot or fabric file has arrived yet. */
    public FabricView view() {
        FabricView v = view;
        if (v == null) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, null,
                    "no fabric yet: waiting for the weft.fabric snapshot (or set weft.scheduler.fabric.file)");
        }
        return v;
    }

    public boolean ready() {
        return view != null;
    }

    /** True while this replica holds the writer lease. */
    public boolean writer() {
        return epoch != STANDBY;
    }

    /**
     * The engine's reservations now, as an immutable copy; 503 on a standby (the writer holds them)
     * or before the first fabric.
     */
    public Reservations reservations() {
        Reservations r = reservations;
        if (r != null) {
            return r;
        }
        lock.lock();
        try {
            // Not a change (the copy stays valid until the next one), but the same gate to the engine.
            Writing w = new Writing("read the reservations (the writer holds them)");
            try {
                r = Reservations.of(w.engine());
            } finally {
                w.closed = true;
            }
            reservations = r;
            return r;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs one change as the only writer; 503 with Retry-After when this replica is a standby.
     * Changes run one at a time, in the order they get here.
     */
    public <T> T write(String what, Change<T> change) {
        return run(what, change, true);
    }

    /**
     * Runs a fabric change on any replica: a standby only follows the fabric ({@link Writing#follow}),
     * the writer also changes its engine ({@link Writing#writer()} tells which).
     */
    <T> T writeOrFollow(String what, Change<T> change) {
        return run(what, change, false);
    }

    private <T> T run(String what, Change<T> change, boolean writerOnly) {
        return run(what, change, writerOnly, true);
    }

    /**
     * Reads the writer's engine under the writer lock without counting as a change: {@code read}
     * must not alter the engine (a snapshot to plan on outside the lock, say). 503 on a standby.
     */
    public <T> T read(String what, Change<T> read) {
        return run(what, read, true, false);
    }

    private <T> T run(String what, Change<T> change, boolean writerOnly, boolean counted) {
        lock.lock();
        try {
            if (writerOnly && epoch == STANDBY) {
                throw notWriter(what);
            }
            Writing w = new Writing(what);
            try {
                return change.apply(w);
            } finally {
                w.close();
                if (counted) {
                    changed(what);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Counts one change of the engine (the caller holds the lock). */
    private void changed(String what) {
        generation++;
        lastChange = what;
    }

    private static ApiException notWriter(String what) {
        return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, null, "this replica is a standby and cannot " + what
                + ": retry (another replica holds the writer lease, or is taking it over)", RETRY_AFTER_SECONDS);
    }

    /** An engine with nothing placed on {@code view}, configured as the writer's. */
    PlacementEngine emptyEngine(FabricView view) {
        return new PlacementEngine(DenseFabric.of(view.fabric(), view.effective()), new PlanFlowEncoder(view.plan()),
                config);
    }

    static FabricView viewOf(FabricPlan plan, Map<String, LinkState> effective, long version) {
        return new FabricView(plan.fabric(), plan, effective, version);
    }

    /** Called once at start-up by FabricService: how to rebuild the engine from PostgreSQL. */
    void onTakeover(Consumer<Writing> rebuildFromDatabase) {
        this.rebuild = rebuildFromDatabase;
    }

    /** Told (outside the writer lock) true when this replica became the writer, false when it stopped. */
    public void onRoleChange(Consumer<Boolean> listener) {
        roleListeners.add(listener);
    }

    /**
     * This replica now holds the lease under {@code leaseEpoch}: rebuilds the engine from PostgreSQL
     * (if the fabric is known; else the first fabric builds it), then tells the role listeners.
     */
    public void becomeWriter(long leaseEpoch) {
        long start = System.nanoTime();
        lock.lock();
        try {
            epoch = leaseEpoch;
            engine = null;
            reservations = null;
            changed("take over as writer");
            if (view != null) {
                Writing w = new Writing("take over as writer");
                try {
                    rebuild.accept(w);
                } finally {
                    w.close();
                }
            }
        } finally {
            lock.unlock();
        }
        LOG.info("writer lease epoch {}: this replica is the writer (engine rebuilt from PostgreSQL in {} ms)",
                leaseEpoch, (System.nanoTime() - start) / 1_000_000);
        tellRole(true);
    }

    /** The lease is lost or given up: drop the engine, refuse writes, tell the role listeners. */
    public void becomeStandby() {
        lock.lock();
        try {
            if (epoch == STANDBY) {
                return;
            }
            epoch = STANDBY;
            engine = null;
            reservations = null;
            changed("become a standby");
        } finally {
            lock.unlock();
        }
        LOG.warn("this replica is a standby now: writes are refused until it holds the writer lease again");
        tellRole(false);
    }

    private void tellRole(boolean writer) {
        for (Consumer<Boolean> l : roleListeners) {
            try {
                l.accept(writer);
            } catch (RuntimeException e) {
                LOG.error("role change listener failed: {}", e.toString(), e);
            }
        }
    }

    /**
     * The writer's handle for one change: the engine and the transaction that records the change.
     * Valid only while the change runs.
     */
    public final class Writing {
        private final String what;
        private boolean closed;
        /** The fabric this change set, published to readers when it returns; null if it set none. */
        private FabricView pending;

        private Writing(String what) {
            this.what = what;
        }

        /**
         * Ends the change: publishes the fabric it set (also after a failed transaction: the engine
         * was then dropped and is rebuilt from PostgreSQL on that fabric before the next change).
         */
        private void close() {
            closed = true;
            if (pending != null) {
                view = pending;
            }
            reservations = null;
        }

        private void check() {
            if (closed) {
                throw new IllegalStateException("placement handle of '" + what + "' used after its change returned");
            }
        }

        /** True when this replica is the writer (a standby only follows the fabric). */
        public boolean writer() {
            check();
            return epoch != STANDBY;
        }

        /** The engine, 503 on a standby or before the first fabric. */
        public PlacementEngine engine() {
            check();
            if (epoch == STANDBY) {
                throw notWriter(what);
            }
            view();
            if (engine == null) {
                // Dropped after a failed transaction: rebuilt from PostgreSQL before anything else.
                LOG.warn("rebuilding the engine from PostgreSQL before '{}'", what);
                changed("rebuild the engine before '" + what + "'");
                rebuild.accept(this);
                if (engine == null) {
                    throw new IllegalStateException("the engine could not be rebuilt before '" + what + "'");
                }
            }
            return engine;
        }

        /**
         * Drops the engine after a change whose transaction failed and that cannot be undone step by
         * step (a re-placement of everything): the next change rebuilds it from PostgreSQL.
         */
        public void discardEngine() {
            check();
            engine = null;
            changed("drop the engine after '" + what + "'");
        }

        /** The writer's change count now (see {@link #changedSince}). */
        public long generation() {
            check();
            return generation;
        }

        /**
         * Null when no change may have altered the engine since {@code generation} was read; else
         * how many did, and the last one (what a plan made on an older snapshot was superseded by).
         */
        public String changedSince(long generation) {
            check();
            long n = Placement.this.generation - generation;
            return n == 0 ? null : n + (n == 1 ? " change" : " changes") + " of the placement since the snapshot "
                    + "(the last: '" + lastChange + "')";
        }

        /** True when the engine exists (false on a standby and until the writer's first fabric). */
        boolean hasEngine() {
            check();
            return engine != null;
        }

        /** The fabric this change placed on: the one it set, else the one readers see. */
        public FabricView view() {
            check();
            return pending != null ? pending : Placement.this.view();
        }

        /**
         * Records the change in one transaction; if the transaction fails (or the lease was lost),
         * runs {@code undo} to take the engine back, then rethrows.
         */
        public <R> R commit(TransactionCallback<R> record, Runnable undo) {
            check();
            try {
                return tx.execute(status -> {
                    checkEpoch();
                    return record.doInTransaction(status);
                });
            } catch (RuntimeException e) {
                try {
                    undo.run();
                } catch (RuntimeException u) {
                    LOG.error("undo of '{}' failed after its transaction failed: {}", what, u.toString(), u);
                }
                throw e;
            }
        }

        /** {@link #commit} for a change with nothing to undo in the engine. */
        public <R> R commit(TransactionCallback<R> record) {
            return commit(record, () -> { });
        }

        /** A fresh, empty engine for a new topology or plan; the caller places the active jobs again. */
        void install(FabricView newView) {
            follow(newView);
            if (epoch == STANDBY) {
                throw notWriter(what);
            }
            engine = emptyEngine(newView);
        }

        /** A new fabric or link states to place on; on a standby the only change. */
        void follow(FabricView newView) {
            check();
            pending = newView;
            if (epoch == STANDBY) {
                engine = null;
            }
        }

        /**
         * Fences a writer that lost the lease: the epoch row is read under a share lock, so a takeover
         * (which bumps it) waits for this transaction, and this one fails after a takeover.
         */
        private void checkEpoch() {
            long mine = epoch;
            if (mine == STANDBY) {
                throw notWriter(what);
            }
            long current = currentEpoch.getAsLong();
            if (current != mine) {
                throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, null, "the writer lease moved to another "
                        + "replica (epoch " + current + ", this one " + mine + "): retry", RETRY_AFTER_SECONDS);
            }
        }
    }
}
