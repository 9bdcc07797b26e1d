package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The worked examples of docs/ring.md, so the document cannot drift from
 * the code. Every expected value was computed outside ringd (Python's
 * hashlib and a from-scratch ring in Python).
 */
class RingDocExamplesTest {

    private static final long SPACE = 1L << 32;

    /** a and b in zone z1, c in z2, d without a zone; md5, one point per unit of weight. */
    private static HashRing fourNodes() {
        return HashRing.of(new RingConfig(KeyHashes.md5(), 1), 0, List.of(
                new Node("a", 1, "z1"), new Node("b", 1, "z1"), new Node("c", 1, "z2"), Node.of("d", 1)));
    }

    @Test
    void fourNodes_pointsAndOwners() {
        HashRing ring = fourNodes();
        assertThat(RingPropertiesTest.pointsOf(ring)).containsExactly(0x0dec7a13L, 0x1e592305L, 0xd83aa185L, 0xe1b82973L);
        assertThat(RingPropertiesTest.ownersOf(ring)).containsExactly("c", "b", "a", "d");
    }

    @Test
    void fourNodes_routeAndPreference() {
        HashRing ring = fourNodes();
        assertThat(ring.hash("user:42")).isEqualTo(0x56dadf18L);
        assertThat(ring.route("user:42")).isEqualTo("a");
        assertThat(ring.preference("user:42", 3)).containsExactly("a", "d", "c");
        assertThat(ring.preference("user:42", 3, true)).containsExactly("a", "d", "c");

        assertThat(ring.hash("user:2")).isEqualTo(0xfbb798c2L);
        assertThat(ring.route("user:2")).as("past the last point: wraps to c").isEqualTo("c");
        assertThat(ring.preference("user:2", 3)).containsExactly("c", "b", "a");
        assertThat(ring.preference("user:2", 3, true)).containsExactly("c", "b", "d");
        assertThat(ring.preference("user:2", 4, true)).containsExactly("c", "b", "d", "a");
    }

    @Test
    void fourNodes_ownership() {
        assertThat(RingPropertiesTest.countsOf(fourNodes())).containsExactly(
                java.util.Map.entry("a", 3118562944L), java.util.Map.entry("b", 275556594L),
                java.util.Map.entry("c", 741626016L), java.util.Map.entry("d", 159221742L));
        assertThat(3118562944L + 275556594L + 741626016L + 159221742L).isEqualTo(SPACE);
    }

    @Test
    void fourNodes_diffs() {
        HashRing ring = fourNodes();
        RingDiff addE = HashRing.diff(ring, ring.put(Node.of("e", 1)));
        assertThat(ring.put(Node.of("e", 1)).hash("e#0")).isEqualTo(3625453908L);
        assertThat(addE.ranges()).containsExactly(new RingDiff.Range(509158150L, 3625453908L, "a", "e"));
        assertThat(addE.movedCount()).isEqualTo(3116295759L);

        RingDiff removeA = HashRing.diff(ring, ring.remove("a"));
        assertThat(removeA.ranges()).containsExactly(new RingDiff.Range(509158150L, 3627721093L, "a", "d"));
        assertThat(removeA.movedCount()).isEqualTo(3118562944L);

        RingDiff removeC = HashRing.diff(ring, ring.remove("c"));
        assertThat(removeC.ranges()).containsExactly(
                new RingDiff.Range(0, 233601555L, "c", "b"),
                new RingDiff.Range(3786942836L, 4294967295L, "c", "b"));
        assertThat(removeC.flows()).containsExactly(new RingDiff.Flow("c", "b", 741626016L));
        assertThat(removeC.toVersion()).isEqualTo(1);
    }

    @Test
    void fingerprint_twoNodesTwoPointsEach() {
        HashRing ring = HashRing.of(new RingConfig(KeyHashes.md5(), 2), 0, List.of(Node.of("A", 1), Node.of("B", 1)));
        // 89eb6262 "B" 0a, 9c98ba8f "A" 0a, b10197eb "B" 0a, f87ef636 "A" 0a
        assertThat(RingPropertiesTest.pointsOf(ring)).containsExactly(0x89eb6262L, 0x9c98ba8fL, 0xb10197ebL, 0xf87ef636L);
        assertThat(RingPropertiesTest.ownersOf(ring)).containsExactly("B", "A", "B", "A");
        assertThat(ring.fingerprint()).isEqualTo("ba2bfca34fab032bb212c633ab59ce3a4d26112dce943e4d9e93a3e56c65b6ae");
    }

    @Test
    void fingerprint_oneNodeOnePoint() {
        HashRing ring = HashRing.of(new RingConfig(KeyHashes.md5(), 1), 0, List.of(Node.of("A", 1)));
        // sha256(f8 7e f6 36 41 0a)
        assertThat(ring.fingerprint()).isEqualTo("d061c2a10fdbb3829cb6ea53e23cf116f6c1a4bbafa6abff80e101cd32e587db");
        assertThat(ring.put(new Node("A", 1, "z")).fingerprint()).as("zones are not covered")
                .isEqualTo(ring.fingerprint());
    }
}
