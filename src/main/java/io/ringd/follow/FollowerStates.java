package io.ringd.follow;

import io.ringd.state.RingState;

/** A follower's state against the ring (docs/ring.md section 23, States), worked out when it is read. */
final class FollowerStates {

    private final long ttlMillis;
    private final VersionFingerprints fingerprints;

    FollowerStates(long ttlMillis, VersionFingerprints fingerprints) {
        this.ttlMillis = ttlMillis;
        this.fingerprints = fingerprints;
    }

    /**
     * The state of {@code e} against {@code cur} (null: no ring yet) at {@code now}: silent past the
     * TTL, diverged on a fingerprint that is not its version's or a version never made, else current
     * or behind.
     */
    FollowerState of(FollowerEntry e, RingState cur, long now) {
        if (now - e.reportedAt() >= ttlMillis) {
            return FollowerState.SILENT;
        }
        if (cur == null) {
            return FollowerState.BEHIND;
        }
        Boolean match = e.match();
        if (match == null) {
            match = e.fingerprint() == null ? Boolean.TRUE : fingerprints.check(e.version(), e.fingerprint(), cur);
            if (match == null) { // newer than this ring: never made, as far as this instance knows
                return FollowerState.DIVERGED;
            }
        }
        if (!match) {
            return FollowerState.DIVERGED;
        }
        return e.version() >= cur.version() ? FollowerState.CURRENT : FollowerState.BEHIND;
    }
}
