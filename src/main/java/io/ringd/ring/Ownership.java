package io.ringd.ring;

import java.util.ArrayList;
import java.util.List;

/**
 * Exact ownership of the hash space at one version: per member the count of
 * hash values it owns (the counts add up to {@code 2^32}) and the ring
 * points it holds after collisions, ascending by id.
 *
 * @param version the ring version this describes
 * @param shares  one entry per member, ascending by id
 */
public record Ownership(long version, List<Share> shares) {

    /*
     * Design note. of() sums arcs, never samples: the arc
     * (points[i-1], points[i]] belongs to owners[i], and index 0 also owns
     * the wrap-around arc (points[last], 2^32-1] and [0, points[0]], so the
     * counts add up to exactly 2^32 whenever the ring has a point (the
     * points are strictly ascending, RingBuilder.snapshot). Counts are longs:
     * one node can own all 2^32 values. Members owning nothing are listed
     * with 0 points and count 0. HashRing computes this once per snapshot
     * and caches it.
     *
     * A Maglev table of M entries: entry e holds the hash values h with
     * h mod M == e, so with 2^32 = q * M + r it holds q + 1 of them when
     * e < r and q otherwise; a member's count sums its entries' counts
     * (the counts add up to q * M + r = 2^32), and its "points" are its
     * entries.
     */

    public Ownership {
        shares = List.copyOf(shares);
    }

    /** The exact ownership of {@code ring}'s hash space, per member ascending by id (docs/ring.md section 7). */
    static Ownership of(HashRing ring) {
        Node[] members = ring.members;
        int[] owners = ring.owners;
        long[] counts = new long[members.length];
        int[] owned = new int[members.length];
        int len = owners.length;
        if (ring.isTable()) {
            long q = HashRing.HASH_SPACE / len;
            long r = HashRing.HASH_SPACE % len;
            for (int e = 0; e < len; e++) {
                counts[owners[e]] += e < r ? q + 1 : q;
                owned[owners[e]]++;
            }
            len = 0; // no arcs
        }
        for (int i = 0; i < len; i++) {
            long arc;
            if (i == 0) {
                arc = HashRing.HASH_SPACE - ring.pointAt(len - 1) + ring.pointAt(0);
            } else {
                arc = ring.pointAt(i) - ring.pointAt(i - 1);
            }
            counts[owners[i]] += arc;
            owned[owners[i]]++;
        }
        List<Share> shares = new ArrayList<>(members.length);
        for (int m = 0; m < members.length; m++) {
            shares.add(new Share(members[m], owned[m], counts[m]));
        }
        return new Ownership(ring.version(), shares);
    }

    /**
     * One member's part of the hash space.
     *
     * @param node   the member
     * @param points ring points it owns after collisions (Maglev: table entries it owns)
     * @param count  hash values it owns
     */
    public record Share(Node node, int points, long count) {

        /** {@code count / 2^32}. */
        public double share() {
            return count / (double) HashRing.HASH_SPACE;
        }
    }

    /** The sum of the counts: {@code 2^32}, or 0 for an empty ring. */
    public long total() {
        long t = 0;
        for (Share s : shares) {
            t += s.count();
        }
        return t;
    }
}
