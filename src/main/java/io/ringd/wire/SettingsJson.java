package io.ringd.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRootName;

import io.ringd.ring.RingConfig;

/**
 * The ring settings: {@code {"hash":"md5","vnodesPerWeight":128,"algorithm":"ring","maglevTableSize":65537}}.
 * A reader of a server from before {@code algorithm} and {@code maglevTableSize}
 * were shown takes their defaults ({@link #toConfig()}). With {@code hash}
 * {@code ketama} the settings add {@code "ketamaFlavor"}; without it, a
 * ketama ring counts its digests as libketama does.
 *
 * @param hash            {@code md5}, {@code murmur3}, {@code sha256} or {@code ketama}
 * @param vnodesPerWeight points per unit of weight
 * @param algorithm       {@code ring} or {@code maglev}
 * @param maglevTableSize the Maglev table size
 * @param ketamaFlavor    {@code libketama}, {@code libmemcached} or {@code hashring}; only with hash ketama
 */
@JsonRootName("RingSettings")
public record SettingsJson(String hash, Integer vnodesPerWeight, String algorithm, Integer maglevTableSize,
        @JsonInclude(JsonInclude.Include.NON_NULL) String ketamaFlavor) {

    /** Settings without a ketama flavor (any hash but ketama, or libketama's count). */
    public SettingsJson(String hash, Integer vnodesPerWeight, String algorithm, Integer maglevTableSize) {
        this(hash, vnodesPerWeight, algorithm, maglevTableSize, null);
    }

    /**
     * The library config for these settings; an absent algorithm is
     * {@code ring} and an absent table size the library's default.
     *
     * @throws WireException for a missing hash or vnodesPerWeight, or a value the library lacks
     */
    public RingConfig toConfig() {
        if (hash == null) {
            throw WireException.missing("hash");
        }
        if (vnodesPerWeight == null) {
            throw WireException.missing("vnodesPerWeight");
        }
        try {
            return RingConfig.of(hash, vnodesPerWeight, algorithm == null ? RingConfig.DEFAULT_ALGORITHM : algorithm,
                    maglevTableSize == null ? RingConfig.DEFAULT_MAGLEV_TABLE_SIZE : maglevTableSize, ketamaFlavor);
        } catch (IllegalArgumentException e) {
            throw WireException.invalid(null, e);
        }
    }
}
