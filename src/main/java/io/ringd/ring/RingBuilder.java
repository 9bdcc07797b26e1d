package io.ringd.ring;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Makes rings: from scratch for {@link HashRing#of}, and incrementally from
 * the previous version for a batch of changes or a new config, within the
 * node and point limits (docs/ring.md sections 3, 4, 8 and 11).
 */
final class RingBuilder {

    /*
     * Design note.
     *
     * Every HashRing is made by snapshot() below, the only caller of its
     * constructor, so the invariants the ring's design note lists are
     * established here and nowhere else:
     *   - members ascending by id: of() and apply() collect them in a
     *     TreeMap (String.compareTo is byte-wise on the ASCII ids), and a
     *     config change keeps the order it had;
     *   - vnodes[m] holds hash("id#i") of member m for i = 0 .. k-1, in index
     *     order (hashVnodes), so a reweight keeps or drops a suffix;
     *   - entries holds every distinct (point, member) pair, sorted, as
     *     (biasedPoint << 32) | memberIndex (entriesOf, and the merge in
     *     rebuild), so a collision group lists its nodes in ascending id
     *     order;
     *   - points strictly ascending (biased, signed order) and
     *     points.length == owners.length: snapshot() keeps the first entry
     *     of each point group, so the smallest id wins a collision;
     *   - at most HashRing.MAX_NODES members and HashRing.MAX_POINTS vnodes:
     *     checkLimits, before anything is hashed, so a refused change leaves
     *     nothing behind.
     *
     * Incremental changes. A change hashes only the points a node gains
     * (a new node all of its own, a reweight up its new suffix, a reweight
     * down, a zone change or a removal none), sorts those, filters the old
     * entries of the changed nodes out while renumbering member indices,
     * and merges the two sorted runs: linear in the ring's size plus
     * c log c for c changed points. Nothing depends on the order of
     * operations: the entries, and so the ring, are a function of the set of
     * (id, weight) and the config.
     */

    private static final int[] NO_INTS = new int[0];
    private static final long[] NO_LONGS = new long[0];

    private RingBuilder() {
    }

    /** The empty ring at version 0. */
    static HashRing empty(RingConfig config) {
        Objects.requireNonNull(config, "config");
        return snapshot(config, 0, new Node[0], new int[0][], NO_LONGS);
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
        checkLimits(byId.values(), config.vnodesPerWeight());
        Node[] members = byId.values().toArray(new Node[0]);
        int[][] vnodes = new int[members.length][];
        for (int m = 0; m < members.length; m++) {
            vnodes[m] = hashVnodes(config.hash(), members[m].id(), NO_INTS,
                    (int) members[m].pointCount(config.vnodesPerWeight()));
        }
        int[] all = new int[members.length];
        for (int m = 0; m < members.length; m++) {
            all[m] = m;
        }
        long[] entries = entriesOf(vnodes, all);
        return snapshot(config, version, members, vnodes, entries);
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
        TreeMap<String, Node> next = new TreeMap<>();
        for (Node n : ring.memberArray()) {
            next.put(n.id(), n);
        }
        boolean changed = false;
        for (Change c : changes) {
            if (c instanceof Change.Remove r) {
                if (next.remove(r.id()) == null) {
                    throw new RingException.UnknownNode(r.id());
                }
                changed = true;
            } else {
                Node n = ((Change.Put) c).node();
                Node old = next.put(n.id(), n);
                changed |= old == null || !old.sameAs(n);
            }
        }
        if (!changed) {
            return ring;
        }
        checkLimits(next.values(), ring.config().vnodesPerWeight());
        return rebuild(ring, next.values().toArray(new Node[0]));
    }

    /** {@code ring}'s membership under {@code newConfig}, one version later; {@code ring} itself for the same config. */
    static HashRing withConfig(HashRing ring, RingConfig newConfig) {
        Objects.requireNonNull(newConfig, "config");
        if (newConfig.equals(ring.config())) {
            return ring;
        }
        List<Node> members = Arrays.asList(ring.memberArray());
        checkLimits(members, newConfig.vnodesPerWeight());
        return of(newConfig, ring.version() + 1, members);
    }

    /** The next version of {@code ring} with members {@code next} (ascending by id), reusing every unchanged vnode. */
    private static HashRing rebuild(HashRing ring, Node[] next) {
        RingConfig config = ring.config();
        Node[] members = ring.memberArray();
        int[][] vnodes = ring.vnodeHashes();
        long[] entries = ring.entries();
        int vpw = config.vnodesPerWeight();
        int[][] nextVnodes = new int[next.length][];
        int[] oldToNew = new int[members.length];
        Arrays.fill(oldToNew, -1); // -1: removed or its points changed
        int[] changedNew = new int[next.length];
        int changedCount = 0;
        int o = 0;
        for (int m = 0; m < next.length; m++) {
            Node n = next[m];
            while (o < members.length && members[o].id().compareTo(n.id()) < 0) {
                o++; // removed member
            }
            int want = (int) n.pointCount(vpw);
            if (o < members.length && members[o].id().equals(n.id())) {
                int[] had = vnodes[o];
                if (had.length == want) {
                    nextVnodes[m] = had;
                    oldToNew[o] = m;
                } else {
                    nextVnodes[m] = hashVnodes(config.hash(), n.id(), had, want);
                    changedNew[changedCount++] = m;
                }
                o++;
            } else {
                nextVnodes[m] = hashVnodes(config.hash(), n.id(), NO_INTS, want);
                changedNew[changedCount++] = m;
            }
        }
        long[] added = entriesOf(nextVnodes, Arrays.copyOf(changedNew, changedCount));
        long[] merged = new long[countKept(entries, oldToNew) + added.length];
        int a = 0;
        int w = 0;
        for (long e : entries) {
            int newIndex = oldToNew[(int) e];
            if (newIndex < 0) {
                continue;
            }
            long kept = (e & 0xFFFF_FFFF_0000_0000L) | newIndex;
            while (a < added.length && added[a] < kept) {
                merged[w++] = added[a++];
            }
            merged[w++] = kept;
        }
        while (a < added.length) {
            merged[w++] = added[a++];
        }
        return snapshot(config, ring.version() + 1, next, nextVnodes, merged);
    }

    private static int countKept(long[] entries, int[] oldToNew) {
        int kept = 0;
        for (long e : entries) {
            if (oldToNew[(int) e] >= 0) {
                kept++;
            }
        }
        return kept;
    }

    /** hash("id#i") for i < want, reusing the hashes already known in {@code had}. */
    private static int[] hashVnodes(KeyHash hash, String id, int[] had, int want) {
        if (want <= had.length) {
            return Arrays.copyOf(had, want);
        }
        int[] out = Arrays.copyOf(had, want);
        StringBuilder label = new StringBuilder(id.length() + 8).append(id).append('#');
        int prefix = label.length();
        for (int i = had.length; i < want; i++) {
            label.setLength(prefix);
            out[i] = hash.hash(label.append(i).toString());
        }
        return out;
    }

    /** Sorted, distinct entries of the given members. */
    private static long[] entriesOf(int[][] vnodes, int[] which) {
        int total = 0;
        for (int m : which) {
            total += vnodes[m].length;
        }
        long[] out = new long[total];
        int w = 0;
        for (int m : which) {
            for (int p : vnodes[m]) {
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

    private static void checkLimits(Collection<Node> nodes, int vnodesPerWeight) {
        if (nodes.size() > HashRing.MAX_NODES) {
            throw new RingException.LimitExceeded(
                    "the ring may hold at most " + HashRing.MAX_NODES + " nodes: " + nodes.size());
        }
        long total = 0;
        for (Node n : nodes) {
            total += n.pointCount(vnodesPerWeight);
        }
        if (total > HashRing.MAX_POINTS) {
            throw new RingException.LimitExceeded(
                    "the ring may hold at most " + HashRing.MAX_POINTS + " points: " + total);
        }
    }

    /**
     * The ring itself from its members, vnodes and sorted entries: the first
     * entry of each point group becomes the point and its owner (the
     * smallest id wins), and the zone classes and counts the preference
     * walks need are worked out once here.
     */
    private static HashRing snapshot(RingConfig config, long version, Node[] members, int[][] vnodes,
            long[] entries) {
        long vnodeCount = 0;
        for (int[] v : vnodes) {
            vnodeCount += v.length;
        }

        int distinct = 0;
        for (int i = 0; i < entries.length; i++) {
            if (i == 0 || (int) (entries[i] >>> 32) != (int) (entries[i - 1] >>> 32)) {
                distinct++;
            }
        }
        int[] points = new int[distinct];
        int[] owners = new int[distinct];
        boolean[] owns = new boolean[members.length];
        int j = 0;
        for (int i = 0; i < entries.length; i++) {
            int p = (int) (entries[i] >>> 32);
            if (i == 0 || p != (int) (entries[i - 1] >>> 32)) {
                points[j] = p;
                owners[j] = (int) entries[i];
                owns[owners[j]] = true;
                j++;
            }
        }

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
        Set<Integer> owningZones = new HashSet<>();
        for (int m = 0; m < members.length; m++) {
            if (owns[m]) {
                owningCount++;
                owningZones.add(zoneClass[m]);
            }
        }
        return new HashRing(config, version, members, vnodes, entries, vnodeCount, points, owners,
                owningCount, zoneClass, owningZones.size());
    }
}
