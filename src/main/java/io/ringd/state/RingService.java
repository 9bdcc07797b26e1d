package io.ringd.state;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;


import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;

/**
 * The ring this process serves: the current {@link RingState} in an
 * {@link AtomicReference}, the kept history, and the serialized write path.
 *
 * <p>Lookups read {@link #current()} without locks. Writes take one lock,
 * build the next state from the current one, make it durable in the
 * {@link RingStore}, and only then swap it in, so no reader sees a change
 * that could still be lost, and no write is lost to a concurrent one.
 *
 * <p>Each membership and settings write passes the {@link MovementGuard}
 * unless it is forced: the guard is checked in that same critical section,
 * against the very state the write is built on and committed over (again on
 * each attempt a concurrent writer forces), so what it allows is what is
 * committed. The steps of a planned change are to be forced writes: a plan
 * bounds each step's movement itself, and the guard never refuses one.
 */
public final class RingService {

    private static final Logger log = LoggerFactory.getLogger(RingService.class);
    /** Old snapshots cached at most (shared by every ring: {@link Snapshots}). */
    static final int CACHED_SNAPSHOTS = Snapshots.CACHED_SNAPSHOTS;
    static final long CACHED_POINTS = Snapshots.CACHED_POINTS;

    /** Attempts of one write against concurrent writers through other instances. */
    static final int WRITE_ATTEMPTS = 32;

    private final Clock clock;
    private final RingStore store;
    private volatile boolean loaded;
    private final int historyCapacity;
    private volatile List<RingListener> listeners;
    private final RingSettings initialSettings;
    private volatile boolean started;
    /** Set once the ring is deleted: it answers 404 from then on, and writes nothing. */
    private volatile String deleted;
    private final ReentrantLock writes = new ReentrantLock();
    private final AtomicReference<RingState> current = new AtomicReference<>();
    private volatile RingHistory history;
    /** Rebuilt old snapshots, by ring, generation and version: shared by the rings of one ringd. */
    private final Snapshots snapshots;
    private final ExpensiveReads reads;
    /** Counts the whole states installed: while it stays the same, a kept version stays the same ring. */
    private volatile long generation;
    /** What a write that is not forced may move. */
    private final MovementGuard guard;
    /** Refuses writes that are not a plan's steps while a plan holds the ring. */
    private volatile WriteGate gate = WriteGate.OPEN;

    /**
     * Loads the stored state, or starts an empty ring with {@code initialSettings}.
     * With a shared store that cannot be reached yet, starts unloaded
     * ({@link #isLoaded()} false) and loads the ring when the store reports it.
     *
     * @throws IllegalStateException if the stored state cannot be read or is inconsistent
     */
    public RingService(RingStore store, RingSettings initialSettings, int historyCapacity,
            List<RingListener> listeners) {
        this(store, initialSettings, historyCapacity, listeners, Clock.systemUTC());
    }

    /** As above, with the clock that stamps each version's commit time. */
    public RingService(RingStore store, RingSettings initialSettings, int historyCapacity,
            List<RingListener> listeners, Clock clock) {
        this(store, initialSettings, historyCapacity, listeners, clock, ExpensiveReads.unlimited());
    }

    /** As above, old versions rebuilt through {@code reads}. */
    public RingService(RingStore store, RingSettings initialSettings, int historyCapacity,
            List<RingListener> listeners, Clock clock, ExpensiveReads reads) {
        this(store, initialSettings, historyCapacity, listeners, clock, reads, true);
    }

    /**
     * As above; when {@code start} is false, nothing is loaded until {@link #start()}, so that listeners
     * made for this service ({@link #listen}) are told of its first version.
     */
    public RingService(RingStore store, RingSettings initialSettings, int historyCapacity,
            List<RingListener> listeners, Clock clock, ExpensiveReads reads, boolean start) {
        this(store, initialSettings, historyCapacity, listeners, clock, reads, new Snapshots(reads), start);
    }

    /** As above, old versions rebuilt into {@code snapshots} (shared with other rings); the guard off. */
    public RingService(RingStore store, RingSettings initialSettings, int historyCapacity,
            List<RingListener> listeners, Clock clock, ExpensiveReads reads, Snapshots snapshots, boolean start) {
        this(store, initialSettings, historyCapacity, listeners, clock, reads, snapshots, MovementGuard.OFF, start);
    }

    /** As above, writes that are not forced checked by {@code guard}. */
    public RingService(RingStore store, RingSettings initialSettings, int historyCapacity,
            List<RingListener> listeners, Clock clock, ExpensiveReads reads, Snapshots snapshots,
            MovementGuard guard, boolean start) {
        this.guard = Objects.requireNonNull(guard, "guard");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.reads = Objects.requireNonNull(reads, "reads");
        this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
        if (historyCapacity < 2) {
            throw new IllegalArgumentException("history must keep at least 2 versions: " + historyCapacity);
        }
        this.store = Objects.requireNonNull(store, "store");
        this.historyCapacity = historyCapacity;
        this.listeners = List.copyOf(listeners);
        this.initialSettings = Objects.requireNonNull(initialSettings, "initialSettings");
        if (start) {
            start();
        }
    }

    /**
     * The gate every write that is not a plan's step passes ({@link WriteGate}); only before {@link #start()}.
     */
    public void gate(WriteGate gate) {
        if (started) {
            throw new IllegalStateException("the write gate is set before the ring starts");
        }
        this.gate = Objects.requireNonNull(gate, "gate");
    }

    /** Adds a listener; only before {@link #start()}. */
    public void listen(RingListener listener) {
        if (started) {
            throw new IllegalStateException("listeners are added before the ring starts");
        }
        List<RingListener> all = new ArrayList<>(listeners);
        all.add(Objects.requireNonNull(listener, "listener"));
        listeners = List.copyOf(all);
    }

    /**
     * Loads the stored state, or starts an empty ring with the initial settings (as the constructor that
     * starts at once does); once.
     */
    public void start() {
        if (started) {
            throw new IllegalStateException("the ring service was started already");
        }
        started = true;
        Optional<PersistedState> loaded;
        try {
            loaded = store.load();
        } catch (StoreUnavailableException e) {
            if (!store.shared()) {
                throw e;
            }
            log.warn("The ring store {} cannot be reached: starting unloaded; lookups and writes answer 503 "
                    + "until the ring is loaded ({})", store.describe(), e.getMessage());
            loaded = null;
        }
        writes.lock();
        try {
            if (loaded == null) {
                RingSettings initialSettings = this.initialSettings;
                SettingsPatch.validate(initialSettings);
                Instant now = now();
                current.set(RingState.of(initialSettings, HashRing.empty(initialSettings.toConfig()), now, null));
                history = RingHistory.startingAt(0, initialSettings, List.of(), now);
            } else {
                install(incarnated(loaded.orElseGet(() -> create(this.initialSettings))), RingListener.Op.START);
            }
            store.follow(this::follow);
        } finally {
            writes.unlock();
        }
    }

    /** A new empty ring, stored unless another instance stored one first. */
    private PersistedState create(RingSettings settings) {
        SettingsPatch.validate(settings);
        Instant now = now();
        PersistedState initial = new PersistedState(0, settings, List.of(),
                RingHistory.startingAt(0, settings, List.of(), now), Incarnation.random());
        PersistedState stored = store.create(initial);
        if (stored == initial) {
            log.info("Starting a new empty ring with {}, incarnation {} (store: {})", settings, initial.incarnation(),
                    store.describe());
        }
        return stored;
    }

    /**
     * {@code ps}, or, when it was stored before incarnations were kept, {@code ps} with a new one, written
     * back (once: on a shared store another instance may have done it first, and then its incarnation is
     * taken).
     */
    private PersistedState incarnated(PersistedState ps) {
        for (int attempt = 1; ps.incarnation() == null; attempt++) {
            PersistedState migrated = ps.withIncarnation(Incarnation.random());
            try {
                store.save(migrated, ps.version());
                log.info("The ring stored in {} (version {}) had no incarnation: it is {} from now on",
                        store.describe(), ps.version(), migrated.incarnation());
                return migrated;
            } catch (StoreConflictException e) {
                if (attempt >= WRITE_ATTEMPTS) {
                    throw new StoreUnavailableException("could not store the ring's new incarnation in "
                            + store.describe() + " against concurrent writers", e);
                }
                ps = e.latest();
            } catch (StoreUnavailableException e) {
                // served all the same: the next write stores it (a restart before then draws another one, which
                // costs followers a snapshot, never a wrong ring)
                log.warn("Could not store the ring's new incarnation {} in {} now ({}): the next write stores it",
                        migrated.incarnation(), store.describe(), e.getMessage());
                return migrated;
            }
        }
        return ps;
    }

    /** Serves {@code ps} in place of whatever was served; under the write lock. */
    private void install(PersistedState ps, RingListener.Op op) {
        RingState state;
        try {
            ps.checkConsistent();
            RingConfig config = ps.settings().toConfig();
            state = RingState.of(ps.settings(), HashRing.of(config, ps.version(), ps.nodes()),
                    ps.history().committedAt(ps.version()), ps.incarnation());
            String recorded = ps.history().deltas().isEmpty() ? null : ps.history().delta(ps.version()).fingerprint();
            if (recorded != null && !recorded.equals(state.fingerprint())) {
                throw new IllegalStateException("version " + ps.version() + " was stored with fingerprint "
                        + recorded + ", but its settings and members give " + state.fingerprint());
            }
        } catch (RuntimeException e) {
            throw new StateUnreadableException(store.describe(), "the stored ring state in "
                    + store.describe() + " cannot be used: " + e.getMessage(), e);
        }
        RingState previous = loaded ? current.get() : null;
        history = ps.history();
        snapshots.forget(this);
        current.set(state);
        generation++; // after the state it counts: whoever reads the new count reads the new state
        loaded = true;
        store.serving(state.incarnation(), state.version());
        log.info("Serving ring version {} ({} nodes, {} versions kept), incarnation {}, from {}", state.version(),
                ps.nodes().size(), ps.history().size(), state.incarnation(), store.describe());
        tell(previous, state, op);
    }

    /**
     * Catches up with a state another instance stored: applies every version
     * after the current one, in order, as this instance's own (history,
     * listeners); installs the whole state when this instance was not loaded
     * or is further behind than the stored history keeps. A state of another
     * incarnation is never adopted (docs/ring.md section 20): the store
     * refuses writes until an operator re-seeds it.
     */
    void follow(PersistedState latest) {
        writes.lock();
        try {
            if (deleted != null) {
                return; // a deleted ring follows nothing
            }
            if (!loaded) {
                install(incarnated(latest), RingListener.Op.RELOAD);
                return;
            }
            RingState cur = current.get();
            if (!Objects.equals(latest.incarnation(), cur.incarnation())) {
                log.error("{} holds another ring (incarnation {}, version {}) than the one this instance serves "
                        + "(incarnation {}, version {}): not adopted", store.describe(), latest.incarnation(),
                        latest.version(), cur.incarnation(), cur.version());
                return;
            }
            if (latest.version() <= cur.version()) {
                return;
            }
            if (cur.version() < latest.history().baseVersion()) {
                log.warn("Version {} is older than the stored history ({} .. {}): reloading the whole ring",
                        cur.version(), latest.history().baseVersion(), latest.version());
                install(latest, RingListener.Op.RELOAD);
                return;
            }
            for (long v = cur.version() + 1; v <= latest.version(); v++) {
                HistoryDelta d = latest.history().delta(v);
                RingState before = current.get();
                RingSettings settings = d.settings() != null ? d.settings() : before.settings();
                HashRing ring = before.ring().apply(d.changes(), settings.toConfig(), v);
                RingState next = RingState.of(settings, ring, d.committedAt(), before.incarnation());
                if (d.fingerprint() != null && !d.fingerprint().equals(next.fingerprint())) {
                    log.error("Version {} applied here has fingerprint {} but was stored with {}: reloading",
                            v, next.fingerprint(), d.fingerprint());
                    install(latest, RingListener.Op.RELOAD);
                    return;
                }
                history = history.append(d, historyCapacity);
                current.set(next);
                tell(before, next, RingListener.Op.FOLLOW);
            }
        } finally {
            writes.unlock();
        }
    }

    private void tell(RingState previous, RingState next, RingListener.Op op) {
        for (RingListener l : listeners) {
            try {
                l.ringSwapped(previous, next, op);
            } catch (RuntimeException e) {
                if (op == RingListener.Op.START) {
                    throw e;
                }
                log.warn("A ring listener failed on version {}", next.version(), e);
            }
        }
    }

    /**
     * The recovery step for a shared store that lost the ring
     * (docs/ring.md section 20): writes the whole ring this instance holds
     * (version, settings, members, kept history and incarnation) to the
     * store, which must hold no ring, or the one {@code replacing} names.
     * Instances that serve the same incarnation accept writes again once
     * they see it; the ring served here does not change.
     *
     * @param replacing the incarnation of the ring the store holds, to replace it; null when it holds none
     * @throws StoreConflictException        if the store holds a ring {@code replacing} does not name, or a
     *                                       newer version of this ring
     * @throws UnsupportedOperationException if the store is not shared
     */
    public RingState reseed(String replacing) {
        writes.lock();
        try {
            if (!loaded) {
                throw notLoaded();
            }
            RingState cur = current.get();
            RingHistory h = history;
            if (replacing != null && replacing.equals(cur.incarnation())) {
                // never over a newer version of this same ring: read it first
                store.load().filter(s -> replacing.equals(s.incarnation()) && s.version() > cur.version())
                        .ifPresent(s -> {
                            throw new StoreConflictException(s);
                        });
            }
            store.reseed(new PersistedState(cur.version(), cur.settings(), cur.nodes(), h, cur.incarnation()),
                    replacing);
            log.warn("Re-seeded {} with version {} of incarnation {} ({} nodes, {} versions kept)", store.describe(),
                    cur.version(), cur.incarnation(), cur.nodes().size(), h.size());
            return cur;
        } finally {
            writes.unlock();
        }
    }

    /** Whether a ring was loaded (always, but for a shared store that has not been reachable since start-up). */
    public boolean isLoaded() {
        return loaded;
    }

    /** Whether a write can be made now: the ring is loaded and the store accepts writes. */
    public boolean isWritable() {
        return loaded && store.writable();
    }

    /** The movement guard of the writes that are not forced. */
    public MovementGuard guard() {
        return guard;
    }

    /** The store, for health and metrics. */
    public RingStore store() {
        return store;
    }

    /** The current state. Never blocks. */
    public RingState current() {
        return current.get();
    }

    /** The oldest version still kept. */
    public long oldestVersion() {
        return history.baseVersion();
    }

    /**
     * The kept history: what each version since the oldest kept one changed.
     * Its latest version is the current one or, while a write is being
     * swapped in, one more.
     */
    public RingHistory history() {
        return history;
    }

    /** Commit times are kept to the millisecond, as they are shown. */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    /**
     * Counts the whole states this service installed (at start, and when a
     * shared store hands it a state to reload): as long as it stays the same,
     * each kept version is the same ring, so what is computed from versions
     * can be cached under it. Read it before the rings it keys: a reload
     * installs its state first, then counts it.
     */
    public long generation() {
        return generation;
    }

    /** The gate of expensive reads, shared with the features that make them. */
    public ExpensiveReads reads() {
        return reads;
    }

    /**
     * The snapshot at {@code version}: the current one, or a kept one rebuilt
     * from its membership (a few are cached). A version is rebuilt once
     * however many ask at once, through the gate of expensive reads.
     *
     * @throws InvalidInputException    (field {@code version}) if the version is negative
     * @throws VersionException.NotMade if the version was never made
     * @throws VersionException.Gone    if it is no longer kept
     * @throws BusyException            if it must be rebuilt and too many expensive reads run already
     */
    public HashRing ringAt(long version) {
        RingState now = checkKept(version);
        if (version == now.version()) {
            return now.ring();
        }
        Snapshots.Key key = new Snapshots.Key(this, generation, version);
        HashRing cached = snapshots.cached(key);
        if (cached != null) {
            return cached;
        }
        RingHistory kept = history;
        return snapshots.rebuilds().get(key, "rebuild version " + version, () -> {
            RingHistory.Version v = kept.at(version); // Gone, if the history moved past it meanwhile
            return HashRing.of(v.settings().toConfig(), version, v.nodes());
        });
    }

    /**
     * Checks that {@code version} can be answered for (the current one or a
     * kept one) without building it, and answers the current state.
     *
     * @throws InvalidInputException    (field {@code version}) if the version is negative
     * @throws VersionException.NotMade if the version was never made
     * @throws VersionException.Gone    if it is no longer kept
     */
    public RingState checkKept(long version) {
        if (version < 0) {
            throw new InvalidInputException("version", "version must be >= 0: " + version);
        }
        RingState now = current.get();
        if (version > now.version()) {
            throw new VersionException.NotMade(version, now.version());
        }
        long oldest = history.baseVersion();
        if (version < oldest) {
            throw new VersionException.Gone(version, oldest);
        }
        return now;
    }

    /** The number of old snapshots cached now. */
    int cachedSnapshots() {
        return snapshots.count(this);
    }

    /** The result of a put: the state after it and whether the node was new. */
    public record PutResult(RingState state, boolean created) {
    }

    /** Adds or replaces a node, through the movement guard. */
    public PutResult put(Node node, Long ifMatch) {
        return put(node, ifMatch, false);
    }

    /**
     * Adds or replaces a node.
     *
     * @param force whether to make it whatever it moves; otherwise the movement guard checks it
     * @throws MovementRefusedException if it is not forced and moves more than the guard allows
     */
    public PutResult put(Node node, Long ifMatch, boolean force) {
        boolean[] created = new boolean[1];
        RingState s = write(RingListener.Op.PUT, ifMatch, force, null, cur -> {
            created[0] = !cur.ring().contains(node.id());
            return next(cur, List.of(Change.put(node)));
        });
        return new PutResult(s, created[0]);
    }

    /** Removes a node, through the movement guard: {@link #remove(String, Long, boolean)}, not forced. */
    public RingState remove(String id, Long ifMatch) {
        return remove(id, ifMatch, false);
    }

    /**
     * Removes a node.
     *
     * @param force whether to make it whatever it moves; otherwise the movement guard checks it
     * @throws io.ringd.ring.RingException.UnknownNode if it is not a member
     * @throws MovementRefusedException                if it is not forced and moves more than the guard allows
     */
    public RingState remove(String id, Long ifMatch, boolean force) {
        return write(RingListener.Op.REMOVE, ifMatch, force, null, cur -> next(cur, List.of(Change.remove(id))));
    }

    /** Applies a batch through the movement guard: {@link #apply(List, Long, boolean)}, not forced. */
    public RingState apply(List<Change> changes, Long ifMatch) {
        return apply(changes, ifMatch, false);
    }

    /**
     * Applies a batch of changes, all or nothing, as one version. A plan's step is a forced batch.
     *
     * @param force whether to make it whatever it moves; otherwise the movement guard checks it
     * @throws MovementRefusedException if it is not forced and moves more than the guard allows
     */
    public RingState apply(List<Change> changes, Long ifMatch, boolean force) {
        return write(RingListener.Op.BATCH, ifMatch, force, null, cur -> next(cur, changes));
    }

    /**
     * Commits step {@code mark} of a planned change (docs/ring.md section 24):
     * {@code changes} as one version made after {@code after}, forced past the
     * movement guard and through the write gate, its history entry and change
     * event marked with the plan. Exactly once: when the version after
     * {@code after} is that step already (committed before a restart, or by
     * another instance), nothing is written and that version is answered.
     *
     * @return the history entry of the step's version
     * @throws StepConflictException if the ring moved past {@code after} by anything but this step
     */
    public HistoryDelta commitStep(List<Change> changes, PlanMark mark, long after) {
        Objects.requireNonNull(mark, "mark");
        write(RingListener.Op.BATCH, null, true, mark, cur -> {
            if (cur.version() != after) {
                HistoryDelta made = stepAt(after + 1);
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
        HistoryDelta made = stepAt(after + 1);
        if (made == null || !mark.equals(made.plan())) {
            throw new StepConflictException("step " + mark.step() + " of plan " + mark.id() + " is not version "
                    + (after + 1));
        }
        return made;
    }

    /** The kept history entry of {@code version}, or null. */
    private HistoryDelta stepAt(long version) {
        RingHistory h = history;
        return version > h.baseVersion() && version <= h.latestVersion() ? h.delta(version) : null;
    }

    /**
     * Runs {@code work} while no write of this ring runs, through this instance or (with a shared store)
     * any other, after catching up with the stored ring: how a plan is made, paused or ended without a step
     * or a write slipping in between.
     *
     * @throws StoreUnavailableException if the ring is not loaded or the store's lock cannot be taken
     */
    public <T> T exclusively(java.util.function.Supplier<T> work) {
        writes.lock();
        try {
            checkNotDeleted();
            if (!loaded) {
                throw notLoaded();
            }
            return store.exclusively(() -> {
                if (store.shared()) {
                    store.load().ifPresent(this::follow);
                }
                return work.get();
            });
        } finally {
            writes.unlock();
        }
    }

    /** Changes settings through the movement guard: {@link #updateSettings(SettingsPatch, Long, boolean)}. */
    public RingState updateSettings(SettingsPatch patch, Long ifMatch) {
        return updateSettings(patch, ifMatch, false);
    }

    /**
     * Changes settings; fields left {@code null} keep their value.
     *
     * @param force whether to make it whatever it moves; otherwise the movement guard checks it
     * @throws MovementRefusedException if it is not forced and moves more than the guard allows
     */
    public RingState updateSettings(SettingsPatch patch, Long ifMatch, boolean force) {
        return write(RingListener.Op.SETTINGS, ifMatch, force, null, cur -> {
            RingSettings next = patch.applyTo(cur.settings());
            if (next.equals(cur.settings())) {
                return null;
            }
            HashRing ring = HashRing.of(next.toConfig(), cur.version() + 1, cur.nodes());
            return new Next(RingState.of(next, ring, now(), cur.incarnation()), List.of(), next);
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
                : new Next(RingState.of(cur.settings(), next, now(), cur.incarnation()), changes, null);
    }

    /**
     * Builds the next version from the current one and commits it; with a
     * shared store, a version another instance stored first is caught up with
     * and the write is built again on it ({@code If-Match} checked again).
     */
    private RingState write(RingListener.Op op, Long ifMatch, boolean force, PlanMark step,
            java.util.function.Function<RingState, Next> build) {
        writes.lock();
        try {
            checkNotDeleted();
            if (!loaded) {
                throw notLoaded();
            }
            String lost = store.lostBecause();
            if (lost != null) {
                throw new StoreLostException(lost); // at once: no turn to wait for
            }
            return store.exclusively(() -> writeExclusively(op, ifMatch, force, step, build));
        } finally {
            writes.unlock();
        }
    }

    /**
     * The write itself, while no other writer of the store runs one: a shared
     * store's state is read first, so the write is built on the latest version;
     * a conflict (a version stored by a writer that did not take turns, or a
     * stale read) is caught up with and the write built again. The movement
     * guard checks each build against the state it is built on, which is the
     * version the store's compare-and-set expects, so a write it allowed
     * never lands on another.
     */
    private RingState writeExclusively(RingListener.Op op, Long ifMatch, boolean force, PlanMark step,
            java.util.function.Function<RingState, Next> build) {
        if (store.shared()) {
            store.load().ifPresent(this::follow);
        }
        {
            for (int attempt = 1; ; attempt++) {
                if (!loaded) {
                    throw notLoaded();
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
                RingState cur = current.get();
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
                    if (attempt >= WRITE_ATTEMPTS) {
                        throw new StoreUnavailableException("gave up after " + attempt
                                + " attempts against concurrent writers", "gave up after " + attempt + " attempts: "
                                + "writers through other instances stored a version first each time; the change "
                                + "was not applied", e);
                    }
                    backOff(attempt); // then catch up with what is stored now, and try at once
                    follow(store.load().filter(l -> l.version() >= e.latest().version()).orElse(e.latest()));
                }
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
            for (RingListener l : listeners) {
                try {
                    l.movementRefused(cur, op, e);
                } catch (RuntimeException failed) {
                    log.warn("A ring listener failed on a refused write at version {}", cur.version(), failed);
                }
            }
            throw e;
        }
    }

    private RingState commit(RingState cur, Next n, RingListener.Op op) {
        RingState next = n.state();
        RingHistory nextHistory = history.append(
                new HistoryDelta(next.version(), new ArrayList<>(n.changes()), n.settings(), next.committedAt(),
                        next.fingerprint(), n.plan()), historyCapacity);
        store.save(new PersistedState(next.version(), next.settings(), next.nodes(), nextHistory, cur.incarnation()),
                cur.version());
        history = nextHistory;
        current.set(next);
        tell(cur, next, op);
        return next;
    }

    /**
     * Ends this ring: from now on it refuses writes ({@link RingNotFoundException}) and follows its store no
     * more; a write in progress finishes first. Its store is closed by whoever owns it.
     */
    public void delete(String name) {
        writes.lock();
        try {
            deleted = Objects.requireNonNull(name, "name");
            snapshots.forget(this);
        } finally {
            writes.unlock();
        }
    }

    /** Serves this ring again after {@link #delete}, when its store could not delete it. */
    void undelete() {
        writes.lock();
        try {
            deleted = null;
        } finally {
            writes.unlock();
        }
    }

    /** Whether this ring was deleted ({@link #delete}). */
    public boolean isDeleted() {
        return deleted != null;
    }

    private void checkNotDeleted() {
        String name = deleted;
        if (name != null) {
            throw new RingNotFoundException(name, "the ring " + name + " was deleted");
        }
    }

    private StoreUnavailableException notLoaded() {
        return new StoreUnavailableException("the ring has not been loaded from " + store.describe(),
                "this instance has not loaded the ring from its store yet: the change was not applied", null);
    }

    private static void checkIfMatch(Long ifMatch, RingState cur) {
        if (ifMatch != null && ifMatch != cur.version()) {
            throw new VersionException.Mismatch(ifMatch, cur.version());
        }
    }
}
