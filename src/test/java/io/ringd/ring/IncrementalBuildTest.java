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
        HashRing down = once.put(Node.of("c", 0.25)); // 16 -> 4: the dropped 4..15 hashed to take them out
        assertThat(hash.labels).containsExactlyElementsOf(labels("c", 4, 16));
        hash.reset();
        HashRing up = down.put(Node.of("c", 0.75)); // 4 -> 12: only 4..11, none reused from before the drop
        assertThat(hash.calls.get()).isEqualTo(8);
        assertThat(hash.labels).containsExactlyElementsOf(labels("c", 4, 12));
        assertSameAsFromScratch(up);
    }

    @Test
    void reweightDown_hashesOnlyTheDroppedSuffix() {
        HashRing after = base.put(new Node("b", 0.5, "z1")); // 32 -> 8 points
        assertThat(hash.labels).containsExactlyElementsOf(labels("b", 8, 32));
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
                Change.put(new Node("b", 1, "z2")),   // 32 -> 16: the dropped 16
                Change.remove("a"),                   // 0
                Change.put(Node.of("f", 1e-9))));     // new: 1
        assertThat(hash.calls.get()).isEqualTo(16 + 4 + 16 + 1);
        List<String> expected = new ArrayList<>(labels("e", 0, 16));
        expected.addAll(labels("c", 8, 12));
        expected.addAll(labels("b", 16, 32));
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

    /**
     * Under a hash of 64 values every node hashes some point twice and
     * shares points with others: random batches of joins, reweights up and
     * down, zone and hashKey changes and removals, each checked against the same
     * membership built from scratch (points, owners, vnodes, preference).
     */
    @Test
    void weakHash_randomBatches_sameAsFromScratch() {
        long seed = RingTesting.seed("weakHash_randomBatches_sameAsFromScratch");
        java.util.Random rnd = new java.util.Random(seed);
        KeyHash weak = key -> Integer.rotateLeft(KeyHashes.md5().hash(key) & 63, 26);
        RingConfig weakConfig = new RingConfig(weak, 8);
        HashRing ring = HashRing.empty(weakConfig);
        for (int step = 0; step < 300; step++) {
            List<Change> batch = new ArrayList<>();
            java.util.Set<String> ids = new java.util.HashSet<>();
            for (int c = 1 + rnd.nextInt(3); c > 0; c--) {
                String id = "n" + rnd.nextInt(12);
                if (!ids.add(id)) {
                    continue;
                }
                if (ring.contains(id) && rnd.nextInt(4) == 0) {
                    batch.add(Change.remove(id));
                } else {
                    double weight = 0.125 * (1 + rnd.nextInt(40));
                    String hashKey = rnd.nextInt(4) == 0 ? "key/" + id + "/" + rnd.nextInt(3) : null;
                    batch.add(Change.put(new Node(id, weight, rnd.nextBoolean() ? null : "z" + rnd.nextInt(3),
                            hashKey)));
                }
            }
            ring = ring.apply(batch);
            HashRing fresh = HashRing.of(weakConfig, ring.version(), ring.nodes());
            String at = "seed " + seed + ", step " + step;
            assertThat(RingPropertiesTest.pointsOf(ring)).as(at).isEqualTo(RingPropertiesTest.pointsOf(fresh));
            assertThat(RingPropertiesTest.ownersOf(ring)).as(at).isEqualTo(RingPropertiesTest.ownersOf(fresh));
            assertThat(ring.vnodeCount()).as(at).isEqualTo(fresh.vnodeCount());
            if (!ring.isEmpty()) {
                for (long h = 0; h < HashRing.HASH_SPACE; h += HashRing.HASH_SPACE / 16) {
                    assertThat(ring.preferenceHash(h, 5, true)).as(at).isEqualTo(fresh.preferenceHash(h, 5, true));
                }
                // the next change must see the same shadowed entries too
                HashRing grown = ring.put(Node.of("probe", 2));
                assertThat(RingPropertiesTest.ownersOf(grown)).as(at + ", probe").isEqualTo(
                        RingPropertiesTest.ownersOf(HashRing.of(weakConfig, 0, grown.nodes())));
            }
        }
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
