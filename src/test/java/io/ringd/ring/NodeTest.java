package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Node ids, zones and weights are checked at the boundary, naming the bad value. */
class NodeTest {

    private static final String ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-:@";

    @ParameterizedTest
    @ValueSource(strings = {"", "a b", " a", "a ", "a/b", "/", "a#0", "#", "naïve", "ключ", "node🙂",
            "a\tb", "a\nb", "a,b", "a%20", "a+b", "a;b", "a*", "é"})
    void id_refusesBadCharactersNamingTheId(String bad) {
        assertThatIllegalArgumentException().isThrownBy(() -> Node.of(bad, 1))
                .withMessageContaining("node id")
                .withMessageEndingWith(": \"" + bad + "\"");
        assertThatIllegalArgumentException().isThrownBy(() -> Change.remove(bad))
                .withMessageEndingWith(": \"" + bad + "\"");
        assertThatIllegalArgumentException().isThrownBy(() -> Node.checkId(bad))
                .withMessageEndingWith(": \"" + bad + "\"");
    }

    @Test
    void id_refusesNull() {
        assertThatIllegalArgumentException().isThrownBy(() -> Node.of(null, 1)).withMessageEndingWith(": null");
    }

    @Test
    void id_of201CharactersRefused_200Accepted() {
        String ok = "a".repeat(199) + "Z";
        assertThat(Node.of(ok, 1).id()).hasSize(200);
        String bad = "b".repeat(200) + "Z";
        assertThat(bad).hasSize(201);
        // long values are shown cut to their first 64 characters
        assertThatIllegalArgumentException().isThrownBy(() -> Node.of(bad, 1))
                .withMessageContaining("\"" + "b".repeat(64) + "...\"");
        assertThatIllegalArgumentException().isThrownBy(() -> new Node("a", 1, bad))
                .withMessageContaining("zone")
                .withMessageContaining("\"" + "b".repeat(64) + "...\"");
        assertThat(new Node("a", 1, ok).zone()).hasSize(200);
    }

    @Test
    void id_acceptsTheWholeAlphabetCaseSensitively() {
        assertThat(Node.of(ALPHABET, 1).id()).isEqualTo(ALPHABET);
        for (char c : ALPHABET.toCharArray()) {
            assertThat(Node.of(String.valueOf(c), 1).id()).isEqualTo(String.valueOf(c));
        }
        assertThat(Node.of("host-1.example.com:11211", 1).id()).isEqualTo("host-1.example.com:11211");
        assertThat(Node.of("user@10.0.0.1:8080", 1).id()).isEqualTo("user@10.0.0.1:8080");
        HashRing ring = HashRing.empty().put(Node.of("A", 1)).put(Node.of("a", 1));
        assertThat(ring.nodeCount()).as("ids are case-sensitive").isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "eu 1a", "eu/1a", "eu#1", "zoné", "z\n"})
    void zone_refusesBadCharactersNamingTheZone(String bad) {
        assertThatIllegalArgumentException().isThrownBy(() -> new Node("a", 1, bad))
                .withMessageContaining("zone")
                .withMessageEndingWith(": \"" + bad + "\"");
    }

    @Test
    void zone_nullIsNoZone() {
        assertThat(Node.of("a", 1).zone()).isNull();
        assertThat(new Node("a", 1, "eu-1a:b@c.d_e").zone()).isEqualTo("eu-1a:b@c.d_e");
    }

    @ParameterizedTest
    @CsvSource({
        "0, 0.0",
        "-0.0, -0.0",
        "-1, -1.0",
        "-1e-300, -1.0E-300",
        "NaN, NaN",
        "Infinity, Infinity",
        "-Infinity, -Infinity",
        "10000.0001, 10000.0001",
        "10001, 10001.0",
        "1e300, 1.0E300"})
    void weight_refusedOutsideZeroToTenThousandNamingIt(String given, String shown) {
        double w = Double.parseDouble(given);
        assertThatIllegalArgumentException().isThrownBy(() -> Node.of("a", w))
                .withMessage("weight must be in (0, 10000]: " + shown);
    }

    @Test
    void weight_tenThousandAndTinyAccepted() {
        assertThat(Node.of("a", 10_000).weight()).isEqualTo(10_000.0);
        assertThat(Node.of("a", Node.MAX_WEIGHT).weight()).isEqualTo(10_000.0);
        assertThat(Node.of("a", Math.nextDown(10_000.0)).weight()).isLessThan(10_000.0);
        assertThat(Node.of("a", 1e-9).weight()).isEqualTo(1e-9);
        assertThat(Node.of("a", Double.MIN_VALUE).weight()).isPositive();
        assertThat(Node.of("a", Double.MIN_VALUE).pointCount(4096)).isEqualTo(1);
    }

    @Test
    void weight_oneOnePointZeroAndOneE0AreTheSameWeight() {
        List<Node> same = List.of(
                Node.of("a", Double.parseDouble("1")),
                Node.of("a", Double.parseDouble("1.0")),
                Node.of("a", Double.parseDouble("1e0")),
                Node.of("a", Double.parseDouble("1.000")),
                Node.of("a", Double.parseDouble("0.1e1")));
        HashRing ring = HashRing.empty().put(same.get(0));
        for (Node n : same) {
            assertThat(n).isEqualTo(same.get(0));
            assertThat(ring.put(n)).as("putting %s again changes nothing", n.weight()).isSameAs(ring);
        }
        assertThat(ring.put(Node.of("a", Math.nextUp(1.0)))).as("the next double is another weight")
                .isNotSameAs(ring);
    }

    /**
     * k = max(1, round(vnodesPerWeight * weight)), the product in double
     * arithmetic and rounded half up; expected values worked out by hand and
     * checked with Python floats.
     */
    @ParameterizedTest(name = "{0} x {1} -> {2}")
    @CsvSource({
        "128, 1, 128",
        "128, 0.5, 64",
        "3, 0.5, 2",          // 1.5 rounds up
        "10, 0.25, 3",        // 2.5 rounds up, not to even
        "1, 2.5, 3",
        "5, 0.1, 1",          // 0.5 rounds up
        "1, 0.49, 1",         // rounds to 0, at least 1
        "128, 1e-9, 1",
        "128, 0.3, 38",       // 38.4
        "100, 1.005, 100",    // 100.49999999999999 in doubles, 100.5 in decimal
        "1000, 2.0005, 2001", // 2000.5000000000002
        "100, 0.035, 4",      // 3.5000000000000004
        "4096, 10000, 40960000",
        "1, 10000, 10000"})
    void pointCount_isMaxOneAndRoundedProduct(int vnodesPerWeight, double weight, long expected) {
        assertThat(Node.of("a", weight).pointCount(vnodesPerWeight)).isEqualTo(expected);
    }

    @Test
    void pointCount_isWhatTheRingPlaces() {
        RingConfig config = new RingConfig(KeyHashes.md5(), 100);
        HashRing ring = HashRing.of(config, 0, List.of(Node.of("a", 1.005), Node.of("b", 2.0005), Node.of("c", 1e-9)));
        assertThat(ring.vnodeCount()).isEqualTo(100 + 200 + 1);
        assertThat(ring.pointCount()).isEqualTo(new LinearScanRing(KeyHashes.md5(), 100, ring.nodes()).points.length);
    }

    @Test
    void ringConfig_refusesVnodesPerWeightOutsideOneTo4096() {
        assertThatIllegalArgumentException().isThrownBy(() -> new RingConfig(KeyHashes.md5(), 0))
                .withMessageEndingWith(": 0");
        assertThatIllegalArgumentException().isThrownBy(() -> new RingConfig(KeyHashes.md5(), 4097))
                .withMessageEndingWith(": 4097");
        assertThat(new RingConfig(KeyHashes.md5(), 1).vnodesPerWeight()).isEqualTo(1);
        assertThat(new RingConfig(KeyHashes.md5(), 4096).vnodesPerWeight()).isEqualTo(4096);
    }
}
