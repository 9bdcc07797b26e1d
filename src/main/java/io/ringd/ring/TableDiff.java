package io.ringd.ring;

import java.util.Arrays;

/**
 * Exact moved counts and flows between two placements when at least one is
 * a Maglev table: table and table (of the same size or not), ring and
 * table, table and ring (docs/ring.md section 15, diffs).
 */
final class TableDiff {

    /*
     * Design note. A flow count is the number of hash values h in
     * [0, 2^32) with owner_a(h) = x and owner_b(h) = y. Counting the 2^32
     * values one by one takes seconds; everything below is exact and
     * proportional to the sizes of the two placements instead.
     *
     * Same table size M. Both owners depend only on e = h mod M, and entry
     * e holds q + 1 values when e < r, q otherwise (2^32 = q * M + r): one
     * pass over the entries, grouped by their owner in a (a counting sort)
     * so that each pair is summed before it is handed over.
     *
     * Every method hands each (from, to) pair over once, so the caller can
     * count and select flows without gathering them: two tables of 10,000
     * nodes can have 10^8 of them.
     *
     * Ring against a table of size M. The ring's owner is constant on each
     * arc [lo, hi]; an arc of L values covers every entry L / M times (a
     * "full cycle", worth count_y(entries of y) to the flow x -> y, summed
     * per row once) plus a remainder of L mod M consecutive entries
     * starting at lo mod M, possibly wrapping: an interval of entries. So
     * the flows are: per row x (a ring owner), full cycles times the
     * table's entry counts, plus for each of x's intervals the number of
     * entries of each y it covers.
     *
     * Table M1 against table M2 (distinct primes). Take the values of one
     * entry a of the first table: h = a + k * M1 for k < K_a (K_a = q1 or
     * q1 + 1). Their entries in the second table are (a + k * d) mod M2 with
     * d = M1 mod M2 != 0. Read the second table in steps of d, B'[p] =
     * B[p * d mod M2]: then entry (a + k * d) mod M2 is position
     * (s_a + k) mod M2 with s_a = a * d^-1 mod M2, so the K_a values are
     * K_a / M2 full cycles plus an interval of K_a mod M2 consecutive
     * positions of B' starting at s_a. The same interval counting applies,
     * over B' instead of B. Either table can play "rows"; the one whose
     * intervals cover less is chosen (for 65537 against 65521 the intervals
     * are 14 long, so the work is about 1M steps; for 65537 against
     * 5,000,011 the 5,000,011 table plays rows, its intervals of 858 over
     * 65,537 positions).
     *
     * Counting intervals over a table of M positions, exactly, two ways:
     *   A. Row by row: if a row's intervals are shorter in total than M, walk
     *      them; otherwise add them to a difference array and sweep the M
     *      positions once. Cost: sum over rows of min(covered, M), and
     *      memory O(M + columns).
     *   B. All rows at once: each non-wrapping piece [s, e) contributes
     *      prefix(e) - prefix(s), where prefix(p) is the histogram of the
     *      columns over positions [0, p). Order the 2 * pieces endpoints by
     *      position (counting, not sorting), sweep the positions once
     *      keeping the histogram, and at each endpoint add or subtract it
     *      from the row's counts. Cost: M + endpoints * columns, with a
     *      rows x columns matrix.
     *   The cheaper one by those estimates is used (B only while the matrix
     *   has at most 4M cells). For a ring of 100 nodes x 128 points against
     *   M = 65537: B, about 65k + 25.6k x 100 steps.
     */

    /** Receives one flow: {@code count} values from member {@code from} of a to member {@code to} of b (-1: none). */
    interface Sink {
        void add(int from, int to, long count);
    }

    /** Approach B keeps a rows x columns matrix of longs: at most this many cells. */
    static final long MAX_MATRIX = 1L << 22;

    /** Which interval counting to use; tests force each one to compare them. */
    enum Method { CHEAPER, BY_ROW, BY_ENDPOINTS }

    private TableDiff() {
    }

    /**
     * Every flow from {@code a} to {@code b}, same-owner ones included (the
     * caller drops them), each (from, to) pair once, summed.
     */
    static void flows(HashRing a, HashRing b, Sink sink) {
        flows(a, b, sink, Method.CHEAPER);
    }

    static void flows(HashRing a, HashRing b, Sink sink, Method method) {
        if (a.isEmpty() || b.isEmpty()) {
            if (!a.isEmpty()) {
                wholeSpace(a, (x, none, c) -> sink.add(x, -1, c));
            } else if (!b.isEmpty()) {
                wholeSpace(b, (y, none, c) -> sink.add(-1, y, c));
            }
            return;
        }
        if (a.isTable() && b.isTable()) {
            if (a.tableSize == b.tableSize) {
                sameSize(a, b, sink);
            } else {
                tables(a, b, sink, method);
            }
        } else if (b.isTable()) {
            ringOverTable(a, b, sink, method);
        } else {
            ringOverTable(b, a, (row, col, c) -> sink.add(col, row, c), method);
        }
    }

    private static void wholeSpace(HashRing ring, Sink sink) {
        long[] counts = new long[ring.nodeCount()];
        int m = 0;
        for (Ownership.Share s : ring.ownership().shares()) {
            counts[m++] = s.count();
        }
        for (int x = 0; x < counts.length; x++) {
            if (counts[x] > 0) {
                sink.add(x, -1, counts[x]);
            }
        }
    }

    /** Entry by entry, summed per pair: the entries grouped by a's owner, each pair handed over once. */
    private static void sameSize(HashRing ra, HashRing rb, Sink sink) {
        int[] a = ra.owners;
        int[] b = rb.owners;
        int size = a.length;
        long q = HashRing.HASH_SPACE / size;
        long r = HashRing.HASH_SPACE % size;
        int rows = ra.nodeCount();
        int[] first = new int[rows + 1];
        for (int owner : a) {
            first[owner + 1]++;
        }
        for (int x = 0; x < rows; x++) {
            first[x + 1] += first[x];
        }
        int[] order = new int[size];
        int[] fill = Arrays.copyOf(first, rows);
        for (int e = 0; e < size; e++) {
            order[fill[a[e]]++] = e;
        }
        long[] counts = new long[rb.nodeCount()];
        int[] touched = new int[counts.length];
        for (int x = 0; x < rows; x++) {
            int t = 0;
            for (int k = first[x]; k < first[x + 1]; k++) {
                int e = order[k];
                int y = b[e];
                if (counts[y] == 0) {
                    touched[t++] = y;
                }
                counts[y] += e < r ? q + 1 : q;
            }
            for (int i = 0; i < t; i++) {
                int y = touched[i];
                sink.add(x, y, counts[y]);
                counts[y] = 0;
            }
        }
    }

    // ------------------------------------------------------------ ring against table

    private static void ringOverTable(HashRing ring, HashRing table, Sink sink, Method method) {
        int size = table.tableSize;
        int[] pts = ring.points;
        int[] owners = ring.owners;
        TableIntervals iv = new TableIntervals(ring.nodeCount(), pts.length + 1);
        long prev = -1;
        for (int i = 0; i < pts.length; i++) {
            long p = Integer.toUnsignedLong(pts[i] ^ HashRing.BIAS);
            iv.addValues(owners[i], prev + 1, p, size);
            prev = p;
        }
        if (prev < HashRing.HASH_SPACE - 1) {
            iv.addValues(owners[0], prev + 1, HashRing.HASH_SPACE - 1, size);
        }
        TableIntervals.count(iv, table.owners, table.nodeCount(), sink, method);
    }

    // ------------------------------------------------------------ table against table

    private static void tables(HashRing a, HashRing b, Sink sink, Method method) {
        if (coverage(a, b) <= coverage(b, a)) {
            tableOverTable(a, b, sink, method);
        } else {
            tableOverTable(b, a, (row, col, c) -> sink.add(col, row, c), method);
        }
    }

    /** Roughly the work of {@code rows} over {@code cols}: sum over rows of min(covered, M2), plus M1. */
    private static long coverage(HashRing rows, HashRing cols) {
        int m1 = rows.tableSize;
        int m2 = cols.tableSize;
        long length = (HashRing.HASH_SPACE / m1) % m2 + 1;
        long work = m1;
        for (Ownership.Share s : rows.ownership().shares()) {
            work += Math.min((long) s.points() * length, m2);
        }
        return work;
    }

    private static void tableOverTable(HashRing rows, HashRing cols, Sink sink, Method method) {
        int[] a = rows.owners;
        int[] b = cols.owners;
        int m1 = a.length;
        int m2 = b.length;
        int d = m1 % m2;
        int dInverse = inverse(d, m2);
        int[] stepped = new int[m2]; // B'[p] = B[p * d mod m2]
        int e = 0;
        for (int p = 0; p < m2; p++) {
            stepped[p] = b[e];
            e += d;
            if (e >= m2) {
                e -= m2;
            }
        }
        long q1 = HashRing.HASH_SPACE / m1;
        long r1 = HashRing.HASH_SPACE % m1;
        TableIntervals iv = new TableIntervals(rows.nodeCount(), m1);
        int start = 0; // s_a = a * d^-1 mod m2
        for (int entry = 0; entry < m1; entry++) {
            long k = entry < r1 ? q1 + 1 : q1;
            iv.full[a[entry]] += k / m2;
            int len = (int) (k % m2);
            if (len > 0) {
                iv.add(a[entry], start, len);
            }
            start += dInverse;
            if (start >= m2) {
                start -= m2;
            }
        }
        TableIntervals.count(iv, stepped, cols.nodeCount(), sink, method);
    }

    /** x^-1 mod a prime p, for 0 < x < p. */
    static int inverse(int x, int p) {
        long t = 0;
        long newT = 1;
        long r = p;
        long newR = x;
        while (newR != 0) {
            long quotient = r / newR;
            long tmp = t - quotient * newT;
            t = newT;
            newT = tmp;
            tmp = r - quotient * newR;
            r = newR;
            newR = tmp;
        }
        return (int) (t < 0 ? t + p : t);
    }
}
