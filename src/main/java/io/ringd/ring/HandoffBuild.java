package io.ringd.ring;

import java.time.Instant;
import java.util.function.IntFunction;

/**
 * Makes a {@link HandoffIndex}: from whole rings ({@link HandoffIndex#of}, swept by
 * {@link HandoffSweep}) or from a {@link HandoffTrail} (merged by {@link HandoffMerge}), with the same
 * answers either way.
 */
final class HandoffBuild {

    private HandoffBuild() {
    }

    /** Over {@code rings}, consecutive versions oldest first, committed at {@code times}. */
    static HandoffIndex of(HashRing[] rings, Instant[] times) {
        int n = rings.length;
        int[] spaces = new int[n];
        KeyHash[] hashes = new KeyHash[n];
        for (int p = 0; p < n; p++) {
            spaces[p] = rings[p].isEmpty() ? -1 : rings[p].tableSize;
            hashes[p] = rings[p].config().hash();
        }
        return build(rings[0].version(), times, rings[n - 1], spaces, hashes, HandoffWalk.of(rings),
                space -> HandoffSweep.sweep(rings, times, space));
    }

    /** Over a trail's versions: {@code older} (oldest first, the oldest at {@code first}), then {@code current}. */
    static HandoffIndex of(HashRing current, HandoffDelta[] older, Instant[] times, long first) {
        int n = older.length + 1;
        int[] spaces = new int[n];
        KeyHash[] hashes = new KeyHash[n];
        for (int p = 0; p < older.length; p++) {
            spaces[p] = older[p].empty ? -1 : older[p].tableSize;
            hashes[p] = older[p].hash;
        }
        spaces[n - 1] = current.isEmpty() ? -1 : current.tableSize;
        hashes[n - 1] = current.config().hash();
        return build(first, times, current, spaces, hashes, HandoffWalk.of(current, older),
                space -> HandoffMerge.merge(current, older, times, first, space));
    }

    /**
     * The index of versions whose coordinate spaces are {@code spaces} (-1: empty, no owner anywhere,
     * which fits every space and key hash) and key hashes {@code hashes}: merged by {@code merge} in
     * their one space if they have one, with keys walked unless they also hash keys alike (the index's
     * design note, the slow path).
     */
    private static HandoffIndex build(long first, Instant[] times, HashRing current, int[] spaces, KeyHash[] hashes,
            HandoffWalk walk, IntFunction<HandoffSweep.Result> merge) {
        int space = -1;
        boolean oneSpace = true;
        KeyHash hash = null;
        boolean oneHash = true;
        for (int p = 0; p < spaces.length; p++) {
            if (spaces[p] < 0) {
                continue;
            }
            if (space == -1) {
                space = spaces[p];
            } else if (space != spaces[p]) {
                oneSpace = false;
            }
            if (hash == null) {
                hash = hashes[p];
            } else if (hash != hashes[p]) { // the named hashes are singletons
                oneHash = false;
            }
        }
        if (space == -1) { // every version empty: no key ever had an owner
            space = 0;
            hash = current.config().hash();
        }
        boolean keysIndexed = oneSpace && oneHash;
        HandoffWalk kept = keysIndexed ? null : walk;
        if (!oneSpace) {
            return new HandoffIndex(first, times, current, 0, null, null, null, null, kept);
        }
        HandoffSweep.Result r = merge.apply(space);
        return new HandoffIndex(first, times, current, space, r.starts(), r.answerIds(), r.answers(),
                keysIndexed ? hash : null, kept);
    }
}
