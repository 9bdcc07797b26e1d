package io.ringd.ring;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The exact difference between two rings: how many hash values change
 * owner, the from->to flows, and the moved ranges.
 *
 * <p>Ranges are inclusive {@code [start, end]}, sorted by start, never
 * wrapping (an arc across 0 is two ranges), and adjacent ranges with the same
 * old and new owner are merged. From or to an empty ring, the owner on the
 * empty side is {@code null}. A diff keeps every range and flow, or only the
 * first few of each asked for (the counts are always whole), and may be
 * limited to the flows and ranges from or to one node.
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
     *
     * Memory stays bounded by what is kept, not by what moves. Owners are
     * member indices (+1, 0 standing for no node), so a flow is a pair of
     * 14-bit numbers (MAX_NODES < 2^14) and a count of at most 2^32 (33
     * bits). Between two rings one pair can be met on many segments: the
     * segments' (pair << 33 | count) longs are gathered in one array that is
     * sorted and summed in place whenever it fills (DiffFlows.Sums), so it
     * holds about the distinct pairs, never a map of strings. TableDiff hands
     * each pair over once, already summed, so those flows stream straight
     * into the selection. The selection (DiffFlows.Kept) counts every flow
     * and keeps the first keepFlows of the order in a bounded max-heap of
     * longs whose ascending order is the flow order: (2^33-1 - count) << 28
     * | from << 14 | to (ids are ascending with the member index, and null
     * is 0, so first).
     *
     * With a node, only the segments from or to it count (moved count,
     * ranges, flows): its flows are summed in two arrays indexed by the
     * other owner, so no pairs are gathered at all.
     */

    private final long fromVersion;
    private final long toVersion;
    private final String node;
    private final long movedCount;
    private final int rangeCount;
    private final int flowCount;
    private final List<Flow> flows;
    private final long[] starts;
    private final long[] ends;
    private final String[] rangeFrom;
    private final String[] rangeTo;
    private final boolean rangesListed;

    private RingDiff(long fromVersion, long toVersion, String node, long movedCount, int rangeCount,
            int flowCount, List<Flow> flows, long[] starts, long[] ends, String[] rangeFrom, String[] rangeTo,
            boolean rangesListed) {
        this.fromVersion = fromVersion;
        this.toVersion = toVersion;
        this.node = node;
        this.movedCount = movedCount;
        this.rangeCount = rangeCount;
        this.flowCount = flowCount;
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

    static RingDiff between(HashRing a, HashRing b, int keepRanges, int keepFlows, String node) {
        Objects.requireNonNull(a, "from");
        Objects.requireNonNull(b, "to");
        if (keepRanges < 0) {
            throw new IllegalArgumentException("keepRanges must be >= 0: " + keepRanges);
        }
        if (keepFlows < 0) {
            throw new IllegalArgumentException("keepFlows must be >= 0: " + keepFlows);
        }
        if (node != null) {
            Node.checkId(node);
        }
        if (a.isTable() || b.isTable()) {
            return betweenTables(a, b, TableDiff.Method.CHEAPER, keepFlows, node);
        }
        Walk w = new Walk(a, b, keepRanges, keepFlows, node);
        w.run();
        int n = w.size;
        return new RingDiff(a.version(), b.version(), node, w.moved, w.count, w.flows.count(),
                w.flows.kept(a.ids, b.ids), Arrays.copyOf(w.starts, n), Arrays.copyOf(w.ends, n),
                Arrays.copyOf(w.from, n), Arrays.copyOf(w.to, n), true);
    }

    /** Every flow and no ranges; {@code method} is for tests. */
    static RingDiff betweenTables(HashRing a, HashRing b, TableDiff.Method method) {
        return betweenTables(a, b, method, Integer.MAX_VALUE, null);
    }

    /** Counts and flows only, when a Maglev table is involved; {@code method} is for tests. */
    static RingDiff betweenTables(HashRing a, HashRing b, TableDiff.Method method, int keepFlows, String node) {
        int[] same = sameMembers(a, b);
        int onlyFrom = node == null ? -1 : a.memberIndex(node);
        int onlyTo = node == null ? -1 : b.memberIndex(node);
        DiffFlows.Kept flows = new DiffFlows.Kept(keepFlows);
        long[] moved = new long[1];
        TableDiff.flows(a, b, (x, y, count) -> {
            if (x >= 0 && y >= 0 && same[x] == y) {
                return; // stays
            }
            if (node != null && !(onlyFrom >= 0 && x == onlyFrom) && !(onlyTo >= 0 && y == onlyTo)) {
                return; // neither from nor to the node
            }
            moved[0] += count;
            flows.add(x + 1, y + 1, count); // TableDiff hands each pair over once
        }, method);
        return new RingDiff(a.version(), b.version(), node, moved[0], 0, flows.count(), flows.kept(a.ids, b.ids),
                new long[0], new long[0], new String[0], new String[0], false);
    }

    /** same[x]: the index in b of a's member x, -1 if b lacks it. */
    private static int[] sameMembers(HashRing a, HashRing b) {
        Node[] from = a.members;
        Node[] to = b.members;
        int[] same = new int[from.length];
        for (int x = 0, y = 0; x < from.length; x++) {
            while (y < to.length && to[y].id().compareTo(from[x].id()) < 0) {
                y++;
            }
            same[x] = y < to.length && to[y].id().equals(from[x].id()) ? y : -1;
        }
        return same;
    }

    private static final class Walk {
        final HashRing a;
        final HashRing b;
        final int[] same;
        final int keep;
        /** With a node: its owner number in a and in b (-1: not a member), and its flows by the other owner. */
        final boolean onlyNode;
        final int nodeFrom;
        final int nodeTo;
        final long[] fromNode;
        final long[] toNode;
        final DiffFlows.Sums sums;
        final DiffFlows.Kept flows;
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
        int openFrom;
        int openTo;

        Walk(HashRing a, HashRing b, int keep, int keepFlows, String node) {
            this.a = a;
            this.b = b;
            this.same = sameMembers(a, b);
            this.keep = keep;
            this.flows = new DiffFlows.Kept(keepFlows);
            this.onlyNode = node != null;
            if (onlyNode) {
                int x = a.memberIndex(node);
                int y = b.memberIndex(node);
                nodeFrom = x < 0 ? -1 : x + 1;
                nodeTo = y < 0 ? -1 : y + 1;
                fromNode = new long[b.members.length + 1];
                toNode = new long[a.members.length + 1];
                sums = null;
            } else {
                nodeFrom = -1;
                nodeTo = -1;
                fromNode = null;
                toNode = null;
                sums = new DiffFlows.Sums();
            }
        }

        void run() {
            int[] pa = a.points;
            int[] pb = b.points;
            if (pa.length == 0 && pb.length == 0) {
                return;
            }
            int firstA = pa.length == 0 ? 0 : a.owners[0] + 1;
            int firstB = pb.length == 0 ? 0 : b.owners[0] + 1;
            int ia = 0;
            int ib = 0;
            long prev = -1; // end of the last segment visited
            while (ia < pa.length || ib < pb.length) {
                long ua = ia < pa.length ? unsigned(pa[ia]) : Long.MAX_VALUE;
                long ub = ib < pb.length ? unsigned(pb[ib]) : Long.MAX_VALUE;
                long u = Math.min(ua, ub);
                int oa = ia < pa.length ? a.owners[ia] + 1 : firstA;
                int ob = ib < pb.length ? b.owners[ib] + 1 : firstB;
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
            if (onlyNode) {
                for (int y = 0; y < fromNode.length; y++) {
                    if (fromNode[y] != 0) {
                        flows.add(nodeFrom, y, fromNode[y]);
                    }
                }
                for (int x = 0; x < toNode.length; x++) {
                    if (toNode[x] != 0) {
                        flows.add(x, nodeTo, toNode[x]);
                    }
                }
            } else {
                sums.drainTo(flows);
            }
        }

        private static long unsigned(int biased) {
            return Integer.toUnsignedLong(biased ^ Integer.MIN_VALUE);
        }

        /** The values start .. end, owned by {@code oldOwner} in a and {@code newOwner} in b (numbered from 1). */
        private void segment(long start, long end, int oldOwner, int newOwner) {
            if (oldOwner != 0 && newOwner != 0 && same[oldOwner - 1] == newOwner - 1) {
                return;
            }
            long values = end - start + 1;
            if (onlyNode) {
                if (oldOwner == nodeFrom) {
                    fromNode[newOwner] += values;
                } else if (newOwner == nodeTo) {
                    toNode[oldOwner] += values;
                } else {
                    return;
                }
            } else {
                sums.add(oldOwner, newOwner, values);
            }
            moved += values;
            if (open && openEnd + 1 == start && openFrom == oldOwner && openTo == newOwner) {
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
            from[size] = openFrom == 0 ? null : a.ids[openFrom - 1];
            to[size] = openTo == 0 ? null : b.ids[openTo - 1];
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

    /**
     * The node this diff was limited to ({@code null}: every node): then its
     * counts, flows and ranges are only those from or to it.
     */
    public String node() {
        return node;
    }

    /**
     * The kept flows, by count descending, then from, then to: every flow,
     * or the first {@code keepFlows} asked for.
     */
    public List<Flow> flows() {
        return flows;
    }

    /** The number of flows, whether kept or not. */
    public int flowCount() {
        return flowCount;
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
        return "RingDiff[v" + fromVersion + " -> v" + toVersion + (node == null ? "" : " of " + node) + ", "
                + movedCount + " moved, " + flowCount + " flows, " + rangeCount + " ranges]";
    }
}
