package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Versions, batches, refused changes and the node and point limits. */
class RingChangesTest {

    /** A cheap, well-mixed hash for rings with millions of points. */
    private static final KeyHash CHEAP = key -> {
        int h = key.hashCode() * 0x9E3779B1;
        return h ^ (h >>> 15);
    };

    private static HashRing abc() {
        return HashRing.of(RingConfig.defaults(), 0,
                List.of(Node.of("a", 1), Node.of("b", 1), new Node("c", 2, "z1")));
    }

    // ------------------------------------------------------------ versions

    @Test
    void eachAcceptedChange_isOneVersionMore() {
        HashRing r = HashRing.empty();
        assertThat(r.version()).isZero();
        r = r.put(Node.of("a", 1));
        assertThat(r.version()).isEqualTo(1);
        r = r.put(Node.of("b", 1));
        assertThat(r.version()).isEqualTo(2);
        r = r.put(Node.of("a", 3));
        assertThat(r.version()).isEqualTo(3);
        r = r.put(new Node("a", 3, "z"));
        assertThat(r.version()).as("a zone change is a change").isEqualTo(4);
        r = r.remove("b");
        assertThat(r.version()).isEqualTo(5);
        r = r.withConfig(RingConfig.of("sha256", 128));
        assertThat(r.version()).as("a settings change is a change").isEqualTo(6);
        r = r.remove("a");
        assertThat(r.version()).isEqualTo(7);
        assertThat(r.isEmpty()).isTrue();
    }

    @Test
    void batch_isOneVersion() {
        HashRing before = abc();
        HashRing after = before.apply(List.of(
                Change.put(Node.of("d", 1)), Change.remove("a"), Change.put(Node.of("b", 2)), Change.put(Node.of("e", 1))));
        assertThat(after.version()).isEqualTo(before.version() + 1);
        assertThat(after.nodes()).extracting(Node::id).containsExactly("b", "c", "d", "e");
        assertThat(after.node("b").orElseThrow().weight()).isEqualTo(2.0);
    }

    @Test
    void noOpChange_returnsTheSameRingAtTheSameVersion() {
        HashRing ring = abc().put(Node.of("d", 1));
        assertThat(ring.version()).isEqualTo(1);
        assertThat(ring.put(Node.of("a", 1.0))).isSameAs(ring);
        assertThat(ring.put(new Node("c", 2e0, "z1"))).isSameAs(ring);
        assertThat(ring.apply(List.of())).isSameAs(ring);
        assertThat(ring.apply(List.of(Change.put(Node.of("a", 1)), Change.put(new Node("c", 2, "z1"))))).isSameAs(ring);
        assertThat(ring.withConfig(RingConfig.of("md5", 128))).isSameAs(ring);
        assertThat(ring.put(new Node("c", 2, null))).as("dropping the zone is a change").isNotSameAs(ring);
    }

    @Test
    void batchWithARealChangeAmongNoOps_isOneVersion() {
        HashRing ring = abc();
        HashRing after = ring.apply(List.of(Change.put(Node.of("a", 1)), Change.put(Node.of("b", 1.5))));
        assertThat(after.version()).isEqualTo(1);
        assertThat(after.node("b").orElseThrow().weight()).isEqualTo(1.5);
    }

    @Test
    void snapshots_stayValidAfterChanges() {
        HashRing before = abc();
        String fingerprint = before.fingerprint();
        List<String> routes = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            routes.add(before.route("k" + i));
        }
        before.remove("a").put(Node.of("z", 5)).apply(List.of(Change.remove("b")));
        assertThat(fingerprintOfPointsNow(before)).as("the old snapshot's points and owners, read again")
                .isEqualTo(fingerprint);
        assertThat(before.nodeCount()).isEqualTo(3);
        for (int i = 0; i < 100; i++) {
            assertThat(before.route("k" + i)).isEqualTo(routes.get(i));
        }
    }

    // ------------------------------------------------------------ refused changes

    @Test
    void batchWithAnIdTwice_isRefusedAndChangesNothing() {
        HashRing ring = abc();
        for (List<Change> batch : List.of(
                List.of(Change.put(Node.of("d", 1)), Change.put(Node.of("d", 2))),
                List.of(Change.put(Node.of("a", 2)), Change.remove("a")),
                List.of(Change.remove("a"), Change.remove("a")),
                List.of(Change.put(Node.of("x", 1)), Change.remove("b"), Change.put(Node.of("x", 1))))) {
            String twice = batch.get(batch.size() - 1).id();
            assertThatThrownBy(() -> ring.apply(batch)).as("%s", batch)
                    .isInstanceOfSatisfying(RingException.InvalidBatch.class, e -> assertThat(e.id()).isEqualTo(twice))
                    .hasMessageContaining(twice);
            assertUnchanged(ring, abc());
        }
    }

    @Test
    void removingAnAbsentId_isUnknownNode() {
        HashRing ring = abc();
        assertThatThrownBy(() -> ring.remove("ghost"))
                .isInstanceOfSatisfying(RingException.UnknownNode.class, e -> assertThat(e.id()).isEqualTo("ghost"))
                .hasMessageContaining("ghost");
        assertThatThrownBy(() -> ring.apply(List.of(Change.put(Node.of("d", 1)), Change.remove("A"))))
                .as("ids are case-sensitive; the whole batch is refused")
                .isInstanceOfSatisfying(RingException.UnknownNode.class, e -> assertThat(e.id()).isEqualTo("A"));
        assertThatThrownBy(() -> HashRing.empty().remove("a")).isInstanceOf(RingException.UnknownNode.class);
        assertUnchanged(ring, abc());
        assertThat(ring.contains("d")).isFalse();
    }

    @Test
    void of_refusesDuplicateIdsAndNegativeVersions() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> HashRing.of(RingConfig.defaults(), 0, List.of(Node.of("a", 1), Node.of("a", 2))))
                .withMessageContaining("a");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> HashRing.of(RingConfig.defaults(), -1, List.of()))
                .withMessageEndingWith(": -1");
        assertThat(HashRing.of(RingConfig.defaults(), 42, List.of(Node.of("a", 1))).version()).isEqualTo(42);
    }

    // ------------------------------------------------------------ limits

    @Test
    void pointLimit_changePast4000000PointsIsRefusedAndChangesNothing() {
        HashRing ring = HashRing.of(new RingConfig(KeyHashes.md5(), 4096), 3, List.of(Node.of("a", 1)));
        Node big = Node.of("big", 1000); // 4,096,000 points
        assertThat(big.pointCount(4096)).isEqualTo(4_096_000).isGreaterThan(HashRing.MAX_POINTS);
        assertThatThrownBy(() -> ring.put(big))
                .isInstanceOf(RingException.LimitExceeded.class)
                .hasMessageContaining("4000000")
                .hasMessageContaining("4100096");
        assertThatThrownBy(() -> ring.apply(List.of(Change.put(Node.of("b", 500)), Change.put(Node.of("c", 500)))))
                .as("a batch counts all its points").isInstanceOf(RingException.LimitExceeded.class);
        assertThatThrownBy(() -> HashRing.of(new RingConfig(KeyHashes.md5(), 4096), 0, List.of(big)))
                .isInstanceOf(RingException.LimitExceeded.class);
        assertUnchanged(ring, HashRing.of(new RingConfig(KeyHashes.md5(), 4096), 3, List.of(Node.of("a", 1))));
    }

    @Test
    void pointLimit_exactly4000000PointsIsAcceptedOneMoreIsNot() {
        RingConfig config = new RingConfig(CHEAP, 4000);
        HashRing ring = HashRing.empty(config).put(Node.of("a", 999.75)); // 3,999,000 points
        ring = ring.put(Node.of("b", 0.25)); // 1,000 more: exactly 4,000,000
        assertThat(ring.vnodeCount()).isEqualTo(HashRing.MAX_POINTS);
        HashRing full = ring;
        assertThatThrownBy(() -> full.put(Node.of("c", 1e-9)))
                .isInstanceOf(RingException.LimitExceeded.class).hasMessageContaining("4000001");
        assertThatThrownBy(() -> full.put(Node.of("b", 0.25025)))
                .as("reweighting up counts too").isInstanceOf(RingException.LimitExceeded.class);
        assertThat(full.put(Node.of("b", 0.2)).vnodeCount()).as("reweighting down is fine").isEqualTo(3_999_800);
        assertThat(full.version()).isEqualTo(2);
    }

    @Test
    void settingsChangePastThePointLimit_isRefusedAndChangesNothing() {
        HashRing ring = HashRing.of(RingConfig.defaults(), 5, List.of(Node.of("a", 1000))); // 128,000 points
        assertThatThrownBy(() -> ring.withConfig(new RingConfig(KeyHashes.md5(), 4096)))
                .isInstanceOf(RingException.LimitExceeded.class).hasMessageContaining("4096000");
        assertUnchanged(ring, HashRing.of(RingConfig.defaults(), 5, List.of(Node.of("a", 1000))));
    }

    @Test
    void nodeLimit_the10001thNodeIsRefusedAndChangesNothing() {
        RingConfig config = new RingConfig(CHEAP, 1);
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < HashRing.MAX_NODES; i++) {
            nodes.add(Node.of("n" + i, 1));
        }
        HashRing full = HashRing.of(config, 7, nodes);
        assertThat(full.nodeCount()).isEqualTo(10_000);
        String fingerprint = full.fingerprint();
        assertThatThrownBy(() -> full.put(Node.of("one-more", 1)))
                .isInstanceOf(RingException.LimitExceeded.class)
                .hasMessageContaining("10000").hasMessageContaining("10001");
        assertThatThrownBy(() -> full.apply(List.of(Change.remove("n0"), Change.put(Node.of("x", 1)),
                Change.put(Node.of("y", 1))))).isInstanceOf(RingException.LimitExceeded.class);
        List<Node> tooMany = new ArrayList<>(nodes);
        tooMany.add(Node.of("one-more", 1));
        assertThatThrownBy(() -> HashRing.of(config, 0, tooMany)).isInstanceOf(RingException.LimitExceeded.class);
        assertThat(fingerprintOfPointsNow(full)).isEqualTo(fingerprint);
        assertThat(full.version()).isEqualTo(7);
        assertThat(full.nodeCount()).isEqualTo(10_000);
        HashRing swapped = full.apply(List.of(Change.remove("n0"), Change.put(Node.of("x", 1))));
        assertThat(swapped.nodeCount()).as("a swap within the limit is fine").isEqualTo(10_000);
        assertThat(swapped.version()).isEqualTo(8);
    }

    /**
     * The fingerprint of the points and owners {@code ring} holds now, worked
     * out here from {@link HashRing#pointAt(int)} and {@link HashRing#ownerAt(int)}:
     * {@link HashRing#fingerprint()} is computed once and cached, so calling
     * it again could not show a later change to the ring's arrays.
     */
    private static String fingerprintOfPointsNow(HashRing ring) {
        return RingPropertiesTest.fingerprintOf(RingPropertiesTest.pointsOf(ring), RingPropertiesTest.ownersOf(ring));
    }

    private static void assertUnchanged(HashRing ring, HashRing likeBefore) {
        assertThat(ring.fingerprint()).isEqualTo(likeBefore.fingerprint());
        assertThat(ring.version()).isEqualTo(likeBefore.version());
        assertThat(ring.nodes()).isEqualTo(likeBefore.nodes());
    }
}
