package io.ringd.ring;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * Consecutive versions of a ring kept for handoff lookups (docs/ring.md
 * section 21) in far less than their rings: the newest as its ring, each
 * older one only where its owners differ from the next version's. Its
 * {@link #index()} gives exactly the answers of {@link HandoffIndex#of}
 * over the whole rings. For a follower that keeps its last versions: add
 * each new one with {@link #then}, drop the oldest with
 * {@link #withoutOldest}. Immutable and safe to use from any number of
 * threads.
 */
public final class HandoffTrail {

    /*
     * Design note. HandoffDelta's design note says what an older version
     * keeps (the moved ranges against its successor, with its owners: a few
     * KB for a one-node change), and HandoffMerge's how the index is made
     * from them and the newest ring. A delta depends on its successor only,
     * so dropping the oldest versions is dropping their deltas, and adding
     * a version is one diff of the newest ring against it (linear in the
     * two rings, on the caller's thread), after which the older ring is no
     * longer needed. Each call makes a new trail sharing the deltas.
     */

    private final HashRing current;
    /** older[p]: version oldestVersion() + p against the next one. */
    private final HandoffDelta[] older;
    private final Instant[] committedAt;

    private HandoffTrail(HashRing current, HandoffDelta[] older, Instant[] committedAt) {
        this.current = current;
        this.older = older;
        this.committedAt = committedAt;
    }

    /**
     * A trail of one version.
     *
     * @param committedAt when it was committed, or {@code null} when not known (it then counts as outside
     *                    every window)
     */
    public static HandoffTrail of(HashRing ring, Instant committedAt) {
        return new HandoffTrail(Objects.requireNonNull(ring, "ring"), new HandoffDelta[0],
                new Instant[] {committedAt});
    }

    /**
     * This trail and {@code next}, the version after its newest, which becomes the newest; the ring that
     * was the newest is no longer held.
     *
     * @throws IllegalArgumentException if {@code next} is not one version after the newest
     */
    public HandoffTrail then(HashRing next, Instant committedAt) {
        Objects.requireNonNull(next, "ring");
        if (next.version() != current.version() + 1) {
            throw new IllegalArgumentException("versions must be consecutive: " + current.version() + " then "
                    + next.version());
        }
        HandoffDelta[] o = Arrays.copyOf(older, older.length + 1);
        o[older.length] = HandoffDelta.between(current, next);
        Instant[] t = Arrays.copyOf(this.committedAt, this.committedAt.length + 1);
        t[this.committedAt.length] = committedAt;
        return new HandoffTrail(next, o, t);
    }

    /**
     * This trail without its {@code count} oldest versions.
     *
     * @throws IllegalArgumentException unless {@code 0 <= count < versionCount()}
     */
    public HandoffTrail withoutOldest(int count) {
        if (count < 0 || count >= committedAt.length) {
            throw new IllegalArgumentException("count must be in [0, " + (committedAt.length - 1) + "]: " + count);
        }
        if (count == 0) {
            return this;
        }
        return new HandoffTrail(current, Arrays.copyOfRange(older, count, older.length),
                Arrays.copyOfRange(committedAt, count, committedAt.length));
    }

    /**
     * The index over these versions: the answers {@link HandoffIndex#of} gives over their whole rings.
     * Its {@link HandoffIndex#memoryBytes()} leaves out what this trail holds.
     */
    public HandoffIndex index() {
        return HandoffBuild.of(current, older, committedAt.clone(), oldestVersion());
    }

    /** The newest version, held whole. */
    public HashRing current() {
        return current;
    }

    /** The newest version's number. */
    public long version() {
        return current.version();
    }

    /** The oldest version held. */
    public long oldestVersion() {
        return current.version() - older.length;
    }

    /** The number of versions held, the newest included. */
    public int versionCount() {
        return committedAt.length;
    }

    /**
     * When {@code version} was committed, or {@code null} when not known.
     *
     * @throws IllegalArgumentException if it is not held
     */
    public Instant committedAt(long version) {
        if (version < oldestVersion() || version > current.version()) {
            throw new IllegalArgumentException("version must be in [" + oldestVersion() + ", " + current.version()
                    + "]: " + version);
        }
        return committedAt[(int) (version - oldestVersion())];
    }

    /**
     * An estimate of the heap this trail holds beyond its newest ring, in bytes: its older versions' moved
     * ranges, and the ids of owners that are no longer members.
     */
    public long memoryBytes() {
        long bytes = 56 + 32L * committedAt.length; // the arrays and the Instants
        for (HandoffDelta d : older) {
            bytes += d.memoryBytes(current);
        }
        return bytes;
    }

    /** The segments its older versions keep, {@code SAME} ones included (for tests and benchmarks). */
    int segmentCount() {
        int n = 0;
        for (HandoffDelta d : older) {
            n += d.segmentCount();
        }
        return n;
    }

    @Override
    public String toString() {
        return "HandoffTrail[v" + oldestVersion() + "..v" + current.version() + ", " + committedAt.length
                + " versions, " + segmentCount() + " segments kept]";
    }
}
