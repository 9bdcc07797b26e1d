package io.ringd.ring;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Collection;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Weighted rendezvous (highest random weight) hashing, for comparison with
 * the placements ringd serves; ringd does not serve it. Each key goes to the
 * node with the highest score {@code -w / ln(u)}, {@code u} a per-(key, node)
 * uniform value in {@code (0, 1)} (docs/ring.md section 16).
 */
public final class RendezvousHash implements Placement {

    /*
     * Design note. Rendezvous hashing: Thaler and Ravishankar, "Using
     * name-based mappings to increase hit rates", IEEE/ACM Transactions on
     * Networking 6(1), 1998: every node scores the key, the highest score
     * wins. Weights by the logarithmic method of Schindelhauer and
     * Schomaker, "Weighted Distributed Hash Tables", SPAA 2005: node i wins
     * when -ln(u_i) / w_i is the smallest, which is the same as the score
     * -w_i / ln(u_i) being the largest (the form usually quoted, e.g. in
     * Resch, "New Hashing Algorithms for Data Storage", SNIA SDC 2015).
     * With u_i independent and uniform, -ln(u_i) / w_i is exponential with
     * rate w_i, and the smallest of independent exponentials is node i's
     * with probability w_i / sum(w): shares follow the weights exactly in
     * expectation, and adding, removing or reweighting node X only moves
     * keys to or from X.
     *
     * Values. The key is hashed once with the KeyHash to h (32 bits).
     * Node i has a 64-bit seed, the first 8 bytes of MD5(id) big-endian.
     * Its 64-bit value for the key is x_i = fmix64(seed_i ^ h) (MurmurHash3's
     * 64-bit finalizer, a bijection that mixes every bit), and
     * u_i = (floor(x_i / 2^11) + 0.5) / 2^53, which lies strictly inside
     * (0, 1), so ln(u_i) is finite and negative. Scores use StrictMath.log,
     * so every JVM gives the same answer. A tie (equal scores, measure zero
     * in theory) goes to the smallest id. A lookup costs one score per node:
     * O(n), against O(log n) for a ring and O(1) for a Maglev table.
     */

    private final KeyHash hash;
    private final String[] ids;
    private final double[] weights;
    private final long[] seeds;

    private RendezvousHash(KeyHash hash, String[] ids, double[] weights, long[] seeds) {
        this.hash = hash;
        this.ids = ids;
        this.weights = weights;
        this.seeds = seeds;
    }

    /**
     * Rendezvous hashing over {@code nodes} (their weights count, zones do
     * not), keys hashed with {@code hash}.
     *
     * @throws IllegalArgumentException if an id appears twice
     */
    public static RendezvousHash of(KeyHash hash, Collection<Node> nodes) {
        Objects.requireNonNull(hash, "hash");
        TreeMap<String, Node> byId = new TreeMap<>();
        for (Node n : nodes) {
            if (byId.put(n.id(), n) != null) {
                throw new IllegalArgumentException("node id appears twice: " + n.id());
            }
        }
        String[] ids = new String[byId.size()];
        double[] weights = new double[ids.length];
        long[] seeds = new long[ids.length];
        MessageDigest md5 = KeyHashes.newDigest("MD5");
        int i = 0;
        for (Node n : byId.values()) {
            ids[i] = n.id();
            weights[i] = n.weight();
            seeds[i] = seed(md5, n.id());
            i++;
        }
        return new RendezvousHash(hash, ids, weights, seeds);
    }

    /** The first 8 bytes of MD5(id), big-endian. */
    static long seed(MessageDigest md5, String id) {
        byte[] d = md5.digest(id.getBytes(StandardCharsets.UTF_8));
        long s = 0;
        for (int k = 0; k < 8; k++) {
            s = (s << 8) | (d[k] & 0xff);
        }
        return s;
    }

    /** MurmurHash3's fmix64. */
    static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    /** The score {@code -w / ln(u)} of a node with that seed and weight for key hash {@code h}. */
    static double score(long seed, double weight, long h) {
        long x = fmix64(seed ^ h);
        double u = ((x >>> 11) + 0.5) * 0x1.0p-53;
        return -weight / StrictMath.log(u);
    }

    @Override
    public String route(String key) {
        return routeHash(hash.hashUnsigned(key));
    }

    @Override
    public String routeHash(long h) {
        if (h < 0 || h >= HashRing.HASH_SPACE) {
            throw new IllegalArgumentException("hash must be in [0, 4294967295]: " + h);
        }
        if (ids.length == 0) {
            throw new RingException.NoNodes();
        }
        int best = 0;
        double bestScore = score(seeds[0], weights[0], h);
        for (int i = 1; i < ids.length; i++) {
            double s = score(seeds[i], weights[i], h);
            if (s > bestScore) {
                best = i;
                bestScore = s;
            }
        }
        return ids[best];
    }

    @Override
    public long hash(String key) {
        return hash.hashUnsigned(key);
    }

    /** The number of nodes. */
    public int nodeCount() {
        return ids.length;
    }

    @Override
    public String toString() {
        return "RendezvousHash[" + ids.length + " nodes]";
    }
}
