package io.ringd.membership;

import io.ringd.state.SettingsPatch;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The body of {@code PUT /settings}: absent fields keep their value.
 *
 * @param hash            {@code md5}, {@code murmur3} or {@code sha256}
 * @param vnodesPerWeight points per unit of weight, 1 to 4096
 * @param algorithm       {@code ring}
 * @param maglevTableSize a prime between 1,009 and 5,000,011
 * @param ketamaFlavor    with hash ketama: {@code libketama}, {@code libmemcached} or {@code hashring}
 */
@Schema(name = "SettingsRequest", description = "Ring settings to change; absent fields keep their value")
record SettingsRequest(
        @Schema(nullable = true, allowableValues = {"md5", "murmur3", "sha256", "ketama"}, example = "murmur3")
        String hash,
        @Schema(nullable = true, minimum = "1", maximum = "4096", example = "256") Integer vnodesPerWeight,
        @Schema(nullable = true, allowableValues = {"ring", "maglev"}, example = "ring") String algorithm,
        @Schema(nullable = true, minimum = "1009", maximum = "5000011", example = "65537") Integer maglevTableSize,
        @Schema(nullable = true, allowableValues = {"libketama", "libmemcached", "hashring"},
                description = "With hash ketama only: how a weighted node's digests are counted, as libketama, "
                        + "libmemcached's ketama_weighted and spymemcached, or npm hashring do. A ring that comes to "
                        + "hash ketama without naming one counts as libketama; one that leaves ketama drops it",
                example = "libmemcached") String ketamaFlavor) {

    SettingsPatch toPatch() {
        return new SettingsPatch(hash, vnodesPerWeight, algorithm, maglevTableSize, ketamaFlavor);
    }
}
