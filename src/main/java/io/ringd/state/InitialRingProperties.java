package io.ringd.state;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import io.ringd.ring.KeyHashes;
import io.ringd.ring.RingConfig;

/**
 * The settings of a new, empty ring. Once a ring exists its settings live
 * with it and change only through {@code PUT /settings}.
 *
 * @param hash            {@code md5}, {@code murmur3}, {@code sha256} or {@code ketama} (as {@link RingSettings#hash()})
 * @param vnodesPerWeight points per unit of weight, 1 .. 4096 (used by {@code ring} with md5, murmur3, sha256)
 * @param algorithm       {@code ring} or {@code maglev}
 * @param maglevTableSize the Maglev table size, a prime between 1,009 and 5,000,011 (used by {@code maglev})
 * @param ketamaFlavor    with hash ketama: {@code libketama} (when unset), {@code libmemcached} or {@code hashring}
 */
@ConfigurationProperties("ringd.ring")
public record InitialRingProperties(@DefaultValue(KeyHashes.DEFAULT) String hash,
        @DefaultValue("" + RingConfig.DEFAULT_VNODES_PER_WEIGHT) int vnodesPerWeight,
        @DefaultValue(RingConfig.DEFAULT_ALGORITHM) String algorithm,
        @DefaultValue("" + RingConfig.DEFAULT_MAGLEV_TABLE_SIZE) int maglevTableSize,
        String ketamaFlavor) {

    public RingSettings toSettings() {
        return new RingSettings(hash, vnodesPerWeight, algorithm, maglevTableSize,
                ketamaFlavor != null ? ketamaFlavor : RingSettings.defaultFlavor(hash));
    }
}
