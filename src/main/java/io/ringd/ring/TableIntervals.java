package io.ringd.ring;

import java.util.Arrays;

/**
 * Intervals of table positions per row (with whole cycles of the table per row), and the
 * counting of every (row, column, count) they cover over a table: the engine of
 * {@link TableDiff}'s exact flows between a table and a ring or another table.
 */
final class TableIntervals {

    final long[] full;
    int[] row;
    int[] start;
    int[] len;
    int size;

    TableIntervals(int rows, int expected) {
        full = new long[rows];
        row = new int[Math.max(expected, 4)];
        start = new int[row.length];
        len = new int[row.length];
    }

    /** The hash values lo .. hi (inclusive) of row r, over a table of {@code m} entries. */
    void addValues(int r, long lo, long hi, int m) {
        long values = hi - lo + 1;
        full[r] += values / m;
        int rest = (int) (values % m);
        if (rest > 0) {
            add(r, (int) (lo % m), rest);
        }
    }

    /** Positions s, s+1, ... (wrapping), {@code l} of them, {@code 0 < l < M}. */
    void add(int r, int s, int l) {
        if (size == row.length) {
            row = Arrays.copyOf(row, size * 2);
            start = Arrays.copyOf(start, size * 2);
            len = Arrays.copyOf(len, size * 2);
        }
        row[size] = r;
        start[size] = s;
        len[size] = l;
        size++;
    }

    /** Every (row, column, count) of {@code iv} over {@code table}, the cheaper way (or as told). */
    static void count(TableIntervals iv, int[] table, int cols, TableDiff.Sink sink, TableDiff.Method method) {
        int m = table.length;
        int rows = iv.full.length;
        long[] colCount = new long[cols];
        for (int c : table) {
            colCount[c]++;
        }
        long[] covered = new long[rows];
        for (int i = 0; i < iv.size; i++) {
            covered[iv.row[i]] += iv.len[i];
        }
        long byRow = iv.size + (long) rows * cols;
        for (long c : covered) {
            byRow += Math.min(c, m);
        }
        long endpoints = 4L * iv.size;
        long byEndpoints = (long) rows * cols <= TableDiff.MAX_MATRIX
                ? 2L * m + endpoints * cols + (long) rows * cols
                : Long.MAX_VALUE;
        boolean useEndpoints = method == TableDiff.Method.BY_ENDPOINTS
                || (method == TableDiff.Method.CHEAPER && byEndpoints < byRow);
        if (useEndpoints) {
            byEndpoints(iv, table, cols, colCount, sink);
        } else {
            byRow(iv, table, cols, colCount, covered, sink);
        }
    }

    private static void byRow(TableIntervals iv, int[] table, int cols, long[] colCount, long[] covered,
            TableDiff.Sink sink) {
        int m = table.length;
        int rows = iv.full.length;
        // group the intervals by row (counting sort)
        int[] first = new int[rows + 1];
        for (int i = 0; i < iv.size; i++) {
            first[iv.row[i] + 1]++;
        }
        for (int r = 0; r < rows; r++) {
            first[r + 1] += first[r];
        }
        int[] order = new int[iv.size];
        int[] fill = Arrays.copyOf(first, rows);
        for (int i = 0; i < iv.size; i++) {
            order[fill[iv.row[i]]++] = i;
        }
        long[] counts = new long[cols];
        int[] delta = null;
        for (int r = 0; r < rows; r++) {
            if (covered[r] < m) {
                for (int k = first[r]; k < first[r + 1]; k++) {
                    int i = order[k];
                    int p = iv.start[i];
                    for (int n = iv.len[i]; n > 0; n--) {
                        counts[table[p]]++;
                        if (++p == m) {
                            p = 0;
                        }
                    }
                }
            } else {
                if (delta == null) {
                    delta = new int[m + 1];
                }
                for (int k = first[r]; k < first[r + 1]; k++) {
                    int i = order[k];
                    int s = iv.start[i];
                    int e = s + iv.len[i];
                    delta[s]++;
                    if (e <= m) {
                        delta[e]--;
                    } else {
                        delta[m]--;
                        delta[0]++;
                        delta[e - m]--;
                    }
                }
                int depth = 0;
                for (int p = 0; p < m; p++) {
                    depth += delta[p];
                    delta[p] = 0;
                    counts[table[p]] += depth;
                }
                delta[m] = 0;
            }
            long full = iv.full[r];
            for (int c = 0; c < cols; c++) {
                long n = counts[c] + full * colCount[c];
                counts[c] = 0;
                if (n != 0) {
                    sink.add(r, c, n);
                }
            }
        }
    }

    /** The first n endpoints ordered by position (0 .. m), by counting: linear, where a sort is n log n. */
    private static long[] sortByPosition(long[] ends, int n, int m) {
        int[] first = new int[m + 2];
        for (int k = 0; k < n; k++) {
            first[(int) (ends[k] >>> 32) + 1]++;
        }
        for (int p = 0; p <= m; p++) {
            first[p + 1] += first[p];
        }
        long[] out = new long[n];
        for (int k = 0; k < n; k++) {
            out[first[(int) (ends[k] >>> 32)]++] = ends[k];
        }
        return out;
    }

    private static void byEndpoints(TableIntervals iv, int[] table, int cols, long[] colCount, TableDiff.Sink sink) {
        int m = table.length;
        int rows = iv.full.length;
        // endpoint = position << 32 | row << 1 | (1 for an end: add, 0 for a start: subtract)
        long[] ends = new long[4 * iv.size];
        int n = 0;
        for (int i = 0; i < iv.size; i++) {
            long r = (long) iv.row[i] << 1;
            int s = iv.start[i];
            int e = s + iv.len[i];
            if (e <= m) {
                ends[n++] = ((long) s << 32) | r;
                ends[n++] = ((long) e << 32) | r | 1;
            } else {
                ends[n++] = ((long) s << 32) | r;
                ends[n++] = ((long) m << 32) | r | 1;
                ends[n++] = r; // position 0
                ends[n++] = ((long) (e - m) << 32) | r | 1;
            }
        }
        ends = sortByPosition(ends, n, m);
        long[] matrix = new long[rows * cols];
        long[] prefix = new long[cols]; // histogram of table[0 .. p)
        int p = 0;
        for (long end : ends) {
            int at = (int) (end >>> 32);
            while (p < at) {
                prefix[table[p++]]++;
            }
            int base = (int) ((end & 0xFFFF_FFFFL) >>> 1) * cols;
            if ((end & 1) != 0) {
                for (int c = 0; c < cols; c++) {
                    matrix[base + c] += prefix[c];
                }
            } else {
                for (int c = 0; c < cols; c++) {
                    matrix[base + c] -= prefix[c];
                }
            }
        }
        for (int r = 0; r < rows; r++) {
            long full = iv.full[r];
            int base = r * cols;
            for (int c = 0; c < cols; c++) {
                long count = matrix[base + c] + full * colCount[c];
                if (count != 0) {
                    sink.add(r, c, count);
                }
            }
        }
    }
}
