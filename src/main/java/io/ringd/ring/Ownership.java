package io.ringd.ring;

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

    public Ownership {
        shares = List.copyOf(shares);
    }

    /**
     * One member's part of the hash space.
     *
     * @param node   the member
     * @param points ring points it owns after collisions
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
