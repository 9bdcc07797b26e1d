package io.ringd.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.Supplier;

import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;

/**
 * The one write path of a {@link RingService}: each membership, settings or plan-step write takes the write
 * lock of the {@link RingCell} (and, through the {@link RingStore}, the store's), builds the next version on
 * the current one, passes the {@link WriteGate} and the {@link MovementGuard} unless it is exempt, makes it
 * durable, and only then swaps it in and tells the listeners; with a shared store, a version another
 * instance stored first is caught up with and the write built again. Also the plans' exclusive section
 * ({@link #exclusively}), which holds the same locks without writing.
 */
final class RingWrites {

    private final RingCell cell;
    private final RingStore store;
    private final RingLoader loader;
    private final RingListeners listeners;
    private final RingVersions versions;
    /** What a write that is not forced may move. */
    private final MovementGuard guard;
    /** Refuses writes that are not a plan's steps while a plan holds the ring. */
    private volatile WriteGate gate = WriteGate.OPEN;

    RingWrites(RingCell cell, RingLoader loader, RingListeners listeners, RingVersions versions,
            MovementGuard guard) {
        this.cell = cell;
        this.store = cell.store;
        this.loader = loader;
        this.listeners = listeners;
        this.versions = versions;
        this.guard = guard;
    }

    /** Sets the gate; the service allows it only before it starts. */
    void gate(WriteGate gate) {
        this.gate = Objects.requireNonNull(gate, "gate");
    }

    /** {@link RingService#put(Node, Long, boolean)}. */
    RingService.PutResult put(Node node, Long ifMatch, boolean force) {
        boolean[] created = new boolean[1];
        RingState s = write(RingListener.Op.PUT, ifMatch, force, null, cur -> {
            created[0] = !cur.ring().contains(node.id());
            return next(cur, List.of(Change.put(node)));
        });
        return new RingService.PutResult(s, created[0]);
    }

    /** {@link RingService#remove(String, Long, boolean)}. */
    RingState remove(String id, Long ifMatch, boolean force) {
        return write(RingListener.Op.REMOVE, ifMatch, force, null, cur -> next(cur, List.of(Change.remove(id))));
    }

    /** {@link RingService#apply(List, Long, boolean)}. */
    RingState apply(List<Change> changes, Long ifMatch, boolean force) {
        return write(RingListener.Op.BATCH, ifMatch, force, null, cur -> next(cur, changes));
    }

    /** {@link RingService#commitStep}. */
    HistoryDelta commitStep(List<Change> changes, PlanMark mark, long after) {
        Objects.requireNonNull(mark, "mark");
        write(RingListener.Op.BATCH, null, true, mark, cur -> {
            if (cur.version() != after) {
                HistoryDelta made = versions.stepAt(after + 1);
                if (made != null && mark.equals(made.plan())) {
                    return null; // committed already: answered below, from the history
                }
                throw new StepConflictException("the ring is at version " + cur.version() + ", but step " + mark.step()
                        + " of plan " + mark.id() + " was computed after version " + after + " and version "
                        + (after + 1) + " is " + (made == null ? "not kept" : made.plan() == null ? "no plan's step"
                        : "step " + made.plan().step() + " of plan " + made.plan().id()));
            }
            Next n = next(cur, changes);
            if (n == null) {
                throw new StepConflictException("step " + mark.step() + " of plan " + mark.id()
                        + " changes nothing at version " + after);
            }
            return new Next(n.state(), n.changes(), n.settings(), mark);
        });
        HistoryDelta made = versions.stepAt(after + 1);
        if (made == null || !mark.equals(made.plan())) {
            throw new StepConflictException("step " + mark.step() + " of plan " + mark.id() + " is not version "
                    + (after + 1));
        }
        return made;
    }

    /** {@link RingService#exclusively}. */
    <T> T exclusively(Supplier<T> work) {
        return locked(false, work);
    }

    /** {@link RingService#updateSettings(SettingsPatch, Long, boolean)}. */
    RingState updateSettings(SettingsPatch patch, Long ifMatch, boolean force) {
        return write(RingListener.Op.SETTINGS, ifMatch, force, null, cur -> {
            RingSettings next = patch.applyTo(cur.settings());
            if (next.equals(cur.settings())) {
                return null;
            }
            HashRing ring = HashRing.of(next.toConfig(), cur.version() + 1, cur.nodes());
            return new Next(RingState.of(next, ring, cell.now(), cur.incarnation()), List.of(), next);
        });
    }

    /**
     * A version to commit: the state, and the changes, settings and plan step the history records for it.
     */
    private record Next(RingState state, List<Change> changes, RingSettings settings, PlanMark plan) {
        Next(RingState state, List<Change> changes, RingSettings settings) {
            this(state, changes, settings, null);
        }
    }

    private Next next(RingState cur, List<Change> changes) {
        HashRing next = cur.ring().apply(changes);
        return next == cur.ring() ? null
                : new Next(RingState.of(cur.settings(), next, cell.now(), cur.incarnation()), changes, null);
    }

    /**
     * Runs {@code work} under the write lock and the store's, on a ring that is loaded and not deleted, after
     * catching up with a shared store: the preamble a write and the plans' exclusive section share. A write
     * ({@code refuseIfLost}) is refused at once, before the store's lock is taken, when the store lost the
     * ring.
     */
    private <T> T locked(boolean refuseIfLost, Supplier<T> work) {
        cell.writes.lock();
        try {
            cell.checkNotDeleted();
            if (!cell.loaded) {
                throw cell.notLoaded();
            }
            if (refuseIfLost) {
                String lost = store.lostBecause();
                if (lost != null) {
                    throw new StoreLostException(lost); // at once: no turn to wait for
                }
            }
            return store.exclusively(() -> {
                if (store.shared()) {
                    store.load().ifPresent(loader::follow);
                }
                return work.get();
            });
        } finally {
            cell.writes.unlock();
        }
    }

    /**
     * Builds the next version from the current one and commits it; with a
     * shared store, a version another instance stored first is caught up with
     * and the write is built again on it ({@code If-Match} checked again).
     */
    private RingState write(RingListener.Op op, Long ifMatch, boolean force, PlanMark step,
            Function<RingState, Next> build) {
        return locked(true, () -> writeExclusively(op, ifMatch, force, step, build));
    }

    /**
     * The write itself, while no other writer of the store runs one, a shared
     * store's state read first ({@link #locked}), so the write is built on the latest version;
     * a conflict (a version stored by a writer that did not take turns, or a
     * stale read) is caught up with and the write built again. The movement
     * guard checks each build against the state it is built on, which is the
     * version the store's compare-and-set expects, so a write it allowed
     * never lands on another.
     */
    private RingState writeExclusively(RingListener.Op op, Long ifMatch, boolean force, PlanMark step,
            Function<RingState, Next> build) {
        for (int attempt = 1; ; attempt++) {
            if (!cell.loaded) {
                throw cell.notLoaded();
            }
            String lost = store.lostBecause();
            if (lost != null) {
                throw new StoreLostException(lost);
            }
            if (!store.writable()) {
                throw new StoreUnavailableException(store.describe() + " does not accept writes now",
                        "the store does not accept writes now (it is out of reach, or this instance is "
                        + "catching up with it): the change was not applied", null);
            }
            RingState cur = cell.current.get();
            checkIfMatch(ifMatch, cur);
            if (step == null) {
                gate.check(cur);
            }
            Next next = build.apply(cur);
            if (next == null) {
                return cur; // nothing changed: no new version
            }
            if (!force) {
                checkMovement(cur, next, op);
            }
            try {
                return commit(cur, next, op);
            } catch (StoreConflictException e) {
                if (attempt >= RingService.WRITE_ATTEMPTS) {
                    throw new StoreUnavailableException("gave up after " + attempt
                            + " attempts against concurrent writers", "gave up after " + attempt + " attempts: "
                            + "writers through other instances stored a version first each time; the change "
                            + "was not applied", e);
                }
                backOff(attempt); // then catch up with what is stored now, and try at once
                loader.follow(store.load().filter(l -> l.version() >= e.latest().version()).orElse(e.latest()));
            }
        }
    }

    /**
     * A pause of random length before trying a write again, growing with the
     * attempts (up to 64 ms), so that writers through different instances do
     * not keep colliding in step. Lookups go on meanwhile: they take no lock.
     */
    private static void backOff(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextInt(1 << Math.min(attempt, 6)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("interrupted while retrying a write", e);
        }
    }

    /** The movement guard's check of the version {@code n} built on {@code cur}; nothing is computed while off. */
    private void checkMovement(RingState cur, Next n, RingListener.Op op) {
        try {
            guard.check(cur.ring(), n.state().ring());
        } catch (MovementRefusedException e) {
            listeners.movementRefused(cur, op, e);
            throw e;
        }
    }

    private RingState commit(RingState cur, Next n, RingListener.Op op) {
        RingState next = n.state();
        RingHistory nextHistory = cell.history.append(
                new HistoryDelta(next.version(), new ArrayList<>(n.changes()), n.settings(), next.committedAt(),
                        next.fingerprint(), n.plan()), cell.historyCapacity);
        store.save(new PersistedState(next.version(), next.settings(), next.nodes(), nextHistory, cur.incarnation()),
                cur.version());
        cell.history = nextHistory;
        cell.current.set(next);
        listeners.swapped(cur, next, op);
        return next;
    }

    private static void checkIfMatch(Long ifMatch, RingState cur) {
        if (ifMatch != null && ifMatch != cur.version()) {
            throw new VersionException.Mismatch(ifMatch, cur.version());
        }
    }
}
