package io.ringd.ring;

import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Makes rings: from scratch for {@link HashRing#of} and for a new config,
 * and incrementally from the previous version for a batch of changes
 * ({@link IncrementalBuild}), within the node and point limits (docs/ring.md
 * sections 3, 4, 8 and 11), for each placement: {@code "id#i"} points,
 * libketama's points (section 14) and Maglev tables (section 15).
 */
final class RingBuilder {

    /*
     * Design note.
     *
     * Every HashRing is made by snapshot() below (or tableSnapshot() for a
     * Maglev table), through finish(), the only caller of its constructor;
     * snapshot() takes the sorted entries through a PointWriter, which
     * splits them into points, owners and shadowed in one pass. So the
     * invariants the ring's design note lists are established here and
     * nowhere else:
     *   - members ascending by id: of() collects them in a TreeMap,
     *     apply() merges the batch, sorted by id, into the old members
     *     (String.compareTo is byte-wise on the ASCII ids), and a
     *     config change keeps the order it had;
     *   - placed[m] is the number of vnodes member m placed: hash("id#i")
     *     for i = 0 .. k-1 (hashVnodes), so a reweight keeps or drops a
     *     suffix; for ketama, the 4 points of MD5("id-k") for
     *     k = 0 .. ks-1 (Ketama.points), which also only gain or lose a
     *     suffix;
     *   - the entries, every distinct (point, member) pair as
     *     (biasedPoint << 32) | memberIndex, sorted, so a collision group
     *     lists its nodes in ascending id order, are kept in two parts:
     *     the first entry of each point group is the point and its owner
     *     (points[], owners[]), so the smallest id wins a collision, and
     *     the others, the members a collision hid, are shadowed[], sorted
     *     (snapshot). A change merges the two back into one ascending
     *     run as it walks them (IncrementalBuild.merge). Collisions are
     *     rare (about n^2 / 2^33 for n points), so the ring keeps 8 bytes
     *     per point plus its search index, rather than every vnode hash
     *     and every entry (20 bytes per point);
     *   - points strictly ascending (biased, signed order) and
     *     points.length == owners.length;
     *   - at most HashRing.MAX_NODES members and HashRing.MAX_POINTS vnodes:
     *     checkLimits, before anything is hashed, so a refused change leaves
     *     nothing behind. (A Maglev table has no vnodes: its size is bounded
     *     by RingConfig.)
     *
     * Incremental changes (IncrementalBuild). A change hashes only the
     * points a node gains or loses (a new node all of its own, a reweight
     * up its new suffix, a reweight down the suffix it drops, a zone change
     * or a removal none),
     * sorts those, filters the old entries of removed nodes and dropped
     * suffixes out while renumbering member indices, and merges the two
     * sorted runs, dropping a gained point the node already had: linear in
     * the ring's size plus c log c for c changed points. A dropped
     * suffix's entries can be taken out by value only when the node's
     * points were all distinct (its entries number its vnodes); a node
     * that hashed one point twice, which only weak test hashes do, has
     * its remaining points hashed afresh instead. Nothing depends on the
     * order of operations: the entries, and so the ring, are a function of
     * the set of (id, weight) and the config.
     *
     * Ketama. A node's digest count depends on every weight (their sum) and
     * on the node count, so one change can change every node's count. The
     * incremental path needs no special case for it: apply() works out the
     * wanted count of every member of the next version (checkLimits, through
     * Ketama.pointCounts), and IncrementalBuild treats each member whose
     * count changed as changed, keeping the prefix of points it had and
     * digesting only the new ones. When every
     * count moves (a node joins a ring of equal weights and a float rounding
     * tips some counts from 40 to 39 or back), that is a rebuild of those
     * members' entries, still exact, still no more digests than needed.
     *
     * Maglev. A table depends on every member, so each version fills its
     * table afresh (Maglev.fill, about 1.5 ms for 100 nodes at
     * M = 65537); what carries over is each kept member's offset and skip,
     * so a change hashes only the members it adds (Maglev.permutations).
     */

    private static final int[] NO_INTS = new int[0];
    private static final long[] NO_LONGS = new long[0];

    private RingBuilder() {
    }

    /** The empty ring at version 0. */
    static HashRing empty(RingConfig config) {
        Objects.requireNonNull(config, "config");
        if (config.algorithm() == RingConfig.Algorithm.MAGLEV) {
            return tableSnapshot(config, 0, new Node[0], NO_INTS, NO_INTS);
        }
        return snapshot(config, 0, new Node[0], NO_INTS, NO_LONGS, 0);
    }

    /** A ring of {@code nodes} at {@code version}, every point hashed afresh. */
    static HashRing of(RingConfig config, long version, Collection<Node> nodes) {
        Objects.requireNonNull(config, "config");
        if (version < 0) {
            throw new IllegalArgumentException("version must be >= 0: " + version);
        }
        TreeMap<String, Node> byId = new TreeMap<>();
        for (Node n : nodes) {
            if (byId.put(n.id(), n) != null) {
                throw new IllegalArgumentException("node id appears twice: " + n.id());
            }
        }
        Node[] members = byId.values().toArray(new Node[0]);
        int[] want = checkLimits(config, members);
        if (config.algorithm() == RingConfig.Algorithm.MAGLEV) {
            return maglev(config, version, members, null);
        }
        int[][] placed = new int[members.length][];
        int[] all = new int[members.length];
        for (int m = 0; m < members.length; m++) {
            placed[m] = placePoints(config, members[m].placementKey(), 0, want[m]);
            all[m] = m;
        }
        long[] entries = entriesOf(all, placed, members.length);
        return snapshot(config, version, members, want, entries, entries.length);
    }

    /** {@code ring} with a batch of changes applied, one version later; {@code ring} itself when nothing changes. */
    static HashRing apply(HashRing ring, List<? extends Change> changes) {
        Objects.requireNonNull(changes, "changes");
        Set<String> seen = new HashSet<>();
        for (Change c : changes) {
            Objects.requireNonNull(c, "change");
            if (!seen.add(c.id())) {
                throw new RingException.InvalidBatch("node id appears twice in one batch: " + c.id(), c.id());
            }
        }
        for (Change c : changes) { // in the batch's order, so the first unknown id is the one reported
            if (c instanceof Change.Remove r && !ring.contains(r.id())) {
                throw new RingException.UnknownNode(r.id());
            }
        }
        // The members stay ascending by id: the changes, sorted, are merged into them.
        Change[] sorted = changes.toArray(new Change[0]);
        Arrays.sort(sorted, Comparator.comparing(Change::id));
        Node[] old = ring.members;
        Node[] next = new Node[old.length + sorted.length];
        int n = 0;
        int o = 0;
        boolean changed = false;
        for (Change c : sorted) {
            while (o < old.length && old[o].id().compareTo(c.id()) < 0) {
                next[n++] = old[o++];
            }
            boolean present = o < old.length && old[o].id().equals(c.id());
            if (c instanceof Change.Put p) {
                changed |= !present || !old[o].sameAs(p.node());
                next[n++] = p.node();
            } else {
                changed = true; // a removal: present, checked above
            }
            if (present) {
                o++;
            }
        }
        if (!changed) {
            return ring;
        }
        while (o < old.length) {
            next[n++] = old[o++];
        }
        Node[] members = n == next.length ? next : Arrays.copyOf(next, n);
        int[] want = checkLimits(ring.config(), members);
        if (ring.config().algorithm() == RingConfig.Algorithm.MAGLEV) {
            return maglev(ring.config(), ring.version() + 1, members, ring);
        }
        return IncrementalBuild.rebuild(ring, members, want);
    }

    /** {@code ring}'s membership under {@code newConfig}, one version later; {@code ring} itself for the same config. */
    static HashRing withConfig(HashRing ring, RingConfig newConfig) {
        Objects.requireNonNull(newConfig, "config");
        if (newConfig.equals(ring.config())) {
            return ring;
        }
        List<Node> members = Arrays.asList(ring.members);
        return of(newConfig, ring.version() + 1, members);
    }

    /** A Maglev table of {@code members}, reusing the permutations {@code previous} (or null) knows. */
    private static HashRing maglev(RingConfig config, long version, Node[] members, HashRing previous) {
        int size = config.maglevTableSize();
        int[] perm = Maglev.permutations(members, size, previous);
        return tableSnapshot(config, version, members, perm, Maglev.fill(members, perm, size));
    }

    /**
     * Points {@code from .. want-1} of the node placed by {@code id} (its placement string, the
     * hashKey or the id) under {@code config}, in index order.
     */
    static int[] placePoints(RingConfig config, String id, int from, int want) {
        return config.algorithm() == RingConfig.Algorithm.KETAMA
                ? Ketama.points(id, from, want)
                : hashVnodes(config.hash(), id, from, want);
    }

    /** hash("id#i") for {@code from <= i < want}. */
    private static int[] hashVnodes(KeyHash hash, String id, int from, int want) {
        int[] out = new int[want - from];
        StringBuilder label = new StringBuilder(id.length() + 8).append(id).append('#');
        int prefix = label.length();
        for (int i = from; i < want; i++) {
            label.setLength(prefix);
            out[i - from] = hash.hash(label.append(i).toString());
        }
        return out;
    }

    /** Sorted, distinct entries of members {@code which[k]} placing {@code points[k]}, for k < count. */
    static long[] entriesOf(int[] which, int[][] points, int count) {
        int total = 0;
        for (int k = 0; k < count; k++) {
            total += points[k].length;
        }
        long[] out = new long[total];
        int w = 0;
        for (int k = 0; k < count; k++) {
            int m = which[k];
            for (int p : points[k]) {
                out[w++] = ((long) (p ^ HashRing.BIAS) << 32) | m;
            }
        }
        Arrays.sort(out);
        int d = 0;
        for (int i = 0; i < out.length; i++) {
            if (i == 0 || out[i] != out[d - 1]) {
                out[d++] = out[i];
            }
        }
        return d == out.length ? out : Arrays.copyOf(out, d);
    }

    /**
     * Refuses two members placed by the same string (a hashKey equal to another's, or to another
     * member's id when that one has none): they would place the very same points.
     */
    private static void checkPlacementKeys(Node[] nodes) {
        boolean any = false;
        for (Node n : nodes) {
            any |= n.hashKey() != null;
        }
        if (!any) {
            return; // ids are distinct
        }
        Map<String, String> byKey = new HashMap<>(nodes.length * 2);
        for (Node n : nodes) {
            String other = byKey.put(n.placementKey(), n.id());
            if (other != null) {
                Node hashed = n.hashKey() != null ? n : byId(nodes, other);
                throw new RingException.DuplicatePlacement(n.id(), other, hashed.id(), n.placementKey());
            }
        }
    }

    private static Node byId(Node[] nodes, String id) {
        for (Node n : nodes) {
            if (n.id().equals(id)) {
                return n;
            }
        }
        throw new IllegalStateException("not a member: " + id);
    }

    /**
     * Refuses more than the node or point limit allows, and answers the
     * points each member places (null for a Maglev table, which has none).
     */
    private static int[] checkLimits(RingConfig config, Node[] nodes) {
        if (nodes.length > HashRing.MAX_NODES) {
            throw new RingException.LimitExceeded(
                    "the ring may hold at most " + HashRing.MAX_NODES + " nodes: " + nodes.length);
        }
        checkPlacementKeys(nodes);
        if (config.algorithm() == RingConfig.Algorithm.MAGLEV) {
            return null;
        }
        long[] counts = new long[nodes.length];
        if (config.algorithm() == RingConfig.Algorithm.KETAMA) {
            int[] ketama = Ketama.pointCounts(nodes, config.ketamaFlavor());
            for (int m = 0; m < nodes.length; m++) {
                counts[m] = ketama[m];
            }
        } else {
            for (int m = 0; m < nodes.length; m++) {
                counts[m] = nodes[m].pointCount(config.vnodesPerWeight());
            }
        }
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        if (total > HashRing.MAX_POINTS) {
            throw new RingException.LimitExceeded(
                    "the ring may hold at most " + HashRing.MAX_POINTS + " points: " + total);
        }
        int[] want = new int[nodes.length];
        for (int m = 0; m < nodes.length; m++) {
            want[m] = (int) counts[m]; // each at most the total, so it fits
        }
        return want;
    }

    /**
     * The ring itself from its members, the vnodes each placed and the
     * sorted entries {@code entries[0 .. length)}: the first entry of each
     * point group becomes the point and its owner (the smallest id wins),
     * the others are kept as shadowed, and the zone classes and counts the
     * preference walks need are worked out once here.
     */
    private static HashRing snapshot(RingConfig config, long version, Node[] members, int[] placed,
            long[] entries, int length) {
        PointWriter out = new PointWriter(length, members.length);
        for (int i = 0; i < length; i++) {
            out.add(entries[i]);
        }
        return snapshot(config, version, members, placed, out);
    }

    /** The ring whose sorted entries {@code out} was given. */
    static HashRing snapshot(RingConfig config, long version, Node[] members, int[] placed,
            PointWriter out) {
        long vnodeCount = 0;
        for (int v : placed) {
            vnodeCount += v;
        }
        int n = out.count;
        int[] points = n == out.points.length ? out.points : Arrays.copyOf(out.points, n);
        int[] owners = n == out.owners.length ? out.owners : Arrays.copyOf(out.owners, n);
        long[] shadowed = out.shadowedCount == 0 ? NO_LONGS : Arrays.copyOf(out.shadowed, out.shadowedCount);
        return finish(config, version, members, placed, shadowed, vnodeCount, points, owners, out.index(), out.owns,
                0, null);
    }

    /**
     * A Maglev snapshot: {@code table[e]} is the member of entry e (empty
     * without members), {@code perm} each member's offset and skip.
     */
    private static HashRing tableSnapshot(RingConfig config, long version, Node[] members, int[] perm, int[] table) {
        boolean[] owns = new boolean[members.length];
        for (int m : table) {
            owns[m] = true;
        }
        return finish(config, version, members, new int[members.length], NO_LONGS, table.length, NO_INTS, table,
                null, owns, table.length, perm);
    }

    /** Works out the zone classes and counts the preference walks need, and makes the snapshot. */
    private static HashRing finish(RingConfig config, long version, Node[] members, int[] placed, long[] shadowed,
            long vnodeCount, int[] points, int[] owners, int[] index, boolean[] owns, int tableSize, int[] perm) {
        // Zone classes: members of one zone share a class; each zoneless member has its own.
        Map<String, Integer> zoneIds = new HashMap<>();
        int[] zoneClass = new int[members.length];
        int next = 0;
        for (int m = 0; m < members.length; m++) {
            String zone = members[m].zone();
            if (zone == null) {
                zoneClass[m] = next++;
            } else {
                Integer known = zoneIds.get(zone);
                if (known == null) {
                    known = next++;
                    zoneIds.put(zone, known);
                }
                zoneClass[m] = known;
            }
        }
        int owningCount = 0;
        int owningZoneCount = 0;
        boolean[] zoneOwns = new boolean[next]; // zone classes are 0 .. next-1
        for (int m = 0; m < members.length; m++) {
            if (owns[m]) {
                owningCount++;
                if (!zoneOwns[zoneClass[m]]) {
                    zoneOwns[zoneClass[m]] = true;
                    owningZoneCount++;
                }
            }
        }
        return new HashRing(config, version, members, placed, shadowed, vnodeCount, points, owners, index,
                owningCount, zoneClass, owningZoneCount, tableSize, perm);
    }
}
