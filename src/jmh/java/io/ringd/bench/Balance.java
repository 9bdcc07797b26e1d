package io.ringd.bench;

import io.ringd.ring.HashRing;
import io.ringd.ring.KeyHash;
import io.ringd.ring.Node;
import io.ringd.ring.Ownership;
import io.ringd.ring.Placement;
import io.ringd.ring.RingConfig;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * How evenly a placement spreads the hash space over equal-weight nodes:
 * exactly, from {@link HashRing#ownership()}, or from a sample of keys
 * where there is no exact ownership (rendezvous, jump).
 *
 * @param maxOverMean the largest node's share over the mean share (1 is perfect)
 * @param minOverMean the smallest node's share over the mean share
 * @param cv          the coefficient of variation of the shares (population standard deviation over mean)
 * @param points      points (ring), entries (Maglev table) or 0 (no structure)
 */
record Balance(double maxOverMean, double minOverMean, double cv, long points) {

    /** Exact: the ownership counts of the 2^32 hash values. */
    static Balance exact(HashRing ring) {
        Ownership o = ring.ownership();
        long[] counts = new long[o.shares().size()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = o.shares().get(i).count();
        }
        return of(counts, ring.pointCount());
    }

    /** The balance of a ring of {@code n} equal nodes under {@code hash} at {@code vnodes} points per weight. */
    static Balance ring(KeyHash hash, int n, int vnodes) {
        return exact(HashRing.of(new RingConfig(hash, vnodes), 1, Fixtures.nodes(n)));
    }

    /** From counts per node. */
    static Balance of(long[] counts, long points) {
        double total = 0;
        long max = Long.MIN_VALUE;
        long min = Long.MAX_VALUE;
        for (long c : counts) {
            total += c;
            max = Math.max(max, c);
            min = Math.min(min, c);
        }
        double mean = total / counts.length;
        double var = 0;
        for (long c : counts) {
            var += (c - mean) * (c - mean);
        }
        var /= counts.length;
        return new Balance(max / mean, min / mean, Math.sqrt(var) / mean, points);
    }

    /** From an assignment of sampled keys to the nodes' ids. */
    static Balance sampled(String[] assignment, List<Node> nodes) {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            index.put(nodes.get(i).id(), i);
        }
        long[] counts = new long[nodes.size()];
        for (String id : assignment) {
            counts[index.get(id)]++;
        }
        return of(counts, 0);
    }

    /**
     * The coefficient of variation a perfectly fair placement shows on a
     * sample of {@code keys} over {@code n} nodes: the multinomial's
     * {@code sqrt((n - 1) / keys)}.
     */
    static double samplingFloorCv(int n, int keys) {
        return Math.sqrt((n - 1.0) / keys);
    }

    /** The node of each key hash, computed on every core. */
    static String[] assign(Placement p, long[] hashes) {
        String[] out = new String[hashes.length];
        IntStream.range(0, hashes.length).parallel().forEach(k -> out[k] = p.routeHash(hashes[k]));
        return out;
    }
}
