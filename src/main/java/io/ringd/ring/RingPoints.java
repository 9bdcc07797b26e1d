package io.ringd.ring;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a ring's points sit and what each one owns, for explaining a lookup
 * and for drawing the ring: the point that owns a hash value with its vnode
 * label and arc, every point of a small ring, or an exact per-slice summary
 * of a large one; for a Maglev table, the entry of a hash value and the
 * table's entries.
 *
 * <p>Vnode labels: on a {@link RingConfig.Algorithm#RING} ring, point
 * {@code hash("X#i")} is labelled {@code X#i}; when several of a node's
 * labels hash to the same point, the smallest {@code i}. On a ketama ring,
 * point {@code j} (0 to 3) of the digest {@code MD5("X-k")} is labelled
 * {@code X-k[j]}, the smallest {@code (k, j)} likewise. Collisions between
 * nodes leave the point to the smallest id (docs/ring.md), whose label it
 * carries.
 *
 * <p>Everything here reads the ring through its public accessors (and
 * recomputes labels with the ring's hash); none of it is on the lookup
 * path. Labelling one point hashes up to that node's point count of labels;
 * listing points hashes every vnode once.
 */
public final class RingPoints {

    /** The most points (or Maglev entries) {@link #points(HashRing)} and {@link #entries(HashRing)} list. */
    public static final int MAX_LISTED = 20_000;
    /** The slices of {@link #slices(HashRing, int, int)} when a ring is too large to list. */
    public static final int DEFAULT_SLICES = 720;

    private RingPoints() {
    }

    /** A ring point: its hash, its owner and its vnode label. */
    public record Point(long hash, String node, String vnode) {
    }

    /**
     * The point that owns a hash value, and its arc: the hash values from
     * {@code start} to {@code end} inclusive, wrapping past {@code 2^32-1}
     * when {@code start > end}; {@code count} of them (up to {@code 2^32},
     * when the ring has one point). {@code end} is the point itself and
     * {@code start} one past the previous point (docs/ring.md, ownership).
     */
    public record PointOwner(int index, long point, String node, String vnode, long start, long end, long count) {
    }

    /**
     * The Maglev entry that owns a hash value: entry {@code hash mod M}, which
     * holds the hash values {@code entry, entry + M, entry + 2M, ...}, {@code count}
     * of them, the last being {@code last}.
     */
    public record TableEntry(int entry, int tableSize, String node, long first, long last, long count) {
    }

    /**
     * One of equal slices of the hash space (or of a Maglev table's entries),
     * {@code start} to {@code end} inclusive: the largest owners in it by
     * count (descending, then by id) and what the others own together.
     */
    public record Slice(long start, long end, List<Share> owners, long othersCount, int othersNodes) {
    }

    /** How much of a slice a node owns: hash values of a ring, entries of a Maglev table. */
    public record Share(String node, long count) {
    }

    // ---------------------------------------------------------------- one hash value

    /**
     * The point of {@code ring} that owns {@code hash}, with its label and arc.
     *
     * @throws RingException.NoNodes on an empty ring
     * @throws UnsupportedOperationException for a Maglev table: see {@link #entryOf(HashRing, long)}
     * @throws IllegalArgumentException for a hash outside {@code 0 .. 2^32-1}
     */
    public static PointOwner ownerOf(HashRing ring, long hash) {
        return ownerOf(ring, hash, VnodeLabels::label);
    }

    /**
     * Names the vnode of a node's point: {@link VnodeLabels#label(HashRing, String, long)}
     * hashes the node's labels until one lands there; {@link VnodeLabels}
     * finds it in labels hashed once.
     */
    @FunctionalInterface
    public interface Labeller {
        /** The label of {@code node}'s point {@code point} in {@code ring}. */
        String label(HashRing ring, String node, long point);
    }

    /**
     * {@link #ownerOf(HashRing, long)}, with the point's label from {@code labeller}.
     *
     * @throws RingException.NoNodes on an empty ring
     * @throws UnsupportedOperationException for a Maglev table: see {@link #entryOf(HashRing, long)}
     * @throws IllegalArgumentException for a hash outside {@code 0 .. 2^32-1}
     */
    public static PointOwner ownerOf(HashRing ring, long hash, Labeller labeller) {
        if (ring.isTable()) {
            throw new UnsupportedOperationException("a Maglev table has entries, not points: use entryOf");
        }
        checkHash(hash);
        int n = ring.pointCount();
        if (n == 0) {
            throw new RingException.NoNodes();
        }
        int i = lowerBound(ring, hash);
        long point = ring.pointAt(i);
        long previous = ring.pointAt(i == 0 ? n - 1 : i - 1);
        long start = (previous + 1) & 0xFFFF_FFFFL;
        long count = n == 1 ? HashRing.HASH_SPACE : ((point - previous) & 0xFFFF_FFFFL);
        String node = ring.ownerAt(i);
        return new PointOwner(i, point, node, labeller.label(ring, node, point), start, point, count);
    }

    /**
     * The Maglev entry of {@code ring} that owns {@code hash}.
     *
     * @throws RingException.NoNodes on an empty table
     * @throws UnsupportedOperationException for a ring: see {@link #ownerOf(HashRing, long)}
     */
    public static TableEntry entryOf(HashRing ring, long hash) {
        checkHash(hash);
        if (!ring.isTable()) {
            if (ring.isEmpty()) {
                throw new RingException.NoNodes();
            }
            throw new UnsupportedOperationException("a ring has points, not entries: use ownerOf");
        }
        int m = ring.pointCount();
        int entry = (int) (hash % m);
        long count = (HashRing.HASH_SPACE - 1 - entry) / m + 1;
        return new TableEntry(entry, m, ring.ownerAt(entry), entry, entry + (count - 1) * m, count);
    }

    /** Index of the first point at or after {@code hash}, wrapping to 0, through the public accessors. */
    private static int lowerBound(HashRing ring, long hash) {
        int lo = 0;
        int hi = ring.pointCount();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ring.pointAt(mid) < hash) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo == ring.pointCount() ? 0 : lo;
    }

    private static void checkHash(long hash) {
        if (hash < 0 || hash >= HashRing.HASH_SPACE) {
            throw new IllegalArgumentException("hash must be in [0, 4294967295]: " + hash);
        }
    }

    // ---------------------------------------------------------------- the whole ring

    /**
     * Every point of a ring, ascending, with its owner and label.
     *
     * @throws UnsupportedOperationException for a Maglev table
     * @throws IllegalArgumentException when the ring has more than {@link #MAX_LISTED} points
     */
    public static List<Point> points(HashRing ring) {
        if (ring.isTable()) {
            throw new UnsupportedOperationException("a Maglev table has entries, not points: use entries");
        }
        int n = ring.pointCount();
        if (n > MAX_LISTED) {
            throw new IllegalArgumentException("more than " + MAX_LISTED + " points: " + n + "; use slices");
        }
        // Members ascending by id, each vnode ascending: the first label seen for a hash is the owner's
        // smallest, since a collision between nodes leaves the point to the smallest id.
        Map<Long, String> labels = new HashMap<>(Math.max(16, n * 2));
        RingConfig config = ring.config();
        List<Node> members = ring.nodes();
        int[] ketamaPoints = config.algorithm() == RingConfig.Algorithm.KETAMA
                ? Ketama.pointCounts(members.toArray(new Node[0]), config.ketamaFlavor()) : new int[members.size()];
        for (int m = 0; m < members.size(); m++) {
            String id = members.get(m).placementKey();
            VnodeLabels.forEachVnode(config, members.get(m), ketamaPoints[m], (hash, i) -> {
                labels.computeIfAbsent(hash, h -> VnodeLabels.vnodeLabel(config, id, i));
                return true;
            });
        }
        List<Point> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long p = ring.pointAt(i);
            out.add(new Point(p, ring.ownerAt(i), labels.get(p)));
        }
        return out;
    }

    /**
     * The owner of every entry of a Maglev table, in entry order.
     *
     * @throws UnsupportedOperationException for a ring
     * @throws IllegalArgumentException when the table has more than {@link #MAX_LISTED} entries
     */
    public static List<String> entries(HashRing ring) {
        if (!ring.isTable()) {
            throw new UnsupportedOperationException("a ring has points, not entries: use points");
        }
        int m = ring.pointCount();
        if (m > MAX_LISTED) {
            throw new IllegalArgumentException("more than " + MAX_LISTED + " entries: " + m + "; use slices");
        }
        List<String> out = new ArrayList<>(m);
        for (int e = 0; e < m; e++) {
            out.add(ring.ownerAt(e));
        }
        return out;
    }

    /**
     * An exact summary of who owns what, in {@code slices} equal slices: of
     * the hash space for a ring (slice {@code s} holds the hash values
     * {@code floor(s * 2^32 / slices)} to {@code floor((s + 1) * 2^32 / slices) - 1},
     * counted in hash values), or of the entries for a Maglev table (the
     * same with {@code M} in place of {@code 2^32}, counted in entries). Each
     * slice names at most {@code top} owners; the counts of every slice add
     * up to its size. An empty ring has no slices.
     *
     * @throws IllegalArgumentException unless {@code 1 <= slices <= 100000} and {@code top >= 1}
     */
    public static List<Slice> slices(HashRing ring, int slices, int top) {
        if (slices < 1 || slices > 100_000 || top < 1) {
            throw new IllegalArgumentException("slices must be in [1, 100000] and top at least 1");
        }
        if (ring.isEmpty()) {
            return List.of();
        }
        boolean table = ring.isTable();
        long size = table ? ring.pointCount() : HashRing.HASH_SPACE;
        int count = (int) Math.min(slices, size);
        List<Map<String, Long>> owners = new ArrayList<>(count);
        for (int s = 0; s < count; s++) {
            owners.add(new HashMap<>());
        }
        if (table) {
            for (int e = 0; e < size; e++) {
                owners.get(sliceOf(e, size, count)).merge(ring.ownerAt(e), 1L, Long::sum);
            }
        } else {
            // The arcs in order: the wrap arc's tail past the last point belongs to point 0.
            int n = ring.pointCount();
            long from = 0;
            for (int i = 0; i <= n; i++) {
                long end = i < n ? ring.pointAt(i) : HashRing.HASH_SPACE - 1;
                String node = ring.ownerAt(i < n ? i : 0);
                addArc(owners, node, from, end, size, count);
                from = end + 1;
                if (from >= HashRing.HASH_SPACE) {
                    break;
                }
            }
        }
        List<Slice> out = new ArrayList<>(count);
        for (int s = 0; s < count; s++) {
            List<Share> shares = new ArrayList<>();
            owners.get(s).forEach((node, c) -> shares.add(new Share(node, c)));
            shares.sort(Comparator.comparingLong(Share::count).reversed().thenComparing(Share::node));
            long others = 0;
            for (int k = top; k < shares.size(); k++) {
                others += shares.get(k).count();
            }
            int othersNodes = Math.max(0, shares.size() - top);
            out.add(new Slice(sliceStart(s, size, count), sliceStart(s + 1, size, count) - 1,
                    List.copyOf(shares.subList(0, Math.min(top, shares.size()))), others, othersNodes));
        }
        return out;
    }

    /** Adds the values {@code from .. end} (inclusive, {@code from <= end}) to the slices they fall in. */
    private static void addArc(List<Map<String, Long>> owners, String node, long from, long end, long size,
            int count) {
        if (from > end) {
            return;
        }
        int s = sliceOf(from, size, count);
        long v = from;
        while (v <= end) {
            long sliceEnd = sliceStart(s + 1, size, count) - 1;
            long upTo = Math.min(end, sliceEnd);
            owners.get(s).merge(node, upTo - v + 1, Long::sum);
            v = upTo + 1;
            s++;
        }
    }

    /** The first value of slice {@code s}: {@code floor(s * size / count)}. */
    static long sliceStart(int s, long size, int count) {
        return s * size / count; // s <= 100000 and size <= 2^32: no overflow
    }

    /** The slice that holds value {@code v}: the largest {@code s} with {@code sliceStart(s) <= v}. */
    static int sliceOf(long v, long size, int count) {
        int s = (int) ((v * count) / size); // v < 2^32 and count <= 100000: no overflow
        while (s + 1 < count && sliceStart(s + 1, size, count) <= v) {
            s++;
        }
        while (s > 0 && sliceStart(s, size, count) > v) {
            s--;
        }
        return s;
    }
}
