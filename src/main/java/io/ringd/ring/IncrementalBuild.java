package io.ringd.ring;

import java.util.Arrays;

/**
 * The next version of a vnode or ketama ring made from the previous one,
 * hashing only the points a change adds or drops and reusing every other
 * entry (RingBuilder's design note, "Incremental changes"). Two steps: a
 * {@link Delta} says where each old member goes and which entries are
 * gained or dropped; {@link #merge} then walks the old entries once, in
 * order, and writes the next version's entries to a {@link PointWriter}.
 */
final class IncrementalBuild {

    private IncrementalBuild() {
    }

    /**
     * The next version of {@code ring} with members {@code next} (ascending
     * by id) placing {@code wantPoints[m]} points each, reusing every
     * unchanged entry.
     */
    static HashRing rebuild(HashRing ring, Node[] next, int[] wantPoints) {
        Delta delta = new Delta(ring, next, wantPoints);
        PointWriter out = new PointWriter(bound(ring, delta), next.length);
        merge(ring, delta, out);
        return RingBuilder.snapshot(ring.config(), ring.version() + 1, next, wantPoints, out);
    }

    /**
     * What a change does to the old members' entries: where each member's
     * kept entries go, the entries members gain (placed afresh or a new
     * suffix) and the entries of the suffixes members drop.
     */
    private static final class Delta {
        /** Each old member's index in the next version; -1: removed, or its points are placed afresh. */
        final int[] oldToNew;
        /** The gained entries, sorted and distinct, numbered by the next version's members. */
        final long[] added;
        /** The dropped entries, sorted and distinct, numbered by the old members. */
        final long[] removed;

        Delta(HashRing ring, Node[] next, int[] wantPoints) {
            RingConfig config = ring.config();
            Node[] members = ring.members;
            int[] had = ring.placed;
            oldToNew = new int[members.length];
            Arrays.fill(oldToNew, -1);
            int[] changedNew = new int[next.length];
            int[][] gained = new int[next.length][];
            int changedCount = 0;
            int[] entryCounts = null; // entries per old member, counted when a node shrinks
            int[] shrunk = new int[members.length];
            int[][] dropped = new int[members.length][];
            int shrunkCount = 0;
            int o = 0;
            for (int m = 0; m < next.length; m++) {
                Node n = next[m];
                while (o < members.length && members[o].id().compareTo(n.id()) < 0) {
                    o++; // removed member
                }
                int want = wantPoints[m];
                if (o < members.length && members[o].id().equals(n.id()) && members[o].samePlacement(n)) {
                    if (want >= had[o]) { // the same points, or more: keep them, place the new suffix
                        oldToNew[o] = m;
                        if (want > had[o]) {
                            gained[changedCount] = RingBuilder.placePoints(config, n.placementKey(), had[o], want);
                            changedNew[changedCount++] = m;
                        }
                    } else { // fewer: take the dropped suffix out, or place the rest afresh
                        if (entryCounts == null) {
                            entryCounts = entryCounts(ring);
                        }
                        if (entryCounts[o] == had[o]) {
                            oldToNew[o] = m;
                            dropped[shrunkCount] = RingBuilder.placePoints(config, n.placementKey(), want, had[o]);
                            shrunk[shrunkCount++] = o;
                        } else {
                            gained[changedCount] = RingBuilder.placePoints(config, n.placementKey(), 0, want);
                            changedNew[changedCount++] = m;
                        }
                    }
                    o++;
                } else { // a new member, or one placed by another string: placed afresh, its old entries dropped
                    if (o < members.length && members[o].id().equals(n.id())) {
                        o++;
                    }
                    gained[changedCount] = RingBuilder.placePoints(config, n.placementKey(), 0, want);
                    changedNew[changedCount++] = m;
                }
            }
            added = RingBuilder.entriesOf(changedNew, gained, changedCount);
            removed = RingBuilder.entriesOf(shrunk, dropped, shrunkCount);
        }
    }

    /** The entries (points and shadowed) each member of {@code ring} has. */
    private static int[] entryCounts(HashRing ring) {
        int[] counts = new int[ring.nodeCount()];
        for (int m : ring.owners) {
            counts[m]++;
        }
        for (long e : ring.shadowed) {
            counts[(int) e]++;
        }
        return counts;
    }

    /**
     * The points the next version holds, as near as is known before the
     * merge: at most the old ones and the added ones (a promoted shadowed
     * entry takes its group's point); the old entries kept less the shadowed
     * ones when that is smaller (a removal), which is exact unless a
     * collision changes (the writer grows or trims then). The entries kept
     * are counted from the vnodes placed when no member hashed one point
     * twice, which every real hash gives.
     */
    private static int bound(HashRing ring, Delta delta) {
        int points = ring.points.length;
        int shadowed = ring.shadowed.length;
        long bound = (long) points + delta.added.length;
        if (ring.vnodeCount() == points + shadowed) {
            int[] had = ring.placed;
            long kept = -delta.removed.length;
            for (int k = 0; k < had.length; k++) {
                if (delta.oldToNew[k] >= 0) {
                    kept += had[k];
                }
            }
            bound = Math.max(0, Math.min(bound, kept + delta.added.length - shadowed));
        }
        return (int) bound;
    }

    /**
     * Writes the next version's entries to {@code out} in ascending order:
     * the old entries, points and shadowed merged back in order, less those
     * of removed members and dropped suffixes, renumbered, with the added
     * entries merged in. Without dropped suffixes (the usual case) the old
     * points are walked on their own, each after the shadowed entries below
     * it; what is left, or every entry when a suffix is dropped, goes
     * through the general merge below.
     */
    private static void merge(HashRing ring, Delta delta, PointWriter out) {
        int[] points = ring.points;
        int[] owners = ring.owners;
        long[] shadowed = ring.shadowed;
        int[] oldToNew = delta.oldToNew;
        long[] added = delta.added;
        long[] removed = delta.removed;
        int a = 0;
        int r = 0;
        int i = 0;
        int s = 0;
        if (removed.length == 0) { // the usual case: each old point, after the shadowed entries below it
            for (; i < points.length; i++) {
                long e = (long) points[i] << 32 | owners[i];
                while (s < shadowed.length && shadowed[s] < e) { // rare: a collision hid it
                    long hidden = shadowed[s++];
                    int newIndex = oldToNew[(int) hidden];
                    if (newIndex >= 0) {
                        a = keep(hidden, newIndex, added, a, out);
                    }
                }
                int newIndex = oldToNew[(int) e];
                if (newIndex >= 0) {
                    a = keep(e, newIndex, added, a, out);
                }
            }
        }
        while (i < points.length || s < shadowed.length) { // the old entries in order: points and shadowed merged
            long e;
            long winner = i < points.length ? (long) points[i] << 32 | owners[i] : Long.MAX_VALUE;
            if (s < shadowed.length && (i == points.length || shadowed[s] < winner)) {
                e = shadowed[s++];
            } else {
                e = winner;
                i++;
            }
            int newIndex = oldToNew[(int) e];
            if (newIndex < 0) {
                continue;
            }
            while (r < removed.length && removed[r] < e) {
                r++;
            }
            if (r < removed.length && removed[r] == e) {
                continue; // a vnode of a dropped suffix
            }
            a = keep(e, newIndex, added, a, out);
        }
        while (a < added.length) {
            out.add(added[a++]);
        }
    }

    /**
     * Writes old entry {@code e} renumbered to member {@code newIndex},
     * after the added entries below it, and drops an added entry equal to it
     * (a gained vnode on a point the member already had). Answers the index
     * of the next added entry not yet written.
     */
    private static int keep(long e, int newIndex, long[] added, int a, PointWriter out) {
        long entry = (e & 0xFFFF_FFFF_0000_0000L) | newIndex;
        while (a < added.length && added[a] < entry) {
            out.add(added[a++]);
        }
        if (a < added.length && added[a] == entry) {
            a++;
        }
        out.add(entry);
        return a;
    }
}
