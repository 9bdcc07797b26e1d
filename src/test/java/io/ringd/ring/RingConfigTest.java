package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Settings to config: every supported combination builds, every bad value is refused by name. */
class RingConfigTest {

    @ParameterizedTest
    @CsvSource({
        "md5,     ring,   RING,   md5",
        "murmur3, ring,   RING,   murmur3",
        "sha256,  ring,   RING,   sha256",
        "ketama,  ring,   KETAMA, ketama",
        "md5,     maglev, MAGLEV, md5",
        "murmur3, maglev, MAGLEV, murmur3",
        "sha256,  maglev, MAGLEV, sha256",
        "ketama,  maglev, MAGLEV, ketama"})
    void of_buildsEveryCombination_andRoundTripsToTheSettings(String hash, String algorithm,
            RingConfig.Algorithm expected, String keyHash) {
        RingConfig config = RingConfig.of(hash, 64, algorithm, 1009);
        assertThat(config.algorithm()).isEqualTo(expected);
        assertThat(config.hash().name()).isEqualTo(keyHash);
        assertThat(config.hashName()).isEqualTo(hash);
        assertThat(config.algorithmName()).isEqualTo(algorithm);
        assertThat(config.vnodesPerWeight()).isEqualTo(64);
        assertThat(config.maglevTableSize()).isEqualTo(1009);
        HashRing ring = HashRing.of(config, 0, List.of(Node.of("a", 1), Node.of("b", 2)));
        assertThat(ring.isTable()).isEqualTo(expected == RingConfig.Algorithm.MAGLEV);
        assertThat(ring.ownership().total()).isEqualTo(HashRing.HASH_SPACE);
        assertThat(RingConfig.of(hash, 64, algorithm, 1009)).isEqualTo(config);
    }

    @Test
    void twoArgumentForms_areTheRingAlgorithm() {
        assertThat(new RingConfig(KeyHashes.md5(), 7)).isEqualTo(new RingConfig(KeyHashes.md5(), 7,
                RingConfig.Algorithm.RING, RingConfig.DEFAULT_MAGLEV_TABLE_SIZE));
        assertThat(RingConfig.of("sha256", 7).algorithm()).isEqualTo(RingConfig.Algorithm.RING);
        assertThat(RingConfig.defaults()).isEqualTo(RingConfig.of("md5", 128, "ring", 65537));
        assertThat(RingConfig.maglev(KeyHashes.murmur3(), 13))
                .isEqualTo(RingConfig.of("murmur3", 128, "maglev", 13));
        assertThat(RingConfig.ketama()).isEqualTo(RingConfig.of("ketama", 128, "ring", 65537));
    }

    @ParameterizedTest
    @ValueSource(strings = {"jump", "Ring", "MAGLEV", "rendezvous", ""})
    void of_refusesAnUnknownAlgorithmNamingIt(String bad) {
        assertThatIllegalArgumentException().isThrownBy(() -> RingConfig.of("md5", 128, bad, 65537))
                .withMessage("algorithm must be one of [ring, maglev]: " + bad);
    }

    @ParameterizedTest
    @ValueSource(strings = {"crc32", "MD5", "Ketama", ""})
    void of_refusesAnUnknownHashNamingIt(String bad) {
        assertThatIllegalArgumentException().isThrownBy(() -> RingConfig.of(bad, 128, "maglev", 65537))
                .withMessage("hash must be one of [md5, murmur3, sha256, ketama]: " + bad);
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 0, 1, 4, 65536, 65535, 5_000_012, 5_000_023, Integer.MAX_VALUE})
    void maglevTableSize_mustBeAPrimeNoLargerThan5000011(int bad) {
        assertThatIllegalArgumentException().isThrownBy(() -> RingConfig.of("md5", 128, "ring", bad))
                .withMessageContaining("maglevTableSize").withMessageEndingWith(": " + bad);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 13, 1009, 65521, 65537, 5_000_011})
    void maglevTableSize_primesAreTaken(int m) {
        assertThat(RingConfig.of("md5", 128, "maglev", m).maglevTableSize()).isEqualTo(m);
    }

    @Test
    void vnodesPerWeight_isCheckedForEveryAlgorithm() {
        assertThatIllegalArgumentException().isThrownBy(() -> RingConfig.of("ketama", 0, "ring", 65537))
                .withMessage("vnodesPerWeight must be in [1, 4096]: 0");
        assertThatIllegalArgumentException().isThrownBy(() -> RingConfig.of("md5", 4097, "maglev", 65537))
                .withMessage("vnodesPerWeight must be in [1, 4096]: 4097");
    }
}
