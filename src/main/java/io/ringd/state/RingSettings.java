package io.ringd.state;

import io.ringd.ring.KetamaFlavor;
import io.ringd.ring.KeyHashes;
import io.ringd.ring.RingConfig;
import io.ringd.wire.SettingsJson;

/**
 * The settings of one ring, as the API shows them: the hash function, the
 * points per unit of weight, the placement algorithm and the Maglev table
 * size. Values are validated by {@link SettingsPatch}; {@link #toConfig()}
 * maps them to the library's {@link RingConfig} (docs/ring.md sections 14
 * and 15 for ketama and Maglev).
 *
 * @param hash            {@code md5}, {@code murmur3}, {@code sha256} or {@code ketama} (libketama's placement
 *                        with {@code ring}; with {@code maglev}, only libketama's key hash)
 * @param vnodesPerWeight points per unit of weight, 1 .. 4096 (used by {@code ring} with md5, murmur3, sha256)
 * @param algorithm       {@code ring} or {@code maglev}
 * @param maglevTableSize a prime between 1,009 and 5,000,011 (used by {@code maglev})
 * @param ketamaFlavor    with {@code hash} ketama, how a weighted node's digests are counted
 *                        ({@code libketama}, {@code libmemcached} or {@code hashring}); {@code null} with any
 *                        other hash
 */
public record RingSettings(String hash, int vnodesPerWeight, String algorithm, int maglevTableSize,
        String ketamaFlavor) {

    /** The flavor a ketama ring has when none is named: libketama's count. */
    public static final String DEFAULT_KETAMA_FLAVOR = KetamaFlavor.LIBKETAMA.settingName();

    /** Settings without a flavor of their own: libketama's with hash ketama, none otherwise. */
    public RingSettings(String hash, int vnodesPerWeight, String algorithm, int maglevTableSize) {
        this(hash, vnodesPerWeight, algorithm, maglevTableSize, defaultFlavor(hash));
    }

    /** md5, 128, ring, 65537: the library's defaults. */
    public static RingSettings defaults() {
        return new RingSettings(KeyHashes.DEFAULT, RingConfig.DEFAULT_VNODES_PER_WEIGHT, RingConfig.DEFAULT_ALGORITHM,
                RingConfig.DEFAULT_MAGLEV_TABLE_SIZE);
    }

    /** The flavor a ring of {@code hash} has when none is named: libketama for ketama, else none. */
    public static String defaultFlavor(String hash) {
        return RingConfig.KETAMA_SETTING.equals(hash) ? DEFAULT_KETAMA_FLAVOR : null;
    }

    /** These settings as answers, events and state files show them. */
    public SettingsJson json() {
        return new SettingsJson(hash, vnodesPerWeight, algorithm, maglevTableSize, ketamaFlavor);
    }

    /**
     * The library config for these settings.
     *
     * @throws InvalidInputException naming the field of a bad value
     */
    public RingConfig toConfig() {
        SettingsPatch.validate(this);
        return RingConfig.of(hash, vnodesPerWeight, algorithm, maglevTableSize, ketamaFlavor);
    }
}
