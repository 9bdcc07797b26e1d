package io.ringd.client;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

import io.ringd.ring.Handoff;
import io.ringd.ring.HandoffIndex;
import io.ringd.ring.HashRing;

/**
 * The versions a {@link RingClient} followed, kept as its handoff window needs them
 * (docs/ring.md section 21), and the handoff lookups over them.
 */
final class HandoffVersions {

    /*
     * Design note. `window` holds the versions followed in a row, oldest
     * first, as the handoff window needs them: the versions committed within
     * it and the one before (the state the window starts from), at most
     * maxVersions. A version that does not follow the newest held by one (a
     * reload after a gap, another incarnation) starts it again, since the
     * rule needs each version's predecessor. On each swap the follower thread
     * trims it and publishes a copy (a Kept) in the same Held as the ring;
     * the HandoffIndex over it is built once, by the follower thread at the
     * swap once handoff has been asked for (the first lookup of a client
     * builds the first one), so a client that never asks pays only the
     * references.
     */

    /** A version followed, with its commit time. */
    private record Version(HashRing ring, Instant committedAt) {
    }

    /** The versions kept for handoff at one swap, and their index, built once when first asked for. */
    static final class Kept {
        private final List<Version> versions;
        private volatile HandoffIndex index;

        private Kept(List<Version> versions) {
            this.versions = versions;
        }

        HandoffIndex index() {
            HandoffIndex i = index;
            if (i == null) {
                synchronized (this) {
                    i = index;
                    if (i == null) {
                        HandoffIndex.Builder b = HandoffIndex.builder();
                        for (Version v : versions) {
                            b.add(v.ring(), v.committedAt());
                        }
                        i = b.build();
                        index = i;
                    }
                }
            }
            return i;
        }

        /** How many versions these are, the oldest, and about how much heap they and their index take. */
        HandoffHistory history() {
            long bytes = 0;
            for (int k = 0; k < versions.size() - 1; k++) { // the current ring is held anyway
                bytes += versions.get(k).ring().memoryBytes();
            }
            HandoffIndex i = index;
            return new HandoffHistory(versions.size(), versions.get(0).ring().version(),
                    bytes + (i == null ? 0 : i.memoryBytes()));
        }
    }

    private final Duration window;
    private final int maxVersions;
    /** The versions followed in a row; only the follower thread touches it (under publish). */
    private final ArrayDeque<Version> followed = new ArrayDeque<>();
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
        Version last = followed.peekLast();
        if (last == null || before == null || last.ring().version() + 1 != ring.version()
                || !Objects.equals(before.incarnation(), incarnation)) {
            followed.clear();
        }
        followed.addLast(new Version(ring, committedAt));
        Instant since = Instant.now().minus(window);
        while (followed.size() > maxVersions) {
            followed.removeFirst();
        }
        while (followed.size() > 1) { // the oldest is needed while the next one was committed within the window
            Iterator<Version> it = followed.iterator();
            it.next();
            Version second = it.next();
            if (second.committedAt() != null && !second.committedAt().isBefore(since)) {
                break;
            }
            followed.removeFirst();
        }
        Kept kept = new Kept(List.copyOf(followed));
        if (asked) {
            kept.index();
        }
        return kept;
    }
}
