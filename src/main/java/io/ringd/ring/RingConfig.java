package io.ringd.ring;

import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The settings a ring is built with: the key hash, the points per unit of
 * weight, the placement algorithm and the Maglev table size.
 *
 * <p>{@link Algorithm#RING} places {@code vnodesPerWeight * weight} points at
 * {@code hash("id#i")} (docs/ring.md sections 3 and 4);
 * {@link Algorithm#KETAMA} places libketama's points, whatever
 * {@code vnodesPerWeight} says (section 14); {@link Algorithm#MAGLEV} fills
 * a Maglev table of {@code maglevTableSize} entries (section 15). In every
 * case {@code hash} is the hash of keys. A setting a placement does not use
 * is still carried, so the config round-trips to the service's settings.
 *
 * @param hash            the hash of keys (and, for {@code RING}, of the vnode labels {@code "id#i"})
 * @param vnodesPerWeight points per unit of weight, {@code 1 .. 4096}; used by {@code RING} only
 * @param algorithm       how members are placed
 * @param maglevTableSize the Maglev table size, a prime {@code <= 5000011}; used by {@code MAGLEV} only
 * @param ketamaFlavor    how a weighted node's digests are counted; used by {@code KETAMA} only, and
 *                        {@link KetamaFlavor#LIBKETAMA} unless {@code hash} is ketama's
 */
public record RingConfig(KeyHash hash, int vnodesPerWeight, Algorithm algorithm, int maglevTableSize,
        KetamaFlavor ketamaFlavor) {

    /** The default number of points per unit of weight. */
    public static final int DEFAULT_VNODES_PER_WEIGHT = 128;
    /** The largest number of points per unit of weight. */
    public static final int MAX_VNODES_PER_WEIGHT = 4096;
    /** The default Maglev table size, a prime. */
    public static final int DEFAULT_MAGLEV_TABLE_SIZE = 65_537;
    /**
     * The largest Maglev table size. The library takes any prime up to this
     * (small tables make readable examples and tests); the service's setting
     * also asks for at least 1,009.
     */
    public static final int MAX_MAGLEV_TABLE_SIZE = 5_000_011;

    /** The {@code hash} setting of libketama's placement (with {@code ring}) or key hash (with {@code maglev}). */
    public static final String KETAMA_SETTING = "ketama";
    /**
     * The hash names {@link #of(String, int, String, int)} takes, as the
     * service's settings spell them: the key hashes, then {@code ketama}.
     */
    public static final List<String> SETTINGS_HASHES = Stream.concat(KeyHashes.names().stream(),
            Stream.of(KETAMA_SETTING)).toList();
    /** The default {@code algorithm} setting. */
    public static final String DEFAULT_ALGORITHM = "ring";
    /** The {@code algorithm} setting of a Maglev table. */
    public static final String MAGLEV_SETTING = "maglev";
    /** The algorithm names {@link #of(String, int, String, int)} takes. */
    public static final List<String> SETTINGS_ALGORITHMS = List.of(DEFAULT_ALGORITHM, MAGLEV_SETTING);

    /**
     * How the members are placed.
     *
     * <p>The service's settings spell {@code KETAMA} as {@code hash=ketama}
     * with {@code algorithm=ring}, and {@code MAGLEV} as
     * {@code algorithm=maglev} (with any hash, {@code ketama} included,
     * which then only hashes keys).
     */
    public enum Algorithm {
        /** Consistent-hash ring of {@code vnodesPerWeight * weight} points {@code hash("id#i")} per node. */
        RING,
        /** Consistent-hash ring of libketama's points: {@code MD5("id-k")}, 4 points per digest. */
        KETAMA,
        /** A Maglev lookup table of {@code maglevTableSize} entries. */
        MAGLEV
    }

    public RingConfig {
        Objects.requireNonNull(hash, "hash");
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(ketamaFlavor, "ketamaFlavor");
        if (ketamaFlavor != KetamaFlavor.LIBKETAMA && !hash.name().equals(KETAMA_SETTING)) {
            throw new IllegalArgumentException("ketamaFlavor applies with hash=ketama only: " + ketamaFlavor);
        }
        if (vnodesPerWeight < 1 || vnodesPerWeight > MAX_VNODES_PER_WEIGHT) {
            throw new IllegalArgumentException("vnodesPerWeight must be in [1, 4096]: " + vnodesPerWeight);
        }
        if (maglevTableSize < 2 || maglevTableSize > MAX_MAGLEV_TABLE_SIZE || !isPrime(maglevTableSize)) {
            throw new IllegalArgumentException(
                    "maglevTableSize must be a prime no larger than 5000011: " + maglevTableSize);
        }
    }

    /** A config that counts ketama digests as libketama does (the only flavor outside the ketama placement). */
    public RingConfig(KeyHash hash, int vnodesPerWeight, Algorithm algorithm, int maglevTableSize) {
        this(hash, vnodesPerWeight, algorithm, maglevTableSize, KetamaFlavor.LIBKETAMA);
    }

    /** A {@link Algorithm#RING} config (the Maglev table size at its default, unused). */
    public RingConfig(KeyHash hash, int vnodesPerWeight) {
        this(hash, vnodesPerWeight, Algorithm.RING, DEFAULT_MAGLEV_TABLE_SIZE);
    }

    /** md5 with 128 points per unit of weight. */
    public static RingConfig defaults() {
        return new RingConfig(KeyHashes.md5(), DEFAULT_VNODES_PER_WEIGHT);
    }

    /**
     * A {@link Algorithm#RING} config with the named hash function
     * ({@code md5}, {@code murmur3} or {@code sha256}; {@code ketama} is a
     * placement: see {@link #of(String, int, String, int)} and {@link #ketama()}).
     */
    public static RingConfig of(String hashName, int vnodesPerWeight) {
        return new RingConfig(KeyHashes.byName(hashName), vnodesPerWeight);
    }

    /** libketama's placement and key hash (docs/ring.md section 14). */
    public static RingConfig ketama() {
        return ketama(KetamaFlavor.LIBKETAMA);
    }

    /** The ketama placement and key hash, digests counted as {@code flavor}'s client does (docs/ring.md section 14). */
    public static RingConfig ketama(KetamaFlavor flavor) {
        return new RingConfig(KeyHashes.ketama(), DEFAULT_VNODES_PER_WEIGHT, Algorithm.KETAMA,
                DEFAULT_MAGLEV_TABLE_SIZE, flavor);
    }

    /** A Maglev table of {@code tableSize} entries, keys hashed with {@code hash} (docs/ring.md section 15). */
    public static RingConfig maglev(KeyHash hash, int tableSize) {
        return new RingConfig(hash, DEFAULT_VNODES_PER_WEIGHT, Algorithm.MAGLEV, tableSize);
    }

    /**
     * The config of a ring with these settings, as the service shows them
     * ({@code GET /settings}): what a client that follows the ring builds
     * with. Every combination is supported: {@code hash} one of
     * {@code md5, murmur3, sha256, ketama}; {@code algorithm} {@code ring} or
     * {@code maglev}. {@code ketama} with {@code ring} is libketama's
     * placement; with {@code maglev} it only hashes keys.
     *
     * @throws IllegalArgumentException naming the bad value
     */
    public static RingConfig of(String hashName, int vnodesPerWeight, String algorithm, int maglevTableSize) {
        return of(hashName, vnodesPerWeight, algorithm, maglevTableSize, null);
    }

    /**
     * As {@link #of(String, int, String, int)}, with the {@code ketamaFlavor}
     * setting ({@code libketama}, {@code libmemcached} or {@code hashring};
     * {@code null} for libketama's), which only the ketama placement takes.
     *
     * @throws IllegalArgumentException naming the bad value
     */
    public static RingConfig of(String hashName, int vnodesPerWeight, String algorithm, int maglevTableSize,
            String ketamaFlavor) {
        if (!SETTINGS_ALGORITHMS.contains(algorithm)) {
            throw new IllegalArgumentException("algorithm must be one of " + SETTINGS_ALGORITHMS + ": " + algorithm);
        }
        if (!SETTINGS_HASHES.contains(hashName)) {
            throw new IllegalArgumentException("hash must be one of " + SETTINGS_HASHES + ": " + hashName);
        }
        boolean ketama = hashName.equals(KETAMA_SETTING);
        KeyHash hash = ketama ? KeyHashes.ketama() : KeyHashes.byName(hashName);
        Algorithm a = algorithm.equals(MAGLEV_SETTING) ? Algorithm.MAGLEV : ketama ? Algorithm.KETAMA : Algorithm.RING;
        KetamaFlavor flavor = ketamaFlavor == null ? KetamaFlavor.LIBKETAMA : KetamaFlavor.byName(ketamaFlavor);
        return new RingConfig(hash, vnodesPerWeight, a, maglevTableSize, flavor);
    }

    /** The {@code hash} setting this config has: {@code ketama} for libketama's placement, else its key hash's name. */
    public String hashName() {
        return algorithm == Algorithm.KETAMA ? KETAMA_SETTING : hash.name();
    }

    /** The {@code ketamaFlavor} setting this config shows: its flavor's name with {@code hash=ketama}, else null. */
    public String ketamaFlavorName() {
        return hash.name().equals(KETAMA_SETTING) ? ketamaFlavor.settingName() : null;
    }

    /** The {@code algorithm} setting this config has: {@code maglev} or {@code ring}. */
    public String algorithmName() {
        return algorithm == Algorithm.MAGLEV ? MAGLEV_SETTING : DEFAULT_ALGORITHM;
    }

    /** Whether {@code n} is prime (a Maglev table size must be). */
    public static boolean isPrime(int n) {
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
