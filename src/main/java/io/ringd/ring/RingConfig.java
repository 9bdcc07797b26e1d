package io.ringd.ring;

import java.util.Objects;

/**
 * The settings a ring is built with: its hash function and the number of
 * points per unit of weight.
 *
 * @param hash            the hash of keys and of vnode labels {@code "id#i"}
 * @param vnodesPerWeight points per unit of weight, {@code 1 .. 4096}
 */
public record RingConfig(KeyHash hash, int vnodesPerWeight) {

    /** The default number of points per unit of weight. */
    public static final int DEFAULT_VNODES_PER_WEIGHT = 128;
    /** The largest number of points per unit of weight. */
    public static final int MAX_VNODES_PER_WEIGHT = 4096;

    public RingConfig {
        Objects.requireNonNull(hash, "hash");
        if (vnodesPerWeight < 1 || vnodesPerWeight > MAX_VNODES_PER_WEIGHT) {
            throw new IllegalArgumentException("vnodesPerWeight must be in [1, 4096]: " + vnodesPerWeight);
        }
    }

    /** md5 with 128 points per unit of weight. */
    public static RingConfig defaults() {
        return new RingConfig(KeyHashes.md5(), DEFAULT_VNODES_PER_WEIGHT);
    }

    /** A config with the named hash function. */
    public static RingConfig of(String hashName, int vnodesPerWeight) {
        return new RingConfig(KeyHashes.byName(hashName), vnodesPerWeight);
    }

    /**
     * The config of a ring with these settings, as the service shows them
     * ({@code GET /settings}): what a client that follows the ring builds with.
     *
     * @throws IllegalArgumentException for a value not implemented
     */
    public static RingConfig of(String hashName, int vnodesPerWeight, String algorithm, int maglevTableSize) {
        if (!"ring".equals(algorithm)) {
            throw new IllegalArgumentException("algorithm " + algorithm + " is not supported yet; supported: [ring]");
        }
        return of(hashName, vnodesPerWeight);
    }
}
