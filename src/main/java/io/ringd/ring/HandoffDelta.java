package io.ringd.ring;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One version of a {@link HandoffTrail} other than its newest, kept as the
 * handoff index needs it (docs/ring.md section 21): its owners where they
 * differ from the next version's, and "the same as the next version"
 * elsewhere.
 */
final class HandoffDelta {

    /*
     * Design note.
     *
     * A version's ownership is a partition of its coordinate space (hash
     * values for a ring or a ketama ring, entries 0 .. M-1 for a Maglev
     * table of size M; HandoffSweep's design note), and a handoff answer
     * needs nothing else of it. A delta is that partition relative to the
     * next version's: starts[] biased and ascending from the space's first
     * value, and each segment's value: the owner of this version (an index
     * into names[]), NONE for an empty ring's "no owner", or SAME where
     * this version's owner is the next one's. Adjacent segments of one
     * value are merged, so a SAME segment spans everything between two
     * moved ranges, and an owner's segment may span ranges that went to
     * different owners (the merge that builds the index splits them again
     * where it needs the newest owner: HandoffMerge's design note). A
     * change of one node of 128 points moves 128 to 256 ranges, so a delta
     * is a few KB whatever the ring's size.
     *
     * SAME stands only where it is exact for every lookup, key or hash
     * value: when both versions have owners, in one coordinate space, and
     * hash keys with the same function. Otherwise every segment carries
     * this version's own owner (a whole partition, about 8 bytes a point,
     * still less than the ring): across a change of placement, table size
     * or key hash, and before an empty ring. An empty version is one
     * segment of NONE (SAME when the next one is empty too), in every
     * space.
     *
     * The diff runs on the follower's thread at every swap, so it is one
     * pass over both rings' arcs (or entries) with their owners, each
     * member of this version mapped once to its index in the next; a run
     * of equal points (most of them, after a change of a few nodes) is
     * found with Arrays.mismatch, so only its owners are compared one by
     * one; a run is scanned once, even where owners change within it.
     */

    /** The value of a segment where this version's owner is the next version's. */
    static final int SAME = -2;
    /** The value of a segment without an owner (an empty ring). */
    static final int NONE = HandoffIndex.NONE;

    /** Whether the version had no owner at all: then it is one segment, in every space. */
    final boolean empty;
    /** 0: segments of the hash space; M: of a Maglev table's entries. */
    final int tableSize;
    /** The version's key hash. */
    final KeyHash hash;
    final int[] starts;
    final int[] values;
    final String[] names;

    private HandoffDelta(boolean empty, int tableSize, KeyHash hash, int[] starts, int[] values, String[] names) {
        this.empty = empty;
        this.tableSize = tableSize;
        this.hash = hash;
        this.starts = starts;
        this.values = values;
        this.names = names;
    }

    /** Version {@code a} relative to {@code b}, the version after it. */
    static HandoffDelta between(HashRing a, HashRing b) {
        KeyHash hash = a.config().hash();
        if (a.isEmpty()) {
            return new HandoffDelta(true, 0, hash, new int[] {HashRing.BIAS},
                    new int[] {b.isEmpty() ? SAME : NONE}, new String[0]);
        }
        boolean same = !b.isEmpty() && a.tableSize == b.tableSize && hash == b.config().hash();
        Out out = new Out(a);
        if (a.tableSize != 0) {
            entries(a, b, same ? sameMembers(a, b) : null, out);
        } else if (same) {
            arcs(a, b, sameMembers(a, b), out);
        } else {
            arcs(a, out);
        }
        return out.delta(a.tableSize, hash);
    }

    /** Table entries, each against the next version's (or not at all: {@code aToB} null). */
    private static void entries(HashRing a, HashRing b, int[] aToB, Out out) {
        int[] oa = a.owners;
        int[] ob = b.owners;
        for (int e = 0; e < oa.length; e++) {
            int o = oa[e];
            out.add(e ^ HashRing.BIAS, aToB != null && aToB[o] == ob[e] ? SAME : out.code(o));
        }
    }

    /** A ring's arcs alone: the arc after point i starts at point i + 1 and is the next point's owner's. */
    private static void arcs(HashRing a, Out out) {
        int[] pa = a.points;
        int[] oa = a.owners;
        out.add(HashRing.BIAS, out.code(oa[0]));
        for (int i = 0; i < pa.length && pa[i] != Integer.MAX_VALUE; i++) {
            out.add(pa[i] + 1, out.code(oa[(i + 1) % pa.length]));
        }
    }

    /**
     * Both rings' arcs merged: arc k of a ring ends at its point k (inclusive), and the arc after the
     * last point, which ends at the space's end, is point 0's owner's, as the wrap is.
     */
    private static void arcs(HashRing a, HashRing b, int[] aToB, Out out) {
        int[] pa = a.points;
        int[] oa = a.owners;
        int[] pb = b.points;
        int[] ob = b.owners;
        int na = pa.length;
        int nb = pb.length;
        int ka = 0;
        int kb = 0;
        int x = HashRing.BIAS; // where the next piece starts
        boolean aligned = true; // both arcs start at x
        int equalShift = Integer.MIN_VALUE; // pa[k] == pb[k + equalShift] for k up to equalEnd: found once
        int equalEnd = 0;
        while (true) {
            if (aligned && ka < na && kb < nb) { // a run of equal arcs: equal points, then equal owners
                if (kb - ka != equalShift || ka >= equalEnd) {
                    int equal = Arrays.mismatch(pa, ka, na, pb, kb, nb);
                    equalEnd = ka + (equal < 0 ? Math.min(na - ka, nb - kb) : equal);
                    equalShift = kb - ka;
                }
                int run = equalEnd - ka;
                int r = 0;
                while (r < run && aToB[oa[ka + r]] == ob[kb + r]) {
                    r++;
                }
                if (r > 0) {
                    out.add(x, SAME);
                    int end = pa[ka + r - 1];
                    ka += r;
                    kb += r;
                    if (end == Integer.MAX_VALUE) {
                        return;
                    }
                    x = end + 1;
                }
            }
            int ea = ka < na ? pa[ka] : Integer.MAX_VALUE;
            int eb = kb < nb ? pb[kb] : Integer.MAX_VALUE;
            int e = Math.min(ea, eb);
            int o = oa[ka < na ? ka : 0];
            out.add(x, aToB[o] == ob[kb < nb ? kb : 0] ? SAME : out.code(o));
            if (e == Integer.MAX_VALUE) {
                return;
            }
            x = e + 1;
            aligned = ea == e && eb == e;
            if (ea == e) {
                ka++;
            }
            if (eb == e) {
                kb++;
            }
        }
    }

    /** aToB[m]: the index in {@code b} of {@code a}'s member m, -1 if {@code b} lacks it. */
    private static int[] sameMembers(HashRing a, HashRing b) {
        String[] from = a.ids;
        String[] to = b.ids;
        int[] same = new int[from.length];
        for (int x = 0, y = 0; x < from.length; x++) {
            while (y < to.length && from[x] != to[y] && to[y].compareTo(from[x]) < 0) {
                y++;
            }
            same[x] = y < to.length && (from[x] == to[y] || to[y].equals(from[x])) ? y : -1;
        }
        return same;
    }

    /** The segments as they are found, adjacent ones of one value merged, owners coded as they are met. */
    private static final class Out {
        private final String[] ids;
        private final int[] codes;
        private final List<String> names = new ArrayList<>();
        private int[] starts = new int[64];
        private int[] values = new int[64];
        private int len;

        Out(HashRing a) {
            this.ids = a.ids;
            this.codes = new int[ids.length];
            Arrays.fill(codes, -1);
        }

        int code(int member) {
            int c = codes[member];
            if (c < 0) {
                c = names.size();
                names.add(ids[member]);
                codes[member] = c;
            }
            return c;
        }

        void add(int start, int value) {
            if (len > 0 && values[len - 1] == value) {
                return;
            }
            if (len == starts.length) {
                starts = Arrays.copyOf(starts, len * 2);
                values = Arrays.copyOf(values, len * 2);
            }
            starts[len] = start;
            values[len++] = value;
        }

        HandoffDelta delta(int tableSize, KeyHash hash) {
            return new HandoffDelta(false, tableSize, hash, Arrays.copyOf(starts, len), Arrays.copyOf(values, len),
                    names.toArray(new String[0]));
        }
    }

    // ---------------------------------------------------------------- reading

    /** The value of the segment holding the biased coordinate {@code x}. */
    int valueAt(int x) {
        int i = Arrays.binarySearch(starts, x);
        return values[i >= 0 ? i : -i - 2];
    }

    /**
     * This version's owner of {@code key} (or of the hash value {@code hash} when key is null), given
     * the next version's, {@code next}; null for none.
     */
    String owner(String key, int hash, String next) {
        int v;
        if (starts.length == 1) {
            v = values[0];
        } else {
            int h = key != null ? this.hash.hash(key) : hash;
            v = valueAt((tableSize != 0 ? (int) ((h & 0xFFFF_FFFFL) % tableSize) : h) ^ HashRing.BIAS);
        }
        return v == SAME ? next : v == NONE ? null : names[v];
    }

    /** The segments, {@code SAME} ones included. */
    int segmentCount() {
        return starts.length;
    }

    /**
     * An estimate of the heap this delta holds, in bytes: its arrays, and the names it lists that are not
     * members of {@code current} (whose ids are held anyway).
     */
    long memoryBytes(HashRing current) {
        long bytes = 32 + 2 * (16 + 4L * starts.length) + 16 + 4L * names.length;
        for (String n : names) {
            bytes += current.memberIndex(n) >= 0 ? 0 : 56 + n.length();
        }
        return bytes;
    }
}
