package io.ringd.state;

import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;

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
 *
 * <p>The service is the public face of one ring; its jobs are done by package-private collaborators that
 * share one {@link RingCell} (the state, the history and the write lock): {@link RingLoader} loads, installs
 * and follows the stored ring and re-seeds a store that lost it; {@link RingWrites} is the write path (the
 * gate, the guard, the commit and its retries) and the plans' exclusive section; {@link RingVersions} answers
 * for kept versions; {@link RingListeners} tells the listeners.
 */
public final class RingService {

    /** Old snapshots cached at most (shared by every ring: {@link Snapshots}). */
    static final int CACHED_SNAPSHOTS = Snapshots.CACHED_SNAPSHOTS;
    static final long CACHED_POINTS = Snapshots.CACHED_POINTS;

    /** Attempts of one write against concurrent writers through other instances. */
    static final int WRITE_ATTEMPTS = 32;

    private final RingCell cell;
    private final RingSettings initialSettings;
    private volatile boolean started;
    private final ExpensiveReads reads;
    /** What a write that is not forced may move. */
    private final MovementGuard guard;
    private final RingListeners listeners;
    private final RingVersions versions;
    private final RingLoader loader;
    private final RingWrites writes;

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
        Objects.requireNonNull(clock, "clock");
        this.reads = Objects.requireNonNull(reads, "reads");
        Objects.requireNonNull(snapshots, "snapshots");
        if (historyCapacity < 2) {
            throw new IllegalArgumentException("history must keep at least 2 versions: " + historyCapacity);
        }
        Objects.requireNonNull(store, "store");
        this.cell = new RingCell(store, historyCapacity, clock);
        this.listeners = new RingListeners(listeners);
        this.initialSettings = Objects.requireNonNull(initialSettings, "initialSettings");
        this.versions = new RingVersions(this, cell, snapshots);
        this.loader = new RingLoader(cell, this.listeners, versions);
        this.writes = new RingWrites(cell, loader, this.listeners, versions, guard);
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
        writes.gate(gate);
    }

    /** Adds a listener; only before {@link #start()}. */
    public void listen(RingListener listener) {
        if (started) {
            throw new IllegalStateException("listeners are added before the ring starts");
        }
        listeners.add(listener);
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
        loader.start(initialSettings);
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
        loader.follow(latest);
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
        return loader.reseed(replacing);
    }

    /** Whether a ring was loaded (always, but for a shared store that has not been reachable since start-up). */
    public boolean isLoaded() {
        return cell.loaded;
    }

    /** Whether a write can be made now: the ring is loaded and the store accepts writes. */
    public boolean isWritable() {
        return cell.loaded && cell.store.writable();
    }

    /** The movement guard of the writes that are not forced. */
    public MovementGuard guard() {
        return guard;
    }

    /** The store, for health and metrics. */
    public RingStore store() {
        return cell.store;
    }

    /** The current state. Never blocks. */
    public RingState current() {
        return cell.current.get();
    }

    /** The oldest version still kept. */
    public long oldestVersion() {
        return cell.history.baseVersion();
    }

    /**
     * The kept history: what each version since the oldest kept one changed.
     * Its latest version is the current one or, while a write is being
     * swapped in, one more.
     */
    public RingHistory history() {
        return cell.history;
    }

    /**
     * Counts the whole states this service installed (at start, and when a
     * shared store hands it a state to reload): as long as it stays the same,
     * each kept version is the same ring, so what is computed from versions
     * can be cached under it. Read it before the rings it keys: a reload
     * installs its state first, then counts it.
     */
    public long generation() {
        return cell.generation;
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
        return versions.ringAt(version);
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
        return versions.checkKept(version);
    }

    /** The number of old snapshots cached now. */
    int cachedSnapshots() {
        return versions.cached();
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
        return writes.put(node, ifMatch, force);
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
        return writes.remove(id, ifMatch, force);
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
        return writes.apply(changes, ifMatch, force);
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
        return writes.commitStep(changes, mark, after);
    }

    /**
     * Runs {@code work} while no write of this ring runs, through this instance or (with a shared store)
     * any other, after catching up with the stored ring: how a plan is made, paused or ended without a step
     * or a write slipping in between.
     *
     * @throws StoreUnavailableException if the ring is not loaded or the store's lock cannot be taken
     */
    public <T> T exclusively(java.util.function.Supplier<T> work) {
        return writes.exclusively(work);
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
        return writes.updateSettings(patch, ifMatch, force);
    }

    /**
     * Ends this ring: from now on it refuses writes ({@link RingNotFoundException}) and follows its store no
     * more; a write in progress finishes first. Its store is closed by whoever owns it.
     */
    public void delete(String name) {
        cell.writes.lock();
        try {
            cell.deleted = Objects.requireNonNull(name, "name");
            versions.forget();
        } finally {
            cell.writes.unlock();
        }
    }

    /** Serves this ring again after {@link #delete}, when its store could not delete it. */
    void undelete() {
        cell.writes.lock();
        try {
            cell.deleted = null;
        } finally {
            cell.writes.unlock();
        }
    }

    /** Whether this ring was deleted ({@link #delete}). */
    public boolean isDeleted() {
        return cell.deleted != null;
    }
}
