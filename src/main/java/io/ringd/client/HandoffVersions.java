package io.ringd.client;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import io.ringd.ring.Handoff;
import io.ringd.ring.HandoffIndex;
import io.ringd.ring.HandoffTrail;
import io.ringd.ring.HashRing;

/**
 * The versions a {@link RingClient} followed, kept as its handoff window needs them
 * (docs/ring.md section 21), and the handoff lookups over them.
 */
final class HandoffVersions {

    /*
     * Design note. `followed` holds the versions followed in a row, oldest
     * first, as the handoff window needs them: the versions committed within
     * it and the one before (the state the window starts from), at most
     * maxVersions. A version that does not follow the newest held by one (a
     * reload after a gap, another incarnation) starts it again, since the
     * rule needs each version's predecessor. They are a HandoffTrail: the
     * newest ring, which the client holds anyway, and each older version
     * only where its owners differ from the next one's (a few KB for a
     * one-node change, where a whole ring of 100 x 128 points is about
     * 136 KB), so no ring outlives its successor's swap. On each swap the
     * follower thread trims the trail first (a version the window drops is
     * not diffed), adds the new version (one diff of the two rings, linear
     * in them) and publishes the trail (a Kept) in the same Held as the
     * ring; the HandoffIndex over it is built once, by the follower thread
     * at the swap once handoff has been asked for (the first lookup of a
     * client builds the first one), so a client that never asks pays only
     * the diffs.
     */

    /** The versions kept for handoff at one swap, and their index, built once when first asked for. */
    static final class Kept {
        private final HandoffTrail trail;
        private volatile HandoffIndex index;

        private Kept(HandoffTrail trail) {
            this.trail = trail;
        }

        HandoffIndex index() {
            HandoffIndex i = index;
            if (i == null) {
                synchronized (this) {
                    i = index;
                    if (i == null) {
                        i = trail.index();
                        index = i;
                    }
                }
            }
            return i;
        }

        /** How many versions these are, the oldest, and about how much heap they and their index take. */
        HandoffHistory history() {
            HandoffIndex i = index; // its memoryBytes leaves out the trail's, counted here
            return new HandoffHistory(trail.versionCount(), trail.oldestVersion(),
                    trail.memoryBytes() + (i == null ? 0 : i.memoryBytes()));
        }
    }

    private final Duration window;
    private final int maxVersions;
    /** The versions followed in a row, or null; only the follower thread touches it (under publish). */
    private HandoffTrail followed;
    /** Set by the first handoff lookup: from then on each swap indexes its versions on the follower thread. */
    private volatile boolean asked;

    HandoffVersions(Duration window, int maxVersions) {
        this.window = window;
        this.maxVersions = maxVersions;
    }

    /** The handoff of {@code key} over {@code kept} (null when handoff is off), within the window. */
    Handoff handoff(Kept kept, String key) {
        asked = true;
        return kept == null ? null : kept.index().handoff(key, Instant.now().minus(window));
    }

    /** Reads {@code key} from its owner in {@code ring}, then from its previous owners over {@code kept}. */
    <V> ReadThrough<V> readThrough(HashRing ring, Kept kept, String key, ReadThrough.Loader<V> loader) {
        String owner = ring.route(key);
        V value = loader.load(owner, key);
        if (value != null) {
            return new ReadThrough<>(key, owner, value, owner, false, 1);
        }
        Handoff moved = handoff(kept, key);
        int asked = 1;
        if (moved != null) {
            for (String node : moved.previous()) {
                asked++;
                value = loader.load(node, key);
                if (value != null) {
                    return new ReadThrough<>(key, owner, value, node, true, asked);
                }
            }
        }
        return new ReadThrough<>(key, owner, null, null, false, asked);
    }

    /**
     * Adds {@code ring} to the versions kept for handoff (or starts them again
     * when it does not follow the newest one), trims what the window no
     * longer needs; null when handoff is off. Once handoff was asked for,
     * they are indexed here, on the follower thread.
     */
    Kept keep(RingClient.Held before, HashRing ring, Instant committedAt, String incarnation) {
        if (maxVersions < 2) {
            return null;
        }
        HandoffTrail t = followed;
        if (t == null || before == null || t.version() + 1 != ring.version()
                || !Objects.equals(before.incarnation(), incarnation)) {
            t = null;
        }
        // what the window keeps of t's versions and ring: at most maxVersions, and the oldest only while
        // the next one was committed within the window
        int total = t == null ? 1 : t.versionCount() + 1;
        int drop = Math.max(0, total - maxVersions);
        Instant since = Instant.now().minus(window);
        while (total - drop > 1) {
            long second = (t == null ? ring.version() : t.oldestVersion()) + drop + 1;
            Instant at = second == ring.version() ? committedAt : t.committedAt(second);
            if (at != null && !at.isBefore(since)) {
                break;
            }
            drop++;
        }
        followed = t == null || drop >= total - 1 ? HandoffTrail.of(ring, committedAt)
                : t.withoutOldest(drop).then(ring, committedAt);
        Kept kept = new Kept(followed);
        if (asked) {
            kept.index();
        }
        return kept;
    }
}
