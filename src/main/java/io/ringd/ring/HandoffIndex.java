package io.ringd.ring;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Who held each key before, over a run of consecutive versions of a ring
 * (docs/ring.md section 21): for a key or a hash value, the version at
 * which its owner last changed and its distinct earlier owners, or
 * {@code null} when its owner did not change. Built once from the kept
 * versions, oldest first, with their commit times
 * ({@link #builder()}), or from a {@link HandoffTrail} of them, with the
 * same answers; a lookup then costs about one binary search and
 * allocates nothing but a shortened answer.
 *
 * <p>The versions the index holds are the most any lookup looks back
 * through; a lookup names a shorter window with {@code since}: only
 * versions committed at or after it count as moves, and the version in
 * force at {@code since} is the oldest whose owner counts. Immutable and
 * safe to use from any number of threads.
 */
public final class HandoffIndex {

    /*
     * Design note.
     *
     * The rule (docs/ring.md section 21). Versions at positions 0 .. n-1
     * (position p is version firstVersion + p); owner o_p of a key at each.
     * A lookup's window starts at the cut c: the newest position whose
     * commit is before `since` (or unknown), and never below 0, the oldest
     * version held, whose own change is not known. movedAt is the newest
     * p > c with o_p != o_{p-1} (an empty ring's "no owner" counts as an
     * owner there), none: no handoff. previous walks p = movedAt-1 down to
     * c and takes each owner the first time it is met, skipping "no owner"
     * and the current owner, at most 8.
     *
     * The index. All the held versions' ownership is merged into one
     * partition of the coordinate space (hash values for a ring or a ketama
     * ring; entries 0 .. M-1 for a Maglev table of size M) into segments on
     * which every version's owner is the same, each with its state
     * (HandoffSweep's design note says how the sweep works). An index
     * made from a HandoffTrail, which keeps only the newest ring and each
     * older version's moved ranges against the next (HandoffDelta), gets
     * the same partition and answers from HandoffMerge, which merges only
     * the moved ranges (its design note). HandoffBuild chooses.
     *
     * After the sweep each segment's state is reduced to its answer
     * (movedAt, the first 8 earlier owners and their seen positions; none
     * when movedAt is unset); adjacent segments with the same answer merge.
     * What is left are the moved ranges of all held versions together:
     *   starts[] strictly ascending, biased (unsigned order as signed ints),
     *   starts[0] the space's first value; answerIds.length == starts.length;
     *   segment i is [starts[i], starts[i+1]) (the last runs to the end);
     *   answerIds[i] == 0 means no move; answers[0] is null.
     * A lookup takes the segment of its coordinate (the last start <= it)
     * and its answer. For the hash space the search goes through
     * PointIndex's bucket index over the starts (a bucket per two starts,
     * 2 bytes a segment; its design note says how), so a lookup reads a few
     * adjacent ints; for a table, when there are fewer than 65,536 distinct
     * answers, each entry's answer id sits in a char[M] (2 bytes an entry:
     * 128 KB for the default 65,537 entries) and a lookup is one read, else
     * the starts are binary searched. A shorter window is a cut c >= 0:
     * movedAt <= c means no move, and since the seen positions descend
     * along the list, the owners seen at or after c are a prefix of it. The
     * answer with every owner is made once per distinct answer, so the
     * full window allocates nothing; a shorter one copies a prefix.
     *
     * Memory: 10 bytes per segment (start, answer id and bucket index; a
     * table adds 2 bytes per entry) and about 100 + 12 k bytes per distinct
     * answer of k owners. Segments are at most 1 + 2 x the moved ranges of
     * the held versions' successive diffs (each range makes at most two
     * breakpoints), so 10 versions that each add, remove or reweight one
     * node of 128 points make about 2,300 to 2,600 segments and 400 to 900
     * answers: 65 to 120 KB whether the ring has 50 or 1,000 nodes
     * (HandoffBenchmark prints it), about 1 byte per point and version of
     * the 1,000-node ring. Whatever the changes, at most
     * (1 + 2 x points x versions) x 10 bytes and the answers. The sweep
     * needs a partition the size of the current ring's points plus the
     * moves (8 bytes each) while it runs; the merge of a trail, only the
     * moves (a trail's own memory is in HandoffDelta's design note).
     *
     * The slow path. The merge needs one coordinate for all versions: when
     * the held versions change between a ring and a Maglev table, or
     * between two table sizes, hash lookups walk the versions instead; and
     * when they hash keys with different functions (a change of hash
     * setting), so do key lookups. A walk routes the key (or hash) in each
     * version of the window and applies the rule above: n lookups and an
     * array per call. The index then holds its versions' snapshots, which
     * the fast path lets go after building (HandoffWalk); one made from a
     * trail walks the trail's deltas, newest first, each older owner read
     * from its delta or, where it is "the same as the next", taken from
     * the version after it.
     */

    /** An owner code for "no owner" (an empty ring), and a position for "no move". */
    static final int NONE = -1;

    private final long firstVersion;
    private final Instant[] committedAt;
    private final HashRing current;
    /** 0: segments of the hash space; M: of a Maglev table's entries. Meaningless without starts. */
    private final int tableSize;
    /** The merged partition; null when the versions have no common coordinate. */
    private final int[] starts;
    private final int[] answerIds;
    /** Ring space: PointIndex's bucket index over starts (null for a table). */
    private final int[] buckets;
    private final int bucketShift;
    /** Table space with fewer than 65,536 answers: each entry's answer id (else null: starts are searched). */
    private final char[] entryAnswers;
    private final HandoffAnswer[] answers;
    /** The key hash of every version that has an owner, or null when they differ (key lookups walk). */
    private final KeyHash keyHash;
    /** The versions, kept for walks only; null when no lookup walks. */
    private final HandoffWalk walk;

    /** Made by {@link HandoffBuild}, which says which lookups walk. */
    HandoffIndex(long firstVersion, Instant[] committedAt, HashRing current, int tableSize, int[] starts,
            int[] answerIds, HandoffAnswer[] answers, KeyHash keyHash, HandoffWalk walk) {
        this.firstVersion = firstVersion;
        this.committedAt = committedAt;
        this.current = current;
        this.tableSize = tableSize;
        this.starts = starts;
        this.answerIds = answerIds;
        this.answers = answers;
        int bits = starts == null ? 1 : PointIndex.bits(starts.length);
        this.bucketShift = 32 - bits;
        this.buckets = starts != null && tableSize == 0 ? PointIndex.of(starts, bits) : null;
        this.entryAnswers = starts != null && tableSize != 0 && answers.length <= Character.MAX_VALUE + 1
                ? entryAnswers(starts, answerIds, tableSize) : null;
        this.keyHash = keyHash;
        this.walk = walk;
    }

    /** A builder: add the versions oldest first, each one version after the last. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * An index over {@code rings}, consecutive versions oldest first, with
     * their commit times ({@code null} where not known).
     *
     * @throws IllegalArgumentException if the lists differ in size, are empty or the versions are not consecutive
     */
    public static HandoffIndex of(List<HashRing> rings, List<Instant> committedAt) {
        if (rings.size() != committedAt.size()) {
            throw new IllegalArgumentException("one commit time per ring: " + rings.size() + " rings, "
                    + committedAt.size() + " times");
        }
        Builder b = builder();
        for (int i = 0; i < rings.size(); i++) {
            b.add(rings.get(i), committedAt.get(i));
        }
        return b.build();
    }

    /** Collects consecutive versions for a {@link HandoffIndex}. Not thread-safe. */
    public static final class Builder {
        private final List<HashRing> rings = new ArrayList<>();
        private final List<Instant> times = new ArrayList<>();

        private Builder() {
        }

        /**
         * Adds the next version, one after the last added.
         *
         * @param committedAt when it was committed, or {@code null} when not known (it then counts as outside
         *                    every window)
         * @throws IllegalArgumentException if {@code ring} is not one version after the last added
         */
        public Builder add(HashRing ring, Instant committedAt) {
            Objects.requireNonNull(ring, "ring");
            if (!rings.isEmpty() && ring.version() != rings.get(rings.size() - 1).version() + 1) {
                throw new IllegalArgumentException("versions must be consecutive: "
                        + rings.get(rings.size() - 1).version() + " then " + ring.version());
            }
            rings.add(ring);
            times.add(committedAt);
            return this;
        }

        /** The number of versions added. */
        public int size() {
            return rings.size();
        }

        /**
         * The index over the versions added.
         *
         * @throws IllegalStateException if none was added
         */
        public HandoffIndex build() {
            if (rings.isEmpty()) {
                throw new IllegalStateException("a handoff index needs at least one version");
            }
            return HandoffBuild.of(rings.toArray(new HashRing[0]), times.toArray(new Instant[0]));
        }
    }

    // ---------------------------------------------------------------- lookups

    /**
     * The handoff of {@code key} over every version held.
     *
     * @return {@code null} when its owner did not change
     */
    public Handoff handoff(String key) {
        return handoff(key, null);
    }

    /**
     * The handoff of {@code key} within the window starting at {@code since}
     * ({@code null}: every version held).
     *
     * @return {@code null} when its owner did not change within the window
     */
    public Handoff handoff(String key, Instant since) {
        Objects.requireNonNull(key, "key");
        if (keyHash != null) {
            return lookup(keyHash.hash(key), cut(since));
        }
        return walk(key, 0, cut(since));
    }

    /**
     * {@link #handoff(String, Instant)} for a key whose hash under the newest
     * version, {@code current().hash(key)}, is known already: it is not
     * hashed again unless the versions hash keys differently.
     *
     * @throws IllegalArgumentException if {@code hash} is outside {@code 0 .. 2^32-1}
     */
    public Handoff handoff(String key, long hash, Instant since) {
        int h = PointIndex.checkHash(hash);
        if (keyHash != null) {
            // an empty newest version may hash keys otherwise than the versions with owners
            return lookup(keyHash == current.config().hash() ? h : keyHash.hash(key), cut(since));
        }
        return walk(Objects.requireNonNull(key, "key"), 0, cut(since));
    }

    /**
     * The handoff of a hash value: who owned the value itself at each
     * version, within the window starting at {@code since} ({@code null}:
     * every version held), whatever each version's key hash.
     *
     * @throws IllegalArgumentException if {@code hash} is outside {@code 0 .. 2^32-1}
     */
    public Handoff handoffHash(long hash, Instant since) {
        int h = PointIndex.checkHash(hash);
        if (starts != null) {
            return lookup(h, cut(since));
        }
        return walk(null, h, cut(since));
    }

    private Handoff lookup(int hash, int cut) {
        int a;
        if (buckets != null) { // the segment of the last start <= hash: scan the hash's bucket
            int b = hash >>> bucketShift;
            int k = buckets[b];
            int hi = buckets[b + 1];
            int x = hash ^ HashRing.BIAS;
            while (k < hi && starts[k] <= x) {
                k++;
            }
            a = answerIds[k - 1];
        } else if (entryAnswers != null) {
            a = entryAnswers[(int) ((hash & 0xFFFF_FFFFL) % tableSize)];
        } else {
            int i = Arrays.binarySearch(starts, (int) ((hash & 0xFFFF_FFFFL) % tableSize) ^ HashRing.BIAS);
            a = answerIds[i >= 0 ? i : -i - 2];
        }
        return a == 0 ? null : answers[a].at(cut);
    }

    /** Each entry's answer id, from the segments of entries. */
    private static char[] entryAnswers(int[] starts, int[] answerIds, int size) {
        char[] byEntry = new char[size];
        for (int i = 0; i < starts.length; i++) {
            int from = starts[i] ^ HashRing.BIAS;
            int to = i + 1 < starts.length ? starts[i + 1] ^ HashRing.BIAS : size;
            Arrays.fill(byEntry, from, to, (char) answerIds[i]);
        }
        return byEntry;
    }

    /** The cut of a window starting at {@code since}: the newest position committed before it, at least 0. */
    private int cut(Instant since) {
        if (since == null) {
            return 0;
        }
        for (int p = committedAt.length - 1; p > 0; p--) {
            Instant t = committedAt[p];
            if (t == null || t.isBefore(since)) {
                return p;
            }
        }
        return 0;
    }

    /** The rule itself, over the versions from {@code cut} on: for a key, or for a hash when key is null. */
    private Handoff walk(String key, int hash, int cut) {
        int n = committedAt.length;
        String[] owner = new String[n];
        for (int p = n - 1; p >= cut; p--) { // newest first: an older version may be "the same as the next"
            owner[p] = walk.owner(p, key, hash, p + 1 < n ? owner[p + 1] : null);
        }
        int moved = NONE;
        for (int p = n - 1; p > cut; p--) {
            if (!Objects.equals(owner[p], owner[p - 1])) {
                moved = p;
                break;
            }
        }
        if (moved == NONE) {
            return null;
        }
        String now = owner[n - 1];
        List<String> previous = new ArrayList<>(Handoff.MAX_PREVIOUS);
        for (int p = moved - 1; p >= cut && previous.size() < Handoff.MAX_PREVIOUS; p--) {
            String o = owner[p];
            if (o != null && !o.equals(now) && !previous.contains(o)) {
                previous.add(o);
            }
        }
        return new Handoff(firstVersion + moved, committedAt[moved], previous);
    }

    // ---------------------------------------------------------------- accessors

    /** The oldest version held: its owners count, its own change does not. */
    public long oldestVersion() {
        return firstVersion;
    }

    /** The newest version held, whose owners the answers are relative to. */
    public long version() {
        return current.version();
    }

    /** The newest version held. */
    public HashRing current() {
        return current;
    }

    /** The number of versions held. */
    public int versionCount() {
        return committedAt.length;
    }

    /** When the version held at {@code version} was committed, or {@code null} when not known. */
    public Instant committedAt(long version) {
        if (version < firstVersion || version > current.version()) {
            throw new IllegalArgumentException("version must be in [" + firstVersion + ", " + current.version()
                    + "]: " + version);
        }
        return committedAt[(int) (version - firstVersion)];
    }

    /**
     * Whether every lookup takes the index's binary search; false when some
     * walk the versions (the versions change between placements of another
     * kind, table size or key hash: see the class's design note).
     */
    public boolean indexed() {
        return walk == null;
    }

    /** The number of segments of the merged partition (0 when there is none). */
    public int segmentCount() {
        return starts == null ? 0 : starts.length;
    }

    /**
     * An estimate of the heap this index holds, in bytes: its arrays and answers, and any snapshots it
     * keeps for walks (not those of the {@link HandoffTrail} it was made from, which the trail counts).
     */
    public long memoryBytes() {
        long bytes = 64 + 16 + 8L * committedAt.length;
        if (starts != null) {
            bytes += 32 + 8L * starts.length + 16 + 4L * answers.length;
            bytes += buckets == null ? 0 : 16 + 4L * buckets.length;
            bytes += entryAnswers == null ? 0 : 16 + 2L * entryAnswers.length;
            for (int a = 1; a < answers.length; a++) {
                bytes += 100 + 12L * answers[a].seen.length;
            }
        }
        return walk == null ? bytes : bytes + walk.memoryBytes();
    }

    @Override
    public String toString() {
        return "HandoffIndex[v" + firstVersion + "..v" + current.version() + ", " + committedAt.length
                + " versions, " + (starts == null ? "walked" : starts.length + " segments, "
                + (answers.length - 1) + " answers") + (starts != null && walk != null ? ", keys walked" : "")
                + "]";
    }
}
