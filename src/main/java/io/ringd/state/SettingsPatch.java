package io.ringd.state;

import java.util.List;

import io.ringd.ring.KeyHashes;
import io.ringd.ring.RingConfig;

/**
 * A change to the ring settings: each field {@code null} keeps its value.
 *
 * @param hash            the hash function's name
 * @param vnodesPerWeight points per unit of weight
 * @param algorithm       the placement algorithm
 * @param maglevTableSize the Maglev table size
 */
public record SettingsPatch(String hash, Integer vnodesPerWeight, String algorithm, Integer maglevTableSize) {

    /** Every hash name the API knows, implemented or not. */
    public static final List<String> HASHES = List.of("md5", "murmur3", "sha256", "ketama");
    /** Every algorithm name the API knows, implemented or not. */
    public static final List<String> ALGORITHMS = List.of("ring", "maglev");
    public static final int MIN_MAGLEV_TABLE_SIZE = 1_009;
    public static final int MAX_MAGLEV_TABLE_SIZE = 5_000_011;

    /**
     * {@code base} with this patch applied, validated.
     *
     * @throws InvalidInputException naming the field at fault
     */
    public RingSettings applyTo(RingSettings base) {
        RingSettings s = new RingSettings(
                hash != null ? hash : base.hash(),
                vnodesPerWeight != null ? vnodesPerWeight : base.vnodesPerWeight(),
                algorithm != null ? algorithm : base.algorithm(),
                maglevTableSize != null ? maglevTableSize : base.maglevTableSize());
        validate(s);
        return s;
    }

    /** Checks every value is well-formed and implemented. */
    public static void validate(RingSettings s) {
        if (!HASHES.contains(s.hash())) {
            throw new InvalidInputException("hash", "hash must be one of " + HASHES + ": " + s.hash());
        }
        if (s.vnodesPerWeight() < 1 || s.vnodesPerWeight() > RingConfig.MAX_VNODES_PER_WEIGHT) {
            throw new InvalidInputException("vnodesPerWeight",
                    "vnodesPerWeight must be in [1, 4096]: " + s.vnodesPerWeight());
        }
        if (!ALGORITHMS.contains(s.algorithm())) {
            throw new InvalidInputException("algorithm",
                    "algorithm must be one of " + ALGORITHMS + ": " + s.algorithm());
        }
        int m = s.maglevTableSize();
        if (m < MIN_MAGLEV_TABLE_SIZE || m > MAX_MAGLEV_TABLE_SIZE || !isPrime(m)) {
            throw new InvalidInputException("maglevTableSize",
                    "maglevTableSize must be a prime between 1009 and 5000011: " + m);
        }
        checkSupported(s);
    }

    static void checkSupported(RingSettings s) {
        if (!KeyHashes.names().contains(s.hash())) {
            throw new InvalidInputException("hash", "hash " + s.hash() + " is not supported yet; supported: "
                    + KeyHashes.names());
        }
        if (!RingSettings.RING.equals(s.algorithm())) {
            throw new InvalidInputException("algorithm", "algorithm " + s.algorithm()
                    + " is not supported yet; supported: [ring]");
        }
    }

    static boolean isPrime(int n) {
        if (n < 2) {
            return false;
        }
        if (n % 2 == 0) {
            return n == 2;
        }
        for (int d = 3; (long) d * d <= n; d += 2) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }
}
