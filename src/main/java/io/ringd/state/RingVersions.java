package io.ringd.state;

import io.ringd.ring.HashRing;

/**
 * The lookups of one {@link RingService} by version: the current snapshot or a kept one rebuilt from the
 * history (a few cached in the {@link Snapshots} shared by every ring), and the checks that a version can be
 * answered for. Reads only: they take no lock.
 */
final class RingVersions {

    private final RingService owner;
    private final RingCell cell;
    /** Rebuilt old snapshots, by ring, generation and version: shared by the rings of one ringd. */
    private final Snapshots snapshots;

    RingVersions(RingService owner, RingCell cell, Snapshots snapshots) {
        this.owner = owner;
        this.cell = cell;
        this.snapshots = snapshots;
    }

    /** {@link RingService#ringAt}. */
    HashRing ringAt(long version) {
        RingState now = checkKept(version);
        if (version == now.version()) {
            return now.ring();
        }
        Snapshots.Key key = new Snapshots.Key(owner, cell.generation, version);
        HashRing cached = snapshots.cached(key);
        if (cached != null) {
            return cached;
        }
        RingHistory kept = cell.history;
        return snapshots.rebuilds().get(key, "rebuild version " + version, () -> {
            RingHistory.Version v = kept.at(version); // Gone, if the history moved past it meanwhile
            return HashRing.of(v.settings().toConfig(), version, v.nodes());
        });
    }

    /** {@link RingService#checkKept}. */
    RingState checkKept(long version) {
        if (version < 0) {
            throw new InvalidInputException("version", "version must be >= 0: " + version);
        }
        RingState now = cell.current.get();
        if (version > now.version()) {
            throw new VersionException.NotMade(version, now.version());
        }
        long oldest = cell.history.baseVersion();
        if (version < oldest) {
            throw new VersionException.Gone(version, oldest);
        }
        return now;
    }

    /** The kept history entry of {@code version}, or null. */
    HistoryDelta stepAt(long version) {
        RingHistory h = cell.history;
        return version > h.baseVersion() && version <= h.latestVersion() ? h.delta(version) : null;
    }

    /** Drops this ring's cached old snapshots (a new whole state installed, or the ring deleted). */
    void forget() {
        snapshots.forget(owner);
    }

    /** The number of old snapshots cached now. */
    int cached() {
        return snapshots.count(owner);
    }
}
