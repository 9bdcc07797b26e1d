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
 */
@Schema(name = "SettingsRequest", description = "Ring settings to change; absent fields keep their value")
record SettingsRequest(
        @Schema(nullable = true, allowableValues = {"md5", "murmur3", "sha256", "ketama"}, example = "murmur3")
        String hash,
        @Schema(nullable = true, minimum = "1", maximum = "4096", example = "256") Integer vnodesPerWeight,
        @Schema(nullable = true, allowableValues = {"ring", "maglev"}, example = "ring") String algorithm,
        @Schema(nullable = true, minimum = "1009", maximum = "5000011", example = "65537") Integer maglevTableSize) {

    SettingsPatch toPatch() {
        return new SettingsPatch(hash, vnodesPerWeight, algorithm, maglevTableSize);
    }
}
