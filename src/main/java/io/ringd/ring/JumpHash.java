package io.ringd.ring;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Jump consistent hash (Lamping and Veach, 2014) over numbered buckets, for
 * comparison with the placements ringd serves; ringd does not serve it.
 * Bucket {@code i} is the {@code i}-th node of the list it is made from; it
 * has no weights, and only adding or removing the <em>last</em> bucket
 * moves the minimum (docs/ring.md section 16).
 */
public final class JumpHash implements Placement {

    /*
     * Design note. John Lamping and Eric Veach, "A Fast, Minimal Memory,
     * Consistent Hash Algorithm", arXiv:1406.2294 (2014), figure 1:
     *
     *     int32_t JumpConsistentHash(uint64_t key, int32_t num_buckets) {
     *         int64_t b = -1, j = 0;
     *         while (j < num_buckets) {
     *             b = j;
     *             key = key * 2862933555777941757ULL + 1;
     *             j = (b + 1) * (double(1LL << 31) / double((key >> 33) + 1));
     *         }
     *         return b;
     *     }
     *
     * jump() is that code: Java's long multiplication wraps as uint64_t
     * does, >>> is the unsigned shift, the quotient and product are
     * doubles, and the cast truncates as the C conversion does. The key is
     * the ring's 32-bit key hash, zero-extended. Growing from n to n + 1
     * buckets moves a fraction 1 / (n + 1) of the keys, all to bucket n;
     * the expected cost is O(ln n) steps and no memory.
     */

    private final KeyHash hash;
    private final String[] buckets;

    private JumpHash(KeyHash hash, String[] buckets) {
        this.hash = hash;
        this.buckets = buckets;
    }

    /**
     * Jump hashing over {@code buckets} in the order given (bucket 0 first);
     * keys hashed with {@code hash}.
     *
     * @throws IllegalArgumentException if an id appears twice or is not a valid id
     */
    public static JumpHash of(KeyHash hash, List<String> buckets) {
        Objects.requireNonNull(hash, "hash");
        Set<String> seen = new HashSet<>();
        for (String id : buckets) {
            Node.checkId(id);
            if (!seen.add(id)) {
                throw new IllegalArgumentException("node id appears twice: " + id);
            }
        }
        return new JumpHash(hash, buckets.toArray(new String[0]));
    }

    /**
     * The bucket of {@code key} among {@code buckets}: Lamping and Veach's
     * reference code, bit for bit.
     *
     * @throws IllegalArgumentException if {@code buckets < 1}
     */
    public static int jump(long key, int buckets) {
        if (buckets < 1) {
            throw new IllegalArgumentException("buckets must be >= 1: " + buckets);
        }
        long b = -1;
        long j = 0;
        while (j < buckets) {
            b = j;
            key = key * 2862933555777941757L + 1;
            j = (long) ((b + 1) * ((double) (1L << 31) / (double) ((key >>> 33) + 1)));
        }
        return (int) b;
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
        if (buckets.length == 0) {
            throw new RingException.NoNodes();
        }
        return buckets[jump(h, buckets.length)];
    }

    @Override
    public long hash(String key) {
        return hash.hashUnsigned(key);
    }

    /** The number of buckets. */
    public int bucketCount() {
        return buckets.length;
    }

    @Override
    public String toString() {
        return "JumpHash[" + buckets.length + " buckets]";
    }
}
