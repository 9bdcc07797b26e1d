package io.ringd.store;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.state.PersistedState;
import io.ringd.state.RingNotFoundException;
import io.ringd.state.StateTooLargeException;
import io.ringd.state.StoreConflictException;
import io.ringd.state.StoreLostException;
import io.ringd.state.StoreUnavailableException;

/**
 * Where a {@link ZooKeeperRingStore} may find no ring: a new ring made (after the markers of instances that
 * serve one, and new-ring-wait) and a re-seed written. Called under the store (its monitor).
 */
final class ZooKeeperSeeding {

    /*
     * Design note. Each serving instance keeps an ephemeral marker, <path>/instances/<id>
     * holding its incarnation (ZooKeeperMarkers), so that an instance that
     * starts on a path without a ring sees that others still serve one and
     * does not make a new one; when it sees neither a ring nor a marker, it
     * waits new-ring-wait (the session timeout: after a wipe, running
     * instances need that long to get a new session and put their markers
     * back) before it makes one. See ZooKeeperRingStore's design note.
     */

    /** The store's logger: these are its messages. */
    private static final Logger log = LoggerFactory.getLogger(ZooKeeperRingStore.class);

    private final ZooKeeperRingStore store;
    private final ZooKeeperServedRing ring;
    private final ZooKeeperStateNodes nodes;
    /** This instance's marker, {@code <path>/instances/<id>}, and the others'. */
    private final ZooKeeperMarkers markers;
    /** The name of a named ring; null for the ring default. */
    private final String name;
    private final String statePath;
    private final String connect;
    private final Duration connectTimeout;

    ZooKeeperSeeding(ZooKeeperRingStore store, ZooKeeperServedRing ring, ZooKeeperStateNodes nodes,
            ZooKeeperMarkers markers, String name, String statePath, String connect, Duration connectTimeout) {
        this.store = store;
        this.ring = ring;
        this.nodes = nodes;
        this.markers = markers;
        this.name = name;
        this.statePath = statePath;
        this.connect = connect;
        this.connectTimeout = connectTimeout;
    }

    /** {@link ZooKeeperRingStore#create(PersistedState, Duration)}. */
    PersistedState create(PersistedState initial, Duration wait) {
        store.awaitConnection();
        if (name != null) {
            // a named ring is made by ZooKeeperRingStores.create only: none stored means it was deleted
            return store.read().orElseThrow(() -> new RingNotFoundException(name, "the ring " + name
                    + " was deleted through another instance"));
        }
        long end = System.nanoTime() + wait.toNanos();
        for (boolean first = true; ; first = false) {
            Map<String, String> markers = this.markers.all();
            if (!markers.isEmpty()) {
                Optional<PersistedState> stored = store.freshRead();
                if (stored.isPresent()) {
                    return stored.get(); // a fleet starting together: another instance made it just now
                }
                throw new StoreLostException(statePath + " holds no ring, but " + markers.size()
                        + " running instance(s) serve one from it (incarnation "
                        + String.join(", ", new java.util.TreeSet<>(markers.values())) + "): this instance does not "
                        + "make a new, empty ring beside theirs");
            }
            Optional<PersistedState> stored = store.read();
            if (stored.isPresent()) {
                return stored.get();
            }
            if (System.nanoTime() >= end) {
                break;
            }
            if (first) {
                log.info("No ring at {} and no instance serving one: waiting {} ms (ringd.zookeeper.new-ring-wait) "
                        + "for instances that may still hold one (after a wipe of the ensemble) before making a new "
                        + "ring", store.describe(), wait.toMillis());
            }
            try {
                Thread.sleep(Math.min(250, Math.max(1, wait.toMillis())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreUnavailableException("interrupted while waiting to make a new ring at "
                        + store.describe(), e);
            }
        }
        try {
            store.remember(initial.version(), 0, nodes.create(store.encode(initial)).chunksId());
            log.info("Stored a new ring (version {}, incarnation {}) at {}", initial.version(),
                    initial.incarnation(), store.describe());
            return initial;
        } catch (KeeperException.NodeExistsException e) {
            return store.read().orElseThrow(() -> new StoreUnavailableException("the ring at " + store.describe()
                    + " vanished while it was being created"));
        } catch (Exception e) {
            throw new StoreUnavailableException("ZooKeeper (" + connect + ") did not store the new ring: "
                    + e.getMessage(), e);
        }
    }

    /**
     * Writes {@code state}, re-seeded, for {@link ZooKeeperRingStore#reseed}: where there is no state, or
     * over the state of incarnation {@code replacing}; another is a conflict.
     */
    void reseed(PersistedState state, String replacing) {
        byte[] encoded = store.encode(state);
        nodes.refuseIfTooLarge(encoded); // before anything is read or written
        try {
            nodes.sync(connectTimeout);
            ZooKeeperStateNodes.Read r = nodes.read();
            Optional<PersistedState> stored = r == null ? Optional.empty() : Optional.of(store.decode(r.encoded()));
            if (stored.isEmpty()) {
                ZooKeeperStateNodes.Written made = nodes.create(encoded);
                store.remember(state.version(), 0, made.chunksId());
                ring.servedCzxid(made.stat().getCzxid()); // a state made again by the re-seed, not another ring
            } else if (replacing != null && replacing.equals(stored.get().incarnation())) {
                ZooKeeperStateNodes.Written w = nodes.replace(encoded, r.stat().getVersion(), r.chunksId());
                store.remember(state.version(), w.stat().getVersion(), w.chunksId());
            } else {
                throw new StoreConflictException(stored.get());
            }
        } catch (KeeperException.NodeExistsException | KeeperException.BadVersionException e) {
            throw new StoreConflictException(store.read().orElseThrow(() -> new StoreUnavailableException(
                    "the ring at " + store.describe() + " changed while it was being re-seeded")));
        } catch (StoreConflictException | StoreUnavailableException | StateTooLargeException e) {
            throw e;
        } catch (Exception e) {
            throw new StoreUnavailableException("ZooKeeper (" + connect + ") did not store the re-seeded ring: "
                    + e.getMessage(), e);
        }
    }
}
