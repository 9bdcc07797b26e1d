package io.ringd.state;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.ring.HashRing;
import io.ringd.ring.RingConfig;

/**
 * How one {@link RingService} gets the ring it serves from its {@link RingStore}: loads it at start (or
 * creates an empty one, or starts unloaded when a shared store cannot be reached), installs a whole stored
 * state, follows the versions other instances store, and writes the whole ring back to a store that lost it
 * ({@link #reseed}). Everything here runs under the write lock of the {@link RingCell}.
 */
final class RingLoader {

    /** Logged under the service's name, as before loading had its own class. */
    private static final Logger log = LoggerFactory.getLogger(RingService.class);

    private final RingCell cell;
    private final RingStore store;
    private final RingListeners listeners;
    private final RingVersions versions;

    RingLoader(RingCell cell, RingListeners listeners, RingVersions versions) {
        this.cell = cell;
        this.store = cell.store;
        this.listeners = listeners;
        this.versions = versions;
    }

    /**
     * Loads the stored state, or starts an empty ring with {@code initialSettings}; with a shared store that
     * cannot be reached, starts unloaded. Then follows the store.
     */
    void start(RingSettings initialSettings) {
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
        cell.writes.lock();
        try {
            if (loaded == null) {
                SettingsPatch.validate(initialSettings);
                Instant now = cell.now();
                cell.current.set(RingState.of(initialSettings, HashRing.empty(initialSettings.toConfig()), now,
                        null));
                cell.history = RingHistory.startingAt(0, initialSettings, List.of(), now);
            } else {
                install(incarnated(loaded.orElseGet(() -> create(initialSettings))), RingListener.Op.START);
            }
            store.follow(this::follow);
        } finally {
            cell.writes.unlock();
        }
    }

    /** A new empty ring, stored unless another instance stored one first. */
    private PersistedState create(RingSettings settings) {
        SettingsPatch.validate(settings);
        Instant now = cell.now();
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
                if (attempt >= RingService.WRITE_ATTEMPTS) {
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
        RingState previous = cell.loaded ? cell.current.get() : null;
        cell.history = ps.history();
        versions.forget();
        cell.current.set(state);
        cell.generation++; // after the state it counts: whoever reads the new count reads the new state
        cell.loaded = true;
        store.serving(state.incarnation(), state.version());
        log.info("Serving ring version {} ({} nodes, {} versions kept), incarnation {}, from {}", state.version(),
                ps.nodes().size(), ps.history().size(), state.incarnation(), store.describe());
        listeners.swapped(previous, state, op);
    }

    /** {@link RingService#follow}. */
    void follow(PersistedState latest) {
        cell.writes.lock();
        try {
            if (cell.deleted != null) {
                return; // a deleted ring follows nothing
            }
            if (!cell.loaded) {
                install(incarnated(latest), RingListener.Op.RELOAD);
                return;
            }
            RingState cur = cell.current.get();
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
                RingState before = cell.current.get();
                RingSettings settings = d.settings() != null ? d.settings() : before.settings();
                HashRing ring = before.ring().apply(d.changes(), settings.toConfig(), v);
                RingState next = RingState.of(settings, ring, d.committedAt(), before.incarnation());
                if (d.fingerprint() != null && !d.fingerprint().equals(next.fingerprint())) {
                    log.error("Version {} applied here has fingerprint {} but was stored with {}: reloading",
                            v, next.fingerprint(), d.fingerprint());
                    install(latest, RingListener.Op.RELOAD);
                    return;
                }
                cell.history = cell.history.append(d, cell.historyCapacity);
                cell.current.set(next);
                listeners.swapped(before, next, RingListener.Op.FOLLOW);
            }
        } finally {
            cell.writes.unlock();
        }
    }

    /** {@link RingService#reseed}. */
    RingState reseed(String replacing) {
        cell.writes.lock();
        try {
            if (!cell.loaded) {
                throw cell.notLoaded();
            }
            RingState cur = cell.current.get();
            RingHistory h = cell.history;
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
            cell.writes.unlock();
        }
    }
}
