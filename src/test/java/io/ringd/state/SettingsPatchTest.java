package io.ringd.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import io.ringd.ring.RingDiff;
import io.ringd.store.MemoryRingStore;

/** Settings: every hash and algorithm accepted, every value checked by name, a switch is one exact version. */
class SettingsPatchTest {

    @ParameterizedTest
    @CsvSource({"md5, ring", "murmur3, ring", "sha256, ring", "ketama, ring",
        "md5, maglev", "murmur3, maglev", "sha256, maglev", "ketama, maglev"})
    void everyHashAndAlgorithm_isAccepted_andMapsToTheLibrary(String hash, String algorithm) {
        RingSettings s = new SettingsPatch(hash, null, algorithm, null).applyTo(RingSettings.defaults());
        assertThat(s).isEqualTo(new RingSettings(hash, 128, algorithm, 65537));
        RingConfig config = s.toConfig();
        assertThat(config.hashName()).isEqualTo(hash);
        assertThat(config.algorithmName()).isEqualTo(algorithm);
        assertThat(config.maglevTableSize()).isEqualTo(65537);
    }

    @ParameterizedTest
    @CsvSource(delimiterString = "|", textBlock = """
            crc32  |        |        | hash            | hash must be one of [md5, murmur3, sha256, ketama]: crc32
            Ketama |        |        | hash            | hash must be one of [md5, murmur3, sha256, ketama]: Ketama
                   | jump   |        | algorithm       | algorithm must be one of [ring, maglev]: jump
                   | Maglev |        | algorithm       | algorithm must be one of [ring, maglev]: Maglev
                   |        | 1000   | maglevTableSize | maglevTableSize must be a prime between 1009 and 5000011: 1000
                   |        | 1007   | maglevTableSize | maglevTableSize must be a prime between 1009 and 5000011: 1007
                   |        | 65536  | maglevTableSize | maglevTableSize must be a prime between 1009 and 5000011: 65536
                   |        | 13     | maglevTableSize | maglevTableSize must be a prime between 1009 and 5000011: 13
                   |        | 5000023| maglevTableSize | maglevTableSize must be a prime between 1009 and 5000011: 5000023
            """)
    void badValues_areRefusedNamingTheFieldAndTheValue(String hash, String algorithm, Integer size, String field,
            String message) {
        assertThatThrownBy(() -> new SettingsPatch(hash, null, algorithm, size).applyTo(RingSettings.defaults()))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo(field))
                .hasMessage(message);
    }

    @Test
    void theSmallestAndLargestTables_areAccepted() {
        assertThat(new SettingsPatch(null, null, "maglev", 1009).applyTo(RingSettings.defaults()).toConfig()
                .maglevTableSize()).isEqualTo(1009);
        assertThat(new SettingsPatch(null, null, "maglev", 5_000_011).applyTo(RingSettings.defaults()).toConfig()
                .maglevTableSize()).isEqualTo(5_000_011);
    }

    @Test
    void switchingAlgorithmOrHash_isOneVersion_whoseDiffIsExact() {
        RingService s = new RingService(new MemoryRingStore(), RingSettings.defaults(), 101, List.of());
        s.apply(List.of(io.ringd.ring.Change.put(Node.of("a", 1)), io.ringd.ring.Change.put(Node.of("b", 2)),
                io.ringd.ring.Change.put(new Node("c", 1, "z1"))), null);
        long v = s.current().version();
        RingState maglev = s.updateSettings(new SettingsPatch(null, null, "maglev", null), null);
        assertThat(maglev.version()).isEqualTo(v + 1);
        assertThat(maglev.ring().isTable()).isTrue();
        RingState ketama = s.updateSettings(new SettingsPatch("ketama", null, "ring", null), null);
        assertThat(ketama.version()).isEqualTo(v + 2);
        assertThat(ketama.ring().config().algorithm()).isEqualTo(RingConfig.Algorithm.KETAMA);
        for (long[] pair : new long[][] {{v, v + 1}, {v + 1, v + 2}, {v, v + 2}}) {
            HashRing from = s.ringAt(pair[0]);
            HashRing to = s.ringAt(pair[1]);
            RingDiff diff = HashRing.diff(from, to);
            long flows = diff.flows().stream().mapToLong(RingDiff.Flow::count).sum();
            assertThat(diff.movedCount()).as("v%d -> v%d", pair[0], pair[1]).isPositive().isEqualTo(flows);
            assertThat(diff.rangesListed()).isEqualTo(!from.isTable() && !to.isTable());
        }
        assertThat(s.updateSettings(new SettingsPatch("ketama", null, "ring", null), null).version())
                .as("the same settings again: no version").isEqualTo(v + 2);
    }
}
