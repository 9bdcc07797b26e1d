package io.ringd.store;

import java.util.Optional;

import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.state.PersistedState;
import io.ringd.state.RingNotFoundException;
import io.ringd.state.StoreUnavailableException;

/**
 * The ring a {@link ZooKeeperRingStore} serves, and whether the store still holds it: a lost store, or a
 * named ring deleted or made again through another instance. Guarded by the store (its monitor), except
 * where a field is volatile and only read.
 */
final class ZooKeeperServedRing {

    /*
     * Design note. A lost store. Once this instance serves a ring (serving()), the store
     * holds it to that incarnation: a fresh read (after a sync) that finds no
     * state (the znode deleted, the ensemble's data wiped), another
     * incarnation, or an older version of this one than it has seen stored
     * (versions lost) makes the store "lost": writes are refused with the
     * cause, the follower is never handed the other state, and only a state
     * of this incarnation at a version at least the highest seen (a re-seed:
     * reseed(), from this instance or another that holds the ring) ends it.
     *
     * A named ring's store tells a ring deleted through another instance (its
     * state gone while <path>/rings is there) and a ring made again under its
     * name (a state whose znode was created after the one served here:
     * another czxid) from a lost store: neither is lost; the first is
     * dropped, the second served afresh (ZooKeeperRingStores.Elsewhere). Only
     * a wipe (<path>/rings gone too) or another state written over the ring's
     * is a lost store. See ZooKeeperRingStore's design note.
     */

    /** The store's logger: these are its messages. */
    private static final Logger log = LoggerFactory.getLogger(ZooKeeperRingStore.class);

    private final CuratorFramework client;
    /** The name of a named ring; null for the ring default. */
    private final String name;
    /** {@code <path>/rings}, for a named ring. */
    private final String ringsPath;
    private final ZooKeeperRingStore.Elsewhere elsewhere;
    private final String statePath;
    /** The store's {@link ZooKeeperRingStore#describe()}. */
    private final String describe;
    /** The incarnation this instance serves, and the highest version of it seen stored. */
    private volatile String served;
    private long highestSeen = -1;
    /** Why the store no longer holds the ring served here, or null. */
    private volatile String lost;
    /** The czxid of the state znode served here, and of the one last read: another is a ring made again. */
    private long servedCzxid;
    private long readCzxid;
    private String readIncarnation;
    /** A named ring deleted, or made again, through another instance: never a lost store. */
    private volatile boolean deleted;
    private volatile boolean replaced;

    ZooKeeperServedRing(CuratorFramework client, String name, String ringsPath,
            ZooKeeperRingStore.Elsewhere elsewhere, String statePath, String describe) {
        this.client = client;
        this.name = name;
        this.ringsPath = ringsPath;
        this.elsewhere = elsewhere;
        this.statePath = statePath;
        this.describe = describe;
    }

    /** The incarnation this instance serves, or null. */
    String served() {
        return served;
    }

    /** Why the store no longer holds the ring served here, or null. */
    String lost() {
        return lost;
    }

    boolean deleted() {
        return deleted;
    }

    boolean replaced() {
        return replaced;
    }

    /** A state znode was read (its czxid) holding {@code incarnation}. */
    void read(long czxid, String incarnation) {
        readCzxid = czxid;
        readIncarnation = incarnation;
    }

    /** The state znode made by a re-seed: a state made again by the re-seed, not another ring. */
    void servedCzxid(long czxid) {
        servedCzxid = czxid;
    }

    /** {@link ZooKeeperRingStore#serving}: whether {@code incarnation} is newly served here. */
    boolean serving(String incarnation, long version) {
        boolean changed = false;
        if (!incarnation.equals(served)) {
            served = incarnation;
            highestSeen = version;
            servedCzxid = incarnation.equals(readIncarnation) ? readCzxid : 0;
            lost = null;
            changed = true;
        }
        return changed;
    }

    /** After {@link #serving} and the marker: the version is now seen. */
    void servingAt(long version) {
        highestSeen = Math.max(highestSeen, version);
    }

    /** The store holds {@code state} again, re-seeded. */
    void reseeded(PersistedState state) {
        served = state.incarnation();
        highestSeen = state.version();
        if (lost != null) {
            log.warn("{} holds this instance's ring again (re-seeded at version {}): writes are accepted again",
                    describe, state.version());
        }
        lost = null;
    }

    /**
     * Judges a fresh read against the ring served here ({@code mine}): the store is lost when it holds
     * none, another incarnation, or an older version of this one than was seen stored; it is found again
     * when it holds this incarnation at a version at least that high. The cause, or null.
     */
    String judge(Optional<PersistedState> stored, String mine) {
        String cause = null;
        if (stored.isEmpty()) {
            cause = gone();
        } else if (!mine.equals(stored.get().incarnation())) {
            cause = describe + " holds another ring (incarnation " + stored.get().incarnation() + ", version "
                    + stored.get().version() + ") than the one this instance serves (incarnation " + mine + ")";
        } else if (stored.get().version() < highestSeen) {
            cause = describe + " holds version " + stored.get().version() + " of this ring, older than version "
                    + highestSeen + " this instance saw stored: versions were lost from the store";
        }
        if (cause != null && !cause.equals(lost)) {
            log.error("The store lost this instance's ring: {}. Lookups go on from the ring held here (version {}); "
                    + "writes are refused until an operator re-seeds the store (POST /store/reseed)", cause,
                    highestSeen);
        } else if (cause == null && lost != null) {
            log.warn("{} holds this instance's ring again (version {}): writes are accepted again", describe,
                    stored.get().version());
        }
        lost = cause;
        if (cause == null) {
            seen(stored.get());
        }
        return cause;
    }

    /**
     * For a named ring that does not look like the one served here: whether it was deleted (no state, but
     * {@code <path>/rings} is there: not a wipe) or made again (a state znode other than the one served,
     * holding another incarnation) through another instance, neither a lost store (docs/ring.md section
     * 22); the stores are told, once.
     */
    boolean elsewhere(Optional<PersistedState> stored, String mine) {
        if (stored.isEmpty()) {
            if (!exists(ringsPath)) {
                return false; // a wipe: lost
            }
            if (!deleted) {
                deleted = true;
                lost = null;
                log.info("The ring {} was deleted through another instance", name);
                elsewhere.deleted(name);
            }
            return true;
        }
        if (readCzxid != servedCzxid && (deleted || !mine.equals(stored.get().incarnation()))) {
            if (!replaced) {
                replaced = true;
                lost = null;
                log.info("The ring {} was deleted and made again through another instance (incarnation {}): "
                        + "serving it afresh", name, stored.get().incarnation());
                elsewhere.replaced(name);
            }
            return true;
        }
        deleted = false;
        return false;
    }

    private boolean exists(String path) {
        try {
            return client.checkExists().forPath(path) != null;
        } catch (Exception e) {
            throw new StoreUnavailableException("cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    boolean looksLost(Optional<PersistedState> stored, String mine) {
        return stored.isEmpty() || !mine.equals(stored.get().incarnation()) || stored.get().version() < highestSeen;
    }

    String gone() {
        return "ZooKeeper holds no ring at " + statePath + " (the znode was deleted, or the ensemble's data wiped); "
                + "this instance serves incarnation " + served;
    }

    /** A stored state of the incarnation served here: its version is now seen. */
    void seen(PersistedState ps) {
        if (served != null && served.equals(ps.incarnation())) {
            highestSeen = Math.max(highestSeen, ps.version());
        }
    }

    /** Whether the stored state is handed to the follower: this ring's, neither lost nor gone. */
    boolean following() {
        return lost == null && !deleted && !replaced;
    }

    /** Refuses a write to a named ring deleted, or made again, through another instance. */
    void refuseIfElsewhere() {
        if (deleted) {
            throw new RingNotFoundException(name, "the ring " + name + " was deleted through another instance");
        }
        if (replaced) {
            throw new StoreUnavailableException("the ring " + name + " at " + describe + " was made again",
                    "the ring " + name + " was deleted and made again through another instance: this instance "
                    + "is loading it afresh; the change was not applied", null);
        }
    }
}
