package io.ringd.ring;

import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;

/**
 * The ketama points (docs/ring.md section 14): how many digests each member
 * gets, as each {@link KetamaFlavor} counts them, and the points a digest
 * gives.
 */
final class Ketama {

    /*
     * Design note. This follows ketama_create_continuum in libketama's
     * ketama.c, where every server gets
     *
     *     float pct = (float) slist[i].memory / (float) memory;
     *     unsigned int ks = floorf(pct * 40.0 * (float) numservers);
     *
     * digests. The arithmetic is reproduced type for type: the quotient is a
     * float division of two floats; pct * 40.0 * (float) n is evaluated in
     * double (40.0 is a double literal, so pct and (float) n are widened, as
     * with FLT_EVAL_METHOD 0 on x86-64 and ARM64); floorf takes a float, so
     * the double product is first rounded to the nearest float and then
     * floored. That rounding matters: with n equal weights pct is
     * (float) 1 / (float) n, and for n = 61, 122, 237, ... the product is
     * just under 40 by more than half a float ulp, so those nodes get 39
     * digests, not 40 (libketama does the same). ringd adds "at least 1",
     * which libketama lacks (a server with a tiny weight gets none there).
     * libketama's memory is an integer; ringd's weights are doubles, summed
     * in double in ascending id order (exact for whole weights, as
     * libketama's integers are) before the cast to float.
     *
     * Digest k of node X is MD5("X-k") (sprintf "%s-%d"), and gives four
     * points, bytes 4j .. 4j+3 read little-endian for j = 0 .. 3. The points
     * of digest k depend only on X and k, so when a node's digest count
     * changes (its weight, or the sum of weights, or the node count
     * changed) its points gain or lose a suffix of whole digests: the
     * builder keeps the prefix and digests only the new ones.
     *
     * The other flavors change only the count. libmemcached (hosts.cc) and
     * spymemcached (KetamaNodeLocator) compute
     *
     *     float pct = (float) weight / (float) total_weight;
     *     floor((float) (pct * 160 / 4 * (float) live_servers + 0.0000000001))
     *
     * where every product is float (160 and 4 are ints, promoted to float)
     * and only the added 1e-10 is a double: the float product is widened,
     * the constant added, and the sum cast back to float before the floor.
     * npm hashring computes Math.floor(weight / total * 40 * servers) in
     * doubles, left to right. The placement string is the node's hashKey
     * when it has one, hashed over its UTF-8 bytes (an id is ASCII, so the
     * same bytes either way).
     */

    /** Points per digest. */
    static final int POINTS_PER_DIGEST = 4;

    private static final ThreadLocal<MessageDigest> MD5 =
            ThreadLocal.withInitial(() -> KeyHashes.newDigest("MD5"));

    private Ketama() {
    }

    /**
     * The digests a member of weight {@code weight} gets, libketama's
     * {@code ks}: {@code floorf(pct * 40.0 * (float) nodeCount)} with
     * {@code pct = (float) weight / (float) sumOfWeights}, at least 1.
     */
    static int digests(double weight, double sumOfWeights, int nodeCount) {
        return digests(KetamaFlavor.LIBKETAMA, weight, sumOfWeights, nodeCount);
    }

    /** The digests a member of weight {@code weight} gets as {@code flavor} counts them, at least 1. */
    static int digests(KetamaFlavor flavor, double weight, double sumOfWeights, int nodeCount) {
        double floored = switch (flavor) {
            case LIBKETAMA -> {
                float pct = (float) weight / (float) sumOfWeights;
                double product = pct * 40.0 * (float) nodeCount;
                float rounded = (float) product; // floorf takes a float: the double is rounded first
                yield Math.floor(rounded);
            }
            case LIBMEMCACHED -> {
                float pct = (float) weight / (float) sumOfWeights;
                float product = pct * 160.0f / 4.0f * (float) nodeCount; // all float
                float nudged = (float) (product + 0.0000000001); // the constant is a double
                yield Math.floor(nudged);
            }
            case HASHRING -> Math.floor(weight / sumOfWeights * 40 * nodeCount);
        };
        return (int) Math.max(1, floored);
    }

    /** The points each member places, 4 per digest, as {@code flavor} counts them; {@code members} ascending by id. */
    static int[] pointCounts(Node[] members, KetamaFlavor flavor) {
        double sum = 0;
        for (Node n : members) {
            sum += n.weight();
        }
        int[] out = new int[members.length];
        for (int m = 0; m < members.length; m++) {
            out[m] = POINTS_PER_DIGEST * digests(flavor, members[m].weight(), sum, members.length);
        }
        return out;
    }

    /**
     * Points {@code from .. want-1} of the node placed by {@code id} (its
     * placement string; both bounds multiples of 4), in digest order.
     */
    static int[] points(String id, int from, int want) {
        int[] out = new int[want - from];
        MessageDigest md = MD5.get();
        byte[] d = new byte[16];
        StringBuilder label = new StringBuilder(id.length() + 8).append(id).append('-');
        int prefix = label.length();
        int first = from / POINTS_PER_DIGEST;
        for (int k = first; k < want / POINTS_PER_DIGEST; k++) {
            label.setLength(prefix);
            md.update(label.append(k).toString().getBytes(StandardCharsets.UTF_8));
            try {
                md.digest(d, 0, 16);
            } catch (DigestException e) {
                throw new IllegalStateException("MD5 failed to digest", e); // cannot happen: 16 bytes fit
            }
            for (int j = 0; j < POINTS_PER_DIGEST; j++) {
                out[(k - first) * POINTS_PER_DIGEST + j] = (d[4 * j + 3] & 0xff) << 24 | (d[4 * j + 2] & 0xff) << 16
                        | (d[4 * j + 1] & 0xff) << 8 | (d[4 * j] & 0xff);
            }
        }
        return out;
    }
}
