package io.ringd.state;

import java.util.List;

import io.ringd.ring.KetamaFlavor;
import io.ringd.ring.RingConfig;

/**
 * A change to the ring settings: each field {@code null} keeps its value.
 *
 * @param hash            the hash function's name
 * @param vnodesPerWeight points per unit of weight
 * @param algorithm       the placement algorithm
 * @param maglevTableSize the Maglev table size
 * @param ketamaFlavor    the ketama flavor; only with hash ketama (a ring that leaves ketama drops its flavor,
 *                        one that comes to it without naming one takes libketama's)
 */
public record SettingsPatch(String hash, Integer vnodesPerWeight, String algorithm, Integer maglevTableSize,
        String ketamaFlavor) {

    /** Every ketama flavor the API knows. */
    public static final List<String> KETAMA_FLAVORS = KetamaFlavor.NAMES;

    /** Every hash name the API knows, each implemented ({@code ketama} is libketama's placement). */
    public static final List<String> HASHES = RingConfig.SETTINGS_HASHES;
    /** Every algorithm name the API knows, each implemented. */
    public static final List<String> ALGORITHMS = RingConfig.SETTINGS_ALGORITHMS;
    public static final int MIN_MAGLEV_TABLE_SIZE = 1_009;
    public static final int MAX_MAGLEV_TABLE_SIZE = RingConfig.MAX_MAGLEV_TABLE_SIZE;

    /** A patch that names no ketama flavor. */
    public SettingsPatch(String hash, Integer vnodesPerWeight, String algorithm, Integer maglevTableSize) {
        this(hash, vnodesPerWeight, algorithm, maglevTableSize, null);
    }

    /**
     * {@code base} with this patch applied, validated.
     *
     * @throws InvalidInputException naming the field at fault
     */
    public RingSettings applyTo(RingSettings base) {
        String h = hash != null ? hash : base.hash();
        String flavor = ketamaFlavor != null ? ketamaFlavor
                : RingConfig.KETAMA_SETTING.equals(h) && base.ketamaFlavor() != null ? base.ketamaFlavor()
                : RingSettings.defaultFlavor(h);
        RingSettings s = new RingSettings(h,
                vnodesPerWeight != null ? vnodesPerWeight : base.vnodesPerWeight(),
                algorithm != null ? algorithm : base.algorithm(),
                maglevTableSize != null ? maglevTableSize : base.maglevTableSize(),
                flavor);
        validate(s);
        return s;
    }

    /**
     * Checks every value, whatever the algorithm (a value the algorithm does
     * not use is kept, and must be valid when it is switched to).
     *
     * @throws InvalidInputException naming the field at fault, with the value
     */
    public static void validate(RingSettings s) {
        if (s.hash() == null || !HASHES.contains(s.hash())) {
            throw new InvalidInputException("hash", "hash must be one of " + HASHES + ": " + s.hash());
        }
        if (s.vnodesPerWeight() < 1 || s.vnodesPerWeight() > RingConfig.MAX_VNODES_PER_WEIGHT) {
            throw new InvalidInputException("vnodesPerWeight",
                    "vnodesPerWeight must be in [1, 4096]: " + s.vnodesPerWeight());
        }
        if (s.algorithm() == null || !ALGORITHMS.contains(s.algorithm())) {
            throw new InvalidInputException("algorithm",
                    "algorithm must be one of " + ALGORITHMS + ": " + s.algorithm());
        }
        int m = s.maglevTableSize();
        if (m < MIN_MAGLEV_TABLE_SIZE || m > MAX_MAGLEV_TABLE_SIZE || !RingConfig.isPrime(m)) {
            throw new InvalidInputException("maglevTableSize",
                    "maglevTableSize must be a prime between 1009 and 5000011: " + m);
        }
        boolean ketama = RingConfig.KETAMA_SETTING.equals(s.hash());
        if (ketama && (s.ketamaFlavor() == null || !KETAMA_FLAVORS.contains(s.ketamaFlavor()))) {
            throw new InvalidInputException("ketamaFlavor",
                    "ketamaFlavor must be one of " + KETAMA_FLAVORS + ": " + s.ketamaFlavor());
        }
        if (!ketama && s.ketamaFlavor() != null) {
            throw new InvalidInputException("ketamaFlavor",
                    "ketamaFlavor applies with hash ketama only, and hash is " + s.hash() + ": " + s.ketamaFlavor());
        }
    }
}
