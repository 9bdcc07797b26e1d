package io.ringd.ring;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * The base ring's points with the point changes made so far laid over
 * them: for each position touched, the members with a vnode there
 * (ascending, so the first owns it). Members are numbered in ascending
 * id order over the base members and the ramped nodes alike. The
 * present positions before and after a point are searched among the
 * base points (skipping those emptied) and among the positions off the
 * base that hold a vnode now, kept apart so that the many positions a
 * drain empties are never walked.
 */
final class PlanPointOverlay {
    private static final int[] NONE = new int[0];
    private static final long TOP = (long) Integer.MAX_VALUE + 1;
    private static final long BOTTOM = (long) Integer.MIN_VALUE - 1;

    final int[] points;
    final int[] owners;
    final long[] shadowed;
    final Map<Integer, int[]> touched = new HashMap<>();
    /** Positions off the base points that hold a vnode now. */
    final TreeSet<Integer> extra = new TreeSet<>();

    PlanPointOverlay(HashRing ring, String[] ids) {
        points = ring.points;
        int[] map = new int[ring.members.length];
        for (int m = 0; m < map.length; m++) {
            map[m] = Arrays.binarySearch(ids, ring.ids[m]);
        }
        owners = new int[points.length];
        for (int i = 0; i < points.length; i++) {
            owners[i] = map[ring.owners[i]];
        }
        shadowed = new long[ring.shadowed.length];
        for (int i = 0; i < shadowed.length; i++) {
            long e = ring.shadowed[i];
            shadowed[i] = (e & 0xFFFF_FFFF_0000_0000L) | map[(int) e];
        }
        Arrays.sort(shadowed);
    }

    /** Hash values whose owner changes when member {@code m} gains ({@code add}) or loses a vnode at {@code p}. */
    long moved(int p, int m, boolean add) {
        int[] before = entries(p);
        int[] after = add ? with(before, m) : without(before, m);
        int o1 = before.length > 0 ? before[0] : -1;
        int o2 = after.length > 0 ? after[0] : -1;
        if (o1 == o2) {
            return 0;
        }
        Integer q = previous(p);
        if (q == null) { // no other point: the whole space changes owner
            return HashRing.HASH_SPACE;
        }
        int next = owner(next(p));
        int was = o1 >= 0 ? o1 : next;
        int is = o2 >= 0 ? o2 : next;
        if (was == is) {
            return 0;
        }
        long up = unsigned(p);
        long uq = unsigned(q);
        return up > uq ? up - uq : up + HashRing.HASH_SPACE - uq;
    }

    void apply(int p, int m, boolean add) {
        int[] before = entries(p);
        int[] after = add ? with(before, m) : without(before, m);
        touched.put(p, after);
        if (Arrays.binarySearch(points, p) < 0) {
            if (after.length > 0) {
                extra.add(p);
            } else {
                extra.remove(p);
            }
        }
    }

    private static long unsigned(int biased) {
        return Integer.toUnsignedLong(biased ^ HashRing.BIAS);
    }

    private int owner(int p) {
        return entries(p)[0];
    }

    private int[] entries(int p) {
        int[] t = touched.get(p);
        if (t != null) {
            return t;
        }
        int i = Arrays.binarySearch(points, p);
        if (i < 0) {
            return NONE;
        }
        long lo = (long) p << 32;
        int s = lowerBound(shadowed, lo);
        int e = s;
        while (e < shadowed.length && (shadowed[e] & 0xFFFF_FFFF_0000_0000L) == lo) {
            e++;
        }
        int[] out = new int[1 + e - s];
        out[0] = owners[i];
        for (int k = s; k < e; k++) {
            out[1 + k - s] = (int) shadowed[k];
        }
        return out;
    }

    private static int lowerBound(long[] a, long key) {
        int lo = 0;
        int hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private boolean basePresent(int i) {
        int[] t = touched.get(points[i]);
        return t == null || t.length > 0;
    }

    /** The present position before {@code p}, wrapping; null when no other is present. */
    private Integer previous(int p) {
        Integer q = lastBelow(p);
        if (q == null) {
            q = lastBelow(TOP);
        }
        return q == null || q == p ? null : q;
    }

    /** The present position after {@code p}, wrapping; null when no other is present. */
    private Integer next(int p) {
        Integer q = firstAbove(p);
        if (q == null) {
            q = firstAbove(BOTTOM);
        }
        return q == null || q == p ? null : q;
    }

    private Integer lastBelow(long limit) {
        int i;
        if (limit >= TOP) {
            i = points.length - 1;
        } else {
            int at = Arrays.binarySearch(points, (int) limit);
            i = at >= 0 ? at - 1 : -at - 2;
        }
        while (i >= 0 && !basePresent(i)) {
            i--;
        }
        Integer e = extra.isEmpty() ? null : limit >= TOP ? extra.last() : extra.lower((int) limit);
        Integer best = i >= 0 ? points[i] : null;
        if (e != null && (best == null || e > best)) {
            best = e;
        }
        return best;
    }

    private Integer firstAbove(long limit) {
        int i;
        if (limit <= BOTTOM) {
            i = 0;
        } else {
            int at = Arrays.binarySearch(points, (int) limit);
            i = at >= 0 ? at + 1 : -at - 1;
        }
        while (i < points.length && !basePresent(i)) {
            i++;
        }
        Integer e = extra.isEmpty() ? null : limit <= BOTTOM ? extra.first() : extra.higher((int) limit);
        Integer best = i < points.length ? points[i] : null;
        if (e != null && (best == null || e < best)) {
            best = e;
        }
        return best;
    }

    private static int[] with(int[] a, int m) {
        int at = Arrays.binarySearch(a, m);
        if (at >= 0) {
            return a;
        }
        int ins = -at - 1;
        int[] out = new int[a.length + 1];
        System.arraycopy(a, 0, out, 0, ins);
        out[ins] = m;
        System.arraycopy(a, ins, out, ins + 1, a.length - ins);
        return out;
    }

    private static int[] without(int[] a, int m) {
        int at = Arrays.binarySearch(a, m);
        if (at < 0) {
            return a;
        }
        int[] out = new int[a.length - 1];
        System.arraycopy(a, 0, out, 0, at);
        System.arraycopy(a, at + 1, out, at, a.length - at - 1);
        return out;
    }
}
