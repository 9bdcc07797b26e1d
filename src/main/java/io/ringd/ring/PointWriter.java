package io.ringd.ring;

import java.util.Arrays;

/**
 * Takes a ring's entries in ascending order and writes, in that one
 * pass, what the snapshot keeps: the first entry of each point group as
 * the point and its owner, the others as shadowed, which members own a
 * point, and the histogram the search index is made of (HashRing's
 * design note), for the bucket count of {@code capacity} points. When
 * more or fewer points arrive (a collision came or went) and the bucket
 * count differs, the ring makes its index itself.
 */
final class PointWriter {

    private static final long[] NO_LONGS = new long[0];

    int[] points;
    int[] owners;
    final boolean[] owns;
    final int[] histogram;
    final int shift;
    long[] shadowed = NO_LONGS;
    int shadowedCount;
    int count;
    int last;

    PointWriter(int capacity, int memberCount) {
        points = new int[capacity];
        owners = new int[capacity];
        owns = new boolean[memberCount];
        int bits = PointIndex.bits(capacity);
        histogram = new int[(1 << bits) + 1];
        shift = 32 - bits;
    }

    void add(long entry) {
        int p = (int) (entry >>> 32);
        if (count > 0 && p == last) {
            if (shadowedCount == shadowed.length) {
                shadowed = Arrays.copyOf(shadowed, Math.max(8, shadowedCount * 2));
            }
            shadowed[shadowedCount++] = entry;
            return;
        }
        int m = (int) entry;
        if (count == points.length) { // more points than the capacity foresaw: rare
            points = Arrays.copyOf(points, Math.max(16, count + (count >> 3)));
            owners = Arrays.copyOf(owners, points.length);
        }
        points[count] = p;
        owners[count] = m;
        owns[m] = true;
        histogram[((p ^ HashRing.BIAS) >>> shift) + 1]++;
        count++;
        last = p;
    }

    /** The search index of the points written, or null when it needs another bucket count. */
    int[] index() {
        if (count == 0 || histogram.length != (1 << PointIndex.bits(count)) + 1) {
            return null;
        }
        int[] idx = histogram;
        for (int b = 1; b < idx.length; b++) {
            idx[b] += idx[b - 1];
        }
        return idx;
    }
}
