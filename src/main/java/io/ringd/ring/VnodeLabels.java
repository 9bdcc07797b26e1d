package io.ringd.ring;

import java.util.Arrays;

/**
 * The vnode labels of a ring's points ({@code X#i}, {@code X-k[j]} for ketama; X the node's
 * hashKey or its id): one point's label found by hashing its node's labels in order, or all of a
 * node's labels hashed once and sorted by hash, so that a point's label is a binary search away
 * (for a node of many points, where hashing its labels for every point explained would cost
 * milliseconds or seconds). Eight bytes per vnode.
 */
public final class VnodeLabels {

    private final RingConfig config;
    private final String node;
    /** The string the labels start with: the node's hashKey, or its id. */
    private final String placement;
    /** (biased hash << 32 | vnode index), ascending: a hash's smallest index first. */
    private final long[] sorted;

    private VnodeLabels(RingConfig config, String node, String placement, long[] sorted) {
        this.config = config;
        this.node = node;
        this.placement = placement;
        this.sorted = sorted;
    }

    /** The labels of {@code node} in {@code ring}: hashes all {@link #labelCount} of them. */
    public static VnodeLabels of(HashRing ring, String node) {
        Node member = ring.node(node).orElseThrow();
        RingConfig config = ring.config();
        long count = labelCount(ring, node);
        long[] sorted = new long[Math.toIntExact(count)];
        int[] n = {0};
        forEachVnode(config, member, (int) Math.min(count, Integer.MAX_VALUE), (hash, i) -> {
            sorted[n[0]++] = ((hash ^ 0x8000_0000L) << 32) | i;
            return true;
        });
        Arrays.sort(sorted);
        return new VnodeLabels(config, node, member.placementKey(), sorted);
    }

    /** How many labels these are. */
    public int size() {
        return sorted.length;
    }

    /**
     * The label of the node's point at {@code point}: its smallest vnode that hashes there.
     *
     * @throws IllegalStateException if none does
     */
    public String label(long point) {
        long key = (point ^ 0x8000_0000L) << 32;
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if (lo == sorted.length || (sorted[lo] >>> 32) != (key >>> 32)) {
            throw new IllegalStateException("no vnode of " + node + " hashes to " + point);
        }
        return vnodeLabel(config, placement, sorted[lo] & 0xFFFF_FFFFL);
    }

    @Override
    public String toString() {
        return "VnodeLabels[" + node + ", " + sorted.length + " labels]";
    }

    /**
     * The label of {@code node}'s point at {@code point}: the first of its
     * vnodes that hashes there, found by hashing them in order (up to
     * {@link #labelCount(HashRing, String)} of them).
     *
     * @throws java.util.NoSuchElementException if {@code node} is not a member
     * @throws IllegalStateException if no vnode of {@code node} hashes to {@code point}
     */
    public static String label(HashRing ring, String node, long point) {
        Node member = ring.node(node).orElseThrow();
        RingConfig config = ring.config();
        int ketamaPoints = config.algorithm() == RingConfig.Algorithm.KETAMA ? ketamaPointCount(ring, member) : 0;
        long[] found = {-1};
        forEachVnode(config, member, ketamaPoints, (hash, i) -> {
            if (hash != point) {
                return true;
            }
            found[0] = i;
            return false;
        });
        if (found[0] < 0) {
            throw new IllegalStateException("no vnode of " + node + " hashes to " + point);
        }
        return vnodeLabel(config, member.placementKey(), found[0]);
    }

    /** How many vnode labels {@code node} has in {@code ring}: what labelling one of its points may hash. */
    public static long labelCount(HashRing ring, String node) {
        Node member = ring.node(node).orElseThrow();
        RingConfig config = ring.config();
        return config.algorithm() == RingConfig.Algorithm.KETAMA ? ketamaPointCount(ring, member)
                : member.pointCount(config.vnodesPerWeight());
    }

    /** Sees one vnode: its hash and its index; answers whether to go on. */
    @FunctionalInterface
    interface VnodeVisitor {
        boolean visit(long hash, long index);
    }

    /**
     * Visits {@code member}'s vnodes in order (for ketama, its first {@code ketamaPoints} points), each
     * with its hash, until {@code visitor} answers false.
     */
    static void forEachVnode(RingConfig config, Node member, int ketamaPoints, VnodeVisitor visitor) {
        if (config.algorithm() == RingConfig.Algorithm.KETAMA) {
            int[] pts = Ketama.points(member.placementKey(), 0, ketamaPoints);
            for (int p = 0; p < pts.length; p++) {
                if (!visitor.visit(Integer.toUnsignedLong(pts[p]), p)) {
                    return;
                }
            }
        } else {
            long k = member.pointCount(config.vnodesPerWeight());
            KeyHash hash = config.hash();
            for (long i = 0; i < k; i++) {
                if (!visitor.visit(hash.hashUnsigned(member.placementKey() + "#" + i), i)) {
                    return;
                }
            }
        }
    }

    /**
     * The label of vnode {@code index} of the node placed by {@code node} (its hashKey, or its
     * id): {@code X#i}, or {@code X-k[j]} for ketama.
     */
    static String vnodeLabel(RingConfig config, String node, long index) {
        return config.algorithm() == RingConfig.Algorithm.KETAMA ? ketamaLabel(node, (int) index) : node + "#" + index;
    }

    private static String ketamaLabel(String node, int p) {
        return node + "-" + (p / Ketama.POINTS_PER_DIGEST) + "[" + (p % Ketama.POINTS_PER_DIGEST) + "]";
    }

    private static int ketamaPointCount(HashRing ring, Node member) {
        Node[] members = ring.nodes().toArray(new Node[0]);
        int[] counts = Ketama.pointCounts(members, ring.config().ketamaFlavor());
        for (int m = 0; m < members.length; m++) {
            if (members[m].id().equals(member.id())) {
                return counts[m];
            }
        }
        throw new IllegalStateException("not a member: " + member.id());
    }
}
