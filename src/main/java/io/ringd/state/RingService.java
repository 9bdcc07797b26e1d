package io.ringd.state;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
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
 */
public final class RingService {

    private static final Logger log = LoggerFactory.getLogger(RingService.class);
    /** Old snapshots cached at most: a few, and no more points in all than two of the largest rings. */
    static final int CACHED_SNAPSHOTS = 4;
    static final long CACHED_POINTS = 2 * HashRing.MAX_POINTS;

    private final Clock clock;
    private final RingStore store;
    private final int historyCapacity;
    private final List<RingListener> listeners;
    private final ReentrantLock writes = new ReentrantLock();
    private final AtomicReference<RingState> current = new AtomicReference<>();
    private volatile RingHistory history;
    /** Rebuilt old snapshots, least recently used first; guarded by itself. */
    private final LinkedHashMap<Long, HashRing> snapshots = new LinkedHashMap<>(8, 0.75f, true);
    private long cachedPoints;

    /**
     * Loads the stored state, or starts an empty ring with {@code initialSettings}.
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
        this.clock = Objects.requireNonNull(clock, "clock");
        if (historyCapacity < 2) {
            throw new IllegalArgumentException("history must keep at least 2 versions: " + historyCapacity);
        }
        this.store = Objects.requireNonNull(store, "store");
        this.historyCapacity = historyCapacity;
        this.listeners = List.copyOf(listeners);
        Optional<PersistedState> loaded = store.load();
        RingState initial;
        if (loaded.isPresent()) {
            PersistedState ps = loaded.get();
            try {
                ps.checkConsistent();
                RingConfig config = ps.settings().toConfig();
                initial = RingState.of(ps.settings(), HashRing.of(config, ps.version(), ps.nodes()),
                        ps.history().committedAt(ps.version()));
            } catch (RuntimeException e) {
                throw new StateUnreadableException(store.describe(), "the stored ring state in "
                        + store.describe() + " cannot be used: " + e.getMessage(), e);
            }
            history = ps.history();
            log.info("Loaded ring version {} ({} nodes, {} versions kept) from {}", initial.version(),
                    ps.nodes().size(), ps.history().size(), store.describe());
        } else {
            SettingsPatch.validate(initialSettings);
            Instant now = now();
            initial = RingState.of(initialSettings, HashRing.empty(initialSettings.toConfig()), now);
            history = RingHistory.startingAt(0, initialSettings, List.of(), now);
            log.info("Starting a new empty ring with {} (store: {})", initialSettings, store.describe());
        }
        current.set(initial);
        for (RingListener l : this.listeners) {
            l.ringSwapped(null, initial, RingListener.Op.START);
        }
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
     * The snapshot at {@code version}: the current one, or a kept one rebuilt
     * from its membership (a few are cached).
     *
     * @throws InvalidInputException    (field {@code version}) if the version is negative
     * @throws VersionException.NotMade if the version was never made
     * @throws VersionException.Gone    if it is no longer kept
     */
    public HashRing ringAt(long version) {
        if (version < 0) {
            throw new InvalidInputException("version", "version must be >= 0: " + version);
        }
        RingState now = current.get();
        if (version == now.version()) {
            return now.ring();
        }
        if (version > now.version()) {
            throw new VersionException.NotMade(version, now.version());
        }
        synchronized (snapshots) {
            HashRing cached = snapshots.get(version);
            if (cached != null) {
                return cached;
            }
        }
        RingHistory.Version v = history.at(version);
        HashRing ring = HashRing.of(v.settings().toConfig(), version, v.nodes());
        cache(ring);
        return ring;
    }

    private void cache(HashRing ring) {
        synchronized (snapshots) {
            if (snapshots.containsKey(ring.version())) {
                return;
            }
            snapshots.put(ring.version(), ring);
            cachedPoints += ring.vnodeCount();
            Iterator<HashRing> eldest = snapshots.values().iterator();
            while (snapshots.size() > 1 && (snapshots.size() > CACHED_SNAPSHOTS || cachedPoints > CACHED_POINTS)) {
                cachedPoints -= eldest.next().vnodeCount();
                eldest.remove();
            }
        }
    }

    /** The number of old snapshots cached now. */
    int cachedSnapshots() {
        synchronized (snapshots) {
            return snapshots.size();
        }
    }

    /** The result of a put: the state after it and whether the node was new. */
    public record PutResult(RingState state, boolean created) {
    }

    /** Adds or replaces a node. */
    public PutResult put(Node node, Long ifMatch) {
        writes.lock(); // held across write(), which takes it again, so "created" is about the same state
        try {
            boolean created = !current.get().ring().contains(node.id());
            return new PutResult(write(RingListener.Op.PUT, ifMatch, List.of(Change.put(node))), created);
        } finally {
            writes.unlock();
        }
    }

    /**
     * Removes a node.
     *
     * @throws io.ringd.ring.RingException.UnknownNode if it is not a member
     */
    public RingState remove(String id, Long ifMatch) {
        return write(RingListener.Op.REMOVE, ifMatch, List.of(Change.remove(id)));
    }

    /** Applies a batch of changes, all or nothing, as one version. */
    public RingState apply(List<Change> changes, Long ifMatch) {
        return write(RingListener.Op.BATCH, ifMatch, changes);
    }

    /** Changes settings; fields left {@code null} keep their value. */
    public RingState updateSettings(SettingsPatch patch, Long ifMatch) {
        writes.lock();
        try {
            RingState cur = current.get();
            checkIfMatch(ifMatch, cur);
            RingSettings next = patch.applyTo(cur.settings());
            if (next.equals(cur.settings())) {
                return cur;
            }
            RingConfig config = next.toConfig();
            HashRing ring = HashRing.of(config, cur.version() + 1, cur.nodes());
            return commit(cur, RingState.of(next, ring, now()), List.of(), next, RingListener.Op.SETTINGS);
        } finally {
            writes.unlock();
        }
    }

    private RingState write(RingListener.Op op, Long ifMatch, List<Change> changes) {
        writes.lock();
        try {
            RingState cur = current.get();
            checkIfMatch(ifMatch, cur);
            HashRing next = cur.ring().apply(changes);
            if (next == cur.ring()) {
                return cur; // nothing changed: no new version
            }
            return commit(cur, RingState.of(cur.settings(), next, now()), changes, null, op);
        } finally {
            writes.unlock();
        }
    }

    private RingState commit(RingState cur, RingState next, List<Change> changes, RingSettings newSettings,
            RingListener.Op op) {
        RingHistory nextHistory = history.append(
                new HistoryDelta(next.version(), new ArrayList<>(changes), newSettings, next.committedAt(),
                        next.fingerprint()), historyCapacity);
        store.save(new PersistedState(next.version(), next.settings(), next.nodes(), nextHistory));
        history = nextHistory;
        current.set(next);
        for (RingListener l : listeners) {
            try {
                l.ringSwapped(cur, next, op);
            } catch (RuntimeException e) {
                log.warn("A ring listener failed on version {}", next.version(), e);
            }
        }
        return next;
    }

    private static void checkIfMatch(Long ifMatch, RingState cur) {
        if (ifMatch != null && ifMatch != cur.version()) {
            throw new VersionException.Mismatch(ifMatch, cur.version());
        }
    }
}
