package io.ringd.bench;

import io.ringd.ring.KeyHash;
import io.ringd.ring.Node;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The peer the benchmarks measure {@code HashRing} against: the consistent
 * hash ring a team writes by hand in Java, a {@code TreeMap<Long, String>}
 * from point to node id searched with {@code ceilingEntry}.
 *
 * <p>It places exactly the points {@code HashRing} places (hash of
 * {@code "id#i"} for {@code i < pointCount}, smallest id winning a collision),
 * so a side-by-side run compares the data structures, not the placement.
 */
final class TreeMapRing {

    private final KeyHash hash;
    private final int vnodesPerWeight;
    private final TreeMap<Long, String> ring;

    private TreeMapRing(KeyHash hash, int vnodesPerWeight, TreeMap<Long, String> ring) {
        this.hash = hash;
        this.vnodesPerWeight = vnodesPerWeight;
        this.ring = ring;
    }

    /** A ring of {@code nodes}, hashing every point. */
    static TreeMapRing build(KeyHash hash, int vnodesPerWeight, List<Node> nodes) {
        TreeMap<Long, String> ring = new TreeMap<>();
        for (Node n : nodes) {
            addPoints(ring, hash, vnodesPerWeight, n);
        }
        return new TreeMapRing(hash, vnodesPerWeight, ring);
    }

    /** A copy of this ring with {@code node} added: copy the map, hash the new node's points. */
    TreeMapRing with(Node node) {
        TreeMap<Long, String> copy = new TreeMap<>(ring);
        addPoints(copy, hash, vnodesPerWeight, node);
        return new TreeMapRing(hash, vnodesPerWeight, copy);
    }

    private static void addPoints(TreeMap<Long, String> ring, KeyHash hash, int vnodesPerWeight, Node n) {
        String id = n.id();
        long points = n.pointCount(vnodesPerWeight);
        for (int i = 0; i < points; i++) {
            ring.merge(hash.hashUnsigned(id + "#" + i), id, TreeMapRing::smaller);
        }
    }

    private static String smaller(String a, String b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** The node owning {@code key}. */
    String route(String key) {
        return routeHash(hash.hashUnsigned(key));
    }

    /** The node owning an unsigned hash value: the first point >= hash, wrapping to the first. */
    String routeHash(long h) {
        Map.Entry<Long, String> e = ring.ceilingEntry(h);
        if (e == null) {
            e = ring.firstEntry();
        }
        return e.getValue();
    }

    /** Up to {@code n} distinct nodes clockwise from the hash of {@code key}. */
    List<String> preference(String key, int n) {
        long h = hash.hashUnsigned(key);
        List<String> out = new ArrayList<>(n);
        if (collect(ring.tailMap(h, true).values(), out, n)) {
            return out;
        }
        collect(ring.headMap(h, false).values(), out, n);
        return out;
    }

    private static boolean collect(Iterable<String> owners, List<String> out, int n) {
        for (String id : owners) {
            if (!out.contains(id)) {
                out.add(id);
                if (out.size() == n) {
                    return true;
                }
            }
        }
        return false;
    }

    int pointCount() {
        return ring.size();
    }
}
