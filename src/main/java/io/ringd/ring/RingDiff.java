package io.ringd.ring;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The exact difference between two rings: how many hash values change
 * owner, the from->to flows, and the moved ranges.
 *
 * <p>Ranges are inclusive {@code [start, end]}, sorted by start, never
 * wrapping (an arc across 0 is two ranges), and adjacent ranges with the same
 * old and new owner are merged. From or to an empty ring, the owner on the
 * empty side is {@code null}. A diff keeps every range, or only the first few
 * asked for (the count, the moved count and the flows are always whole).
 *
 * <p>When either side is a Maglev table the moved count and the flows are
 * just as exact, but no ranges are listed: the values of one entry are
 * spread over the whole space ({@code e, e + M, ...}), so the ranges would
 * number in the hundreds of millions. {@link #rangesListed()} tells which.
 */
public final class RingDiff {

    /*
     * Design note. The boundaries of both rings, merged into one ascending
     * list u0 < u1 < ... < um, cut the circle into segments on which both
     * owners are constant: [0, u0] and (um, 2^32-1] belong to index 0 of each
     * ring (the wrap arc), and (u(j-1), uj] to the first point >= uj of each.
     * One pass over the two sorted point arrays visits every segment once,
     * so a diff is linear in the sizes of the two rings. When a Maglev table
     * is involved, TableDiff counts the flows (its design note says how) and
     * rangesListed is false.
     */

    private final long fromVersion;
    private final long toVersion;
    private final long movedCount;
    private final int rangeCount;
    private final List<Flow> flows;
    private final long[] starts;
    private final long[] ends;
    private final String[] rangeFrom;
    private final String[] rangeTo;
    private final boolean rangesListed;

    private RingDiff(long fromVersion, long toVersion, long movedCount, int rangeCount, List<Flow> flows,
            long[] starts, long[] ends, String[] rangeFrom, String[] rangeTo, boolean rangesListed) {
        this.fromVersion = fromVersion;
        this.toVersion = toVersion;
        this.movedCount = movedCount;
        this.rangeCount = rangeCount;
        this.flows = flows;
        this.starts = starts;
        this.ends = ends;
        this.rangeFrom = rangeFrom;
        this.rangeTo = rangeTo;
        this.rangesListed = rangesListed;
    }

    /** One entry of the flow matrix: {@code count} hash values move from {@code from} to {@code to}. */
    public record Flow(String from, String to, long count) {
        /** {@code count / 2^32}. */
        public double share() {
            return count / (double) HashRing.HASH_SPACE;
        }
    }

    /** One moved range, inclusive, with its old and new owner ({@code null} for none). */
    public record Range(long start, long end, String from, String to) {
        /** The number of hash values in the range. */
        public long size() {
            return end - start + 1;
        }
    }

    static RingDiff between(HashRing a, HashRing b, int keepRanges) {
        Objects.requireNonNull(a, "from");
        Objects.requireNonNull(b, "to");
        if (keepRanges < 0) {
            throw new IllegalArgumentException("keepRanges must be >= 0: " + keepRanges);
        }
        if (a.isTable() || b.isTable()) {
            return betweenTables(a, b, TableDiff.Method.CHEAPER);
        }
        Walk w = new Walk(a, b, keepRanges);
        w.run();
        int n = w.size;
        return new RingDiff(a.version(), b.version(), w.moved, w.count, sorted(w.flows),
                Arrays.copyOf(w.starts, n), Arrays.copyOf(w.ends, n),
                Arrays.copyOf(w.from, n), Arrays.copyOf(w.to, n), true);
    }

    /** Counts and flows only, when a Maglev table is involved; {@code method} is for tests. */
    static RingDiff betweenTables(HashRing a, HashRing b, TableDiff.Method method) {
        Node[] from = a.members;
        Node[] to = b.members;
        // same[x]: the index in b of a's member x, -1 if b lacks it
        int[] same = new int[from.length];
        for (int x = 0, y = 0; x < from.length; x++) {
            while (y < to.length && to[y].id().compareTo(from[x].id()) < 0) {
                y++;
            }
            same[x] = y < to.length && to[y].id().equals(from[x].id()) ? y : -1;
        }
        // counts by (x + 1, y + 1), index 0 standing for "no node": a matrix while small, else a map
        int width = to.length + 1;
        long cells = (long) (from.length + 1) * width;
        long[] matrix = cells <= (1 << 22) ? new long[(int) cells] : null;
        Map<Long, long[]> sparse = matrix == null ? new HashMap<>() : null;
        long[] moved = new long[1];
        TableDiff.flows(a, b, (x, y, count) -> {
            if (x >= 0 && y >= 0 && same[x] == y) {
                return; // stays
            }
            moved[0] += count;
            long cell = (long) (x + 1) * width + (y + 1);
            if (matrix != null) {
                matrix[(int) cell] += count;
            } else {
                sparse.computeIfAbsent(cell, k -> new long[1])[0] += count;
            }
        }, method);
        List<Flow> flows = new ArrayList<>();
        if (matrix != null) {
            for (int cell = 0; cell < matrix.length; cell++) {
                if (matrix[cell] != 0) {
                    flows.add(flow(from, to, cell, width, matrix[cell]));
                }
            }
        } else {
            sparse.forEach((cell, count) -> flows.add(flow(from, to, cell, width, count[0])));
        }
        flows.sort(FLOW_ORDER);
        return new RingDiff(a.version(), b.version(), moved[0], 0, List.copyOf(flows), new long[0], new long[0],
                new String[0], new String[0], false);
    }

    private static Flow flow(Node[] from, Node[] to, long cell, int width, long count) {
        int x = (int) (cell / width) - 1;
        int y = (int) (cell % width) - 1;
        return new Flow(x < 0 ? null : from[x].id(), y < 0 ? null : to[y].id(), count);
    }

    private static final Comparator<String> IDS = Comparator.nullsFirst(Comparator.naturalOrder());
    /** By count descending, then from, then to (ids byte-wise, null first). */
    private static final Comparator<Flow> FLOW_ORDER = Comparator.comparingLong(Flow::count).reversed()
            .thenComparing(Flow::from, IDS)
            .thenComparing(Flow::to, IDS);

    private static List<Flow> sorted(Map<List<String>, long[]> counts) {
        List<Flow> flows = new ArrayList<>(counts.size());
        for (Map.Entry<List<String>, long[]> e : counts.entrySet()) {
            flows.add(new Flow(e.getKey().get(0), e.getKey().get(1), e.getValue()[0]));
        }
        flows.sort(FLOW_ORDER);
        return List.copyOf(flows);
    }

    private static final class Walk {
        final HashRing a;
        final HashRing b;
        final Map<List<String>, long[]> flows = new HashMap<>();
        final int keep;
        long moved;
        long[] starts = new long[16];
        long[] ends = new long[16];
        String[] from = new String[16];
        String[] to = new String[16];
        int size;
        /** Merged ranges seen, kept or not. */
        int count;
        /** The range being merged into, not yet counted. */
        boolean open;
        long openStart;
        long openEnd;
        String openFrom;
        String openTo;

        Walk(HashRing a, HashRing b, int keep) {
            this.a = a;
            this.b = b;
            this.keep = keep;
        }

        void run() {
            int[] pa = a.points;
            int[] pb = b.points;
            if (pa.length == 0 && pb.length == 0) {
                return;
            }
            String firstA = ownerOrNull(a, 0);
            String firstB = ownerOrNull(b, 0);
            int ia = 0;
            int ib = 0;
            long prev = -1; // end of the last segment visited
            while (ia < pa.length || ib < pb.length) {
                long ua = ia < pa.length ? unsigned(pa[ia]) : Long.MAX_VALUE;
                long ub = ib < pb.length ? unsigned(pb[ib]) : Long.MAX_VALUE;
                long u = Math.min(ua, ub);
                String oa = ia < pa.length ? a.ownerAt(ia) : firstA;
                String ob = ib < pb.length ? b.ownerAt(ib) : firstB;
                segment(prev + 1, u, oa, ob);
                prev = u;
                if (ua == u) {
                    ia++;
                }
                if (ub == u) {
                    ib++;
                }
            }
            if (prev < HashRing.HASH_SPACE - 1) {
                segment(prev + 1, HashRing.HASH_SPACE - 1, firstA, firstB);
            }
            close();
        }

        private static String ownerOrNull(HashRing r, int index) {
            return r.isEmpty() ? null : r.ownerAt(index);
        }

        private static long unsigned(int biased) {
            return Integer.toUnsignedLong(biased ^ Integer.MIN_VALUE);
        }

        private void segment(long start, long end, String oldOwner, String newOwner) {
            if (Objects.equals(oldOwner, newOwner)) {
                return;
            }
            long count = end - start + 1;
            moved += count;
            flows.computeIfAbsent(Arrays.asList(oldOwner, newOwner), k -> new long[1])[0] += count;
            if (open && openEnd + 1 == start && Objects.equals(openFrom, oldOwner)
                    && Objects.equals(openTo, newOwner)) {
                openEnd = end;
                return;
            }
            close();
            open = true;
            openStart = start;
            openEnd = end;
            openFrom = oldOwner;
            openTo = newOwner;
        }

        /** Counts the open range, and keeps it while fewer than {@code keep} are kept. */
        private void close() {
            if (!open) {
                return;
            }
            open = false;
            count++;
            if (size == keep) {
                return;
            }
            if (size == starts.length) {
                int cap = (int) Math.min((long) size * 2, Math.max(keep, 16));
                starts = Arrays.copyOf(starts, cap);
                ends = Arrays.copyOf(ends, cap);
                from = Arrays.copyOf(from, cap);
                to = Arrays.copyOf(to, cap);
            }
            starts[size] = openStart;
            ends[size] = openEnd;
            from[size] = openFrom;
            to[size] = openTo;
            size++;
        }
    }

    /** The version of the ring diffed from. */
    public long fromVersion() {
        return fromVersion;
    }

    /** The version of the ring diffed to. */
    public long toVersion() {
        return toVersion;
    }

    /** Hash values whose owner changes. */
    public long movedCount() {
        return movedCount;
    }

    /** {@code movedCount / 2^32}. */
    public double movedShare() {
        return movedCount / (double) HashRing.HASH_SPACE;
    }

    /** The flows, by count descending, then from, then to. */
    public List<Flow> flows() {
        return flows;
    }

    /** The number of merged moved ranges, whether kept or not; 0 when they are not listed. */
    public int rangeCount() {
        return rangeCount;
    }

    /**
     * Whether the moved ranges are listed: true between two rings, false
     * when either side is a Maglev table (the counts and flows are exact
     * either way, and then there are no ranges to read).
     */
    public boolean rangesListed() {
        return rangesListed;
    }

    /** The number of ranges this diff kept: all of them, or the first {@code keepRanges} asked for. */
    public int keptRangeCount() {
        return starts.length;
    }

    /**
     * The moved range at {@code index}, in ascending order of start.
     *
     * @throws IndexOutOfBoundsException past {@link #keptRangeCount()}
     */
    public Range range(int index) {
        return new Range(starts[index], ends[index], rangeFrom[index], rangeTo[index]);
    }

    /** The first {@code limit} kept moved ranges (all kept when there are fewer). */
    public List<Range> ranges(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be >= 0: " + limit);
        }
        int n = Math.min(limit, starts.length);
        List<Range> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(range(i));
        }
        return out;
    }

    /** Every kept moved range. */
    public List<Range> ranges() {
        return ranges(starts.length);
    }

    @Override
    public String toString() {
        return "RingDiff[v" + fromVersion + " -> v" + toVersion + ", " + movedCount + " moved, "
                + rangeCount + " ranges]";
    }
}
