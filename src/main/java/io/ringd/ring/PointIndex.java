package io.ringd.ring;

/**
 * The search index of a ring's points, and the lookup through it: the first
 * point at or after a hash, wrapping to the first point. Static, over the
 * arrays {@link HashRing} keeps, so a lookup allocates and dereferences
 * nothing more.
 */
final class PointIndex {

    /*
     * Design note. A binary search over points[] costs log2(n) dependent
     * reads, most of them cache misses once the ring outgrows the L1 cache
     * (16,000 points are 64 KB). So a top-level index comes first: the hash
     * space is cut into B = 2^bits equal buckets, B the largest power of two
     * at most n / 2 (so at most 2 bytes a point, 2 to 4 points a bucket on
     * average), and index[b] is the first point in or after bucket b
     * (index[B] = n). A lookup reads index[b] and index[b + 1] (one cache
     * line, mostly), then scans the few points between: answer lo when
     * points[lo] >= hash, else the next; the points before index[b] are
     * below the bucket and those from index[b + 1] on are above it, so the
     * scan is exact, and a hash past the last point gets n, which wraps to
     * 0. A Maglev table has no points, so it takes the branch an empty ring
     * takes, and only there is tableSize read: a table lookup is hash mod M.
     * Points are biased (HashRing.BIAS) so that signed order is unsigned order.
     */

    private PointIndex() {
    }

    /**
     * Index of the first point >= hash, wrapping to 0; for a Maglev table
     * ({@code points} empty, {@code tableSize} M > 0) the entry hash mod M.
     * The hash is unsigned in an int.
     *
     * @throws RingException.NoNodes with no points and no table
     */
    static int indexOf(int[] points, int[] index, int shift, int tableSize, int hash) {
        if (points.length == 0) {
            if (tableSize != 0) {
                return (int) ((hash & 0xFFFF_FFFFL) % tableSize);
            }
            throw new RingException.NoNodes();
        }
        int b = hash >>> shift;
        int lo = index[b];
        int hi = index[b + 1];
        int biased = hash ^ HashRing.BIAS;
        while (lo < hi && points[lo] < biased) {
            lo++;
        }
        return lo == points.length ? 0 : lo;
    }

    /** log2 of the index's bucket count for n points: the largest power of two at most n / 2 (at least 2). */
    static int bits(int n) {
        return Math.max(1, 31 - Integer.numberOfLeadingZeros(Math.max(1, n / 2)));
    }

    /** index[b] = the first point at or after bucket b's start (b << (32 - bits)), index[2^bits] = n; null for no points. */
    static int[] of(int[] points, int bits) {
        if (points.length == 0) {
            return null;
        }
        int buckets = 1 << bits;
        int shift = 32 - bits;
        int[] idx = new int[buckets + 1];
        for (int p : points) { // a histogram, then its prefix sums: no data-dependent branch
            idx[((p ^ HashRing.BIAS) >>> shift) + 1]++;
        }
        for (int b = 1; b <= buckets; b++) {
            idx[b] += idx[b - 1];
        }
        return idx;
    }

    /** A hash value checked to be in {@code [0, 2^32)}, as an unsigned int. */
    static int checkHash(long hash) {
        if (hash < 0 || hash >= HashRing.HASH_SPACE) {
            throw new IllegalArgumentException("hash must be in [0, 4294967295]: " + hash);
        }
        return (int) hash;
    }
}
