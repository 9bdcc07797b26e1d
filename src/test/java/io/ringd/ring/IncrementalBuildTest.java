package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A change hashes only the points a node gains: a counting hash sees exactly
 * the new labels, and the result is the ring built from scratch.
 */
class IncrementalBuildTest {

    private static final int VPW = 16;

    private RingTesting.CountingHash hash;
    private RingConfig config;
    private HashRing base;

    @BeforeEach
    void threeNodes() {
        hash = new RingTesting.CountingHash();
        config = new RingConfig(hash, VPW);
        base = HashRing.of(config, 0, List.of(Node.of("a", 1), new Node("b", 2, "z1"), Node.of("c", 0.5)));
        assertThat(hash.calls.get()).as("built from scratch: every point once").isEqualTo(16 + 32 + 8);
        hash.reset();
    }

    @Test
    void add_hashesExactlyTheNewNodesPoints() {
        HashRing after = base.put(Node.of("d", 2.5)); // 40 points
        assertThat(hash.calls.get()).isEqualTo(40);
        assertThat(hash.labels).containsExactlyElementsOf(labels("d", 0, 40));
        assertSameAsFromScratch(after);
    }

    @Test
    void reweightUp_hashesOnlyTheNewSuffix() {
        HashRing after = base.put(Node.of("a", 2.25)); // 16 -> 36 points
        assertThat(hash.calls.get()).isEqualTo(36 - 16);
        assertThat(hash.labels).containsExactlyElementsOf(labels("a", 16, 36));
        assertSameAsFromScratch(after);
    }

    @Test
    void reweightUpTwice_eachStepHashesOnlyItsSuffix() {
        HashRing once = base.put(Node.of("c", 1)); // 8 -> 16
        assertThat(hash.calls.get()).isEqualTo(8);
        hash.reset();
        HashRing down = once.put(Node.of("c", 0.25)); // 16 -> 4
        assertThat(hash.calls.get()).isZero();
        HashRing up = down.put(Node.of("c", 0.75)); // 4 -> 12: only 4..11, none reused from before the drop
        assertThat(hash.calls.get()).isEqualTo(8);
        assertThat(hash.labels).containsExactlyElementsOf(labels("c", 4, 12));
        assertSameAsFromScratch(up);
    }

    @Test
    void reweightDown_hashesNothing() {
        HashRing after = base.put(new Node("b", 0.5, "z1")); // 32 -> 8 points
        assertThat(hash.calls.get()).isZero();
        assertThat(after.vnodeCount()).isEqualTo(16 + 8 + 8);
        assertSameAsFromScratch(after);
    }

    @Test
    void remove_hashesNothing() {
        HashRing after = base.remove("b");
        assertThat(hash.calls.get()).isZero();
        assertThat(after.vnodeCount()).isEqualTo(16 + 8);
        assertSameAsFromScratch(after);
    }

    @Test
    void zoneChange_hashesNothing() {
        HashRing after = base.put(new Node("a", 1, "z9"));
        assertThat(hash.calls.get()).isZero();
        assertThat(after.version()).isEqualTo(base.version() + 1);
        assertSameAsFromScratch(after);
    }

    @Test
    void batch_hashesTheSumOfNewPoints() {
        HashRing after = base.apply(List.of(
                Change.put(Node.of("e", 1)),          // new: 16
                Change.put(Node.of("c", 0.75)),       // 8 -> 12: 4
                Change.put(new Node("b", 1, "z2")),   // 32 -> 16: 0
                Change.remove("a"),                   // 0
                Change.put(Node.of("f", 1e-9))));     // new: 1
        assertThat(hash.calls.get()).isEqualTo(16 + 4 + 1);
        List<String> expected = new ArrayList<>(labels("e", 0, 16));
        expected.addAll(labels("c", 8, 12));
        expected.add("f#0");
        assertThat(hash.labels).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(after.version()).isEqualTo(base.version() + 1);
        assertSameAsFromScratch(after);
    }

    @Test
    void lookups_hashOnlyTheKey() {
        base.route("user:42");
        assertThat(hash.labels).containsExactly("user:42");
    }

    private void assertSameAsFromScratch(HashRing after) {
        LinearScanRing oracle = new LinearScanRing(KeyHashes.md5(), VPW, after.nodes());
        assertThat(RingPropertiesTest.pointsOf(after)).containsExactly(oracle.points);
        assertThat(RingPropertiesTest.ownersOf(after)).containsExactly(oracle.owners);
        assertThat(after.fingerprint()).isEqualTo(RingPropertiesTest.fingerprintOf(oracle));
    }

    private static List<String> labels(String id, int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(id + "#" + i);
        }
        return out;
    }
}
