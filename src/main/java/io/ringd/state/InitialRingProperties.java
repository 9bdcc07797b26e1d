package io.ringd.state;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;



/**
 * The settings of a new, empty ring. Once a ring exists its settings live
 * with it and change only through {@code PUT /settings}.
 *
 * @param hash            {@code md5}, {@code murmur3} or {@code sha256}
 * @param vnodesPerWeight points per unit of weight, 1 .. 4096
 * @param algorithm       {@code ring}
 * @param maglevTableSize the Maglev table size, a prime between 1,009 and 5,000,011
 */
@ConfigurationProperties("ringd.ring")
public record InitialRingProperties(@DefaultValue("md5") String hash, @DefaultValue("128") int vnodesPerWeight,
        @DefaultValue("ring") String algorithm, @DefaultValue("65537") int maglevTableSize) {

    public RingSettings toSettings() {
        return new RingSettings(hash, vnodesPerWeight, algorithm, maglevTableSize);
    }
}
