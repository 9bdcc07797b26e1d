package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * Edges of lookups and collisions. Most rings here use an injected hash
 * that puts each vnode where the test says, so expected answers are worked
 * out by hand.
 */
class RingEdgesTest {

    private static final long MAX = RingTesting.MAX_HASH;
    private static final long SPACE = 1L << 32;

    /** One point per node, at the given hash values; keys "h<value>" hash to their value. */
    private static HashRing placed(Map<String, Long> vnodes, Node... nodes) {
        return HashRing.of(new RingConfig(RingTesting.table(vnodes), 1), 0, List.of(nodes));
    }

    private static Map<String, Long> keysAt(long... values) {
        Map<String, Long> out = new java.util.HashMap<>();
        for (long v : values) {
            out.put("h" + v, v);
        }
        return out;
    }

    // ------------------------------------------------------------ one node, one point

    @Test
    void singleNode_ownsEverything() {
        HashRing ring = HashRing.empty().put(Node.of("only", 1));
        assertThat(ring.pointCount()).isEqualTo(128);
        for (String k : List.of("a", "b", "user:42", "🙂", "")) {
            assertThat(ring.route(k)).isEqualTo("only");
            assertThat(ring.preference(k, 3)).containsExactly("only");
            assertThat(ring.preference(k, 3, true)).containsExactly("only");
        }
        assertThat(ring.routeHash(0)).isEqualTo("only");
        assertThat(ring.routeHash(MAX)).isEqualTo("only");
        Ownership.Share s = ring.ownership().shares().get(0);
        assertThat(s.count()).isEqualTo(SPACE);
        assertThat(s.share()).isEqualTo(1.0);
        assertThat(s.points()).isEqualTo(128);
    }

    @Test
    void tinyWeightNode_hasOnePointAndOwnsExactlyItsArc() {
        KeyHash md5 = key -> (int) RingTesting.digest32("MD5", key);
        HashRing ring = HashRing.of(new RingConfig(KeyHashes.md5(), 8), 0,
                List.of(Node.of("big", 1), Node.of("tiny", 1e-9)));
        assertThat(ring.vnodeCount()).isEqualTo(9);
        long p = RingTesting.digest32("MD5", "tiny#0");
        List<Long> bigPoints = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            bigPoints.add(RingTesting.digest32("MD5", "big#" + i));
        }
        Collections.sort(bigPoints);
        long previous = bigPoints.get(bigPoints.size() - 1) - SPACE; // the point before, going round
        for (long b : bigPoints) {
            if (b < p) {
                previous = b;
            }
        }
        Ownership.Share tiny = ring.ownership().shares().get(1);
        assertThat(tiny.node().id()).isEqualTo("tiny");
        assertThat(tiny.points()).isEqualTo(1);
        assertThat(tiny.count()).isEqualTo(p - previous);
        assertThat(ring.routeHash(p)).isEqualTo("tiny");
        assertThat(ring.routeHash(p + 1 > MAX ? 0 : p + 1)).isEqualTo("big");
        assertThat(md5.hash("tiny#0")).isEqualTo(KeyHashes.md5().hash("tiny#0"));
    }

    // ------------------------------------------------------------ lower bound and wrap

    @Test
    void keyOnAPoint_belongsToThatPoint() {
        Map<String, Long> at = keysAt(999, 1000, 1001, 1999, 2000, 2001, 3000, 3001);
        at.putAll(Map.of("a#0", 1000L, "b#0", 2000L, "c#0", 3000L));
        HashRing ring = placed(at, Node.of("a", 1), Node.of("b", 1), Node.of("c", 1));
        assertThat(ring.route("h999")).isEqualTo("a");
        assertThat(ring.route("h1000")).isEqualTo("a");
        assertThat(ring.route("h1001")).isEqualTo("b");
        assertThat(ring.route("h1999")).isEqualTo("b");
        assertThat(ring.route("h2000")).isEqualTo("b");
        assertThat(ring.route("h2001")).isEqualTo("c");
        assertThat(ring.route("h3000")).isEqualTo("c");
        assertThat(ring.route("h3001")).as("past the last point wraps to index 0").isEqualTo("a");
        assertThat(ring.preference("h2000", 3)).containsExactly("b", "c", "a");
        assertThat(ring.preference("h3001", 3)).containsExactly("a", "b", "c");
    }

    @Test
    void everyPointOfAnMd5Ring_ownsItselfAndTheNextValueGoesOn() {
        HashRing ring = HashRing.of(RingConfig.defaults(), 0, List.of(Node.of("a", 1), Node.of("b", 2), Node.of("c", 0.5)));
        int n = ring.pointCount();
        for (int i = 0; i < n; i++) {
            long p = ring.pointAt(i);
            assertThat(ring.routeHash(p)).as("point %s", i).isEqualTo(ring.ownerAt(i));
            if (p < MAX) {
                assertThat(ring.routeHash(p + 1)).as("after point %s", i).isEqualTo(ring.ownerAt((i + 1) % n));
            }
            if (i > 0) {
                assertThat(ring.routeHash(ring.pointAt(i - 1) + 1)).as("arc of point %s", i).isEqualTo(ring.ownerAt(i));
            }
        }
        assertThat(ring.pointAt(n - 1)).isLessThan(MAX);
        assertThat(ring.routeHash(ring.pointAt(n - 1) + 1)).as("wrap").isEqualTo(ring.ownerAt(0));
        assertThat(ring.routeHash(MAX)).as("wrap").isEqualTo(ring.ownerAt(0));
        assertThat(ring.routeHash(0)).isEqualTo(ring.ownerAt(0));
    }

    @Test
    void pointsOnZeroAndTheLargestHash_ownTheEdgesOfTheSpace() {
        HashRing ring = placed(Map.of("a#0", 0L, "c#0", 1000L, "b#0", MAX),
                Node.of("a", 1), Node.of("b", 1), Node.of("c", 1));
        assertThat(ring.pointAt(0)).isZero();
        assertThat(ring.pointAt(2)).isEqualTo(MAX);
        assertThat(ring.routeHash(0)).isEqualTo("a");
        assertThat(ring.routeHash(1)).isEqualTo("c");
        assertThat(ring.routeHash(1000)).isEqualTo("c");
        assertThat(ring.routeHash(1001)).isEqualTo("b");
        assertThat(ring.routeHash(MAX)).isEqualTo("b");
        assertThat(RingPropertiesTest.countsOf(ring)).containsExactly(
                Map.entry("a", 1L), Map.entry("b", SPACE - 1001), Map.entry("c", 1000L));

        RingDiff withoutB = HashRing.diff(ring, ring.remove("b"));
        assertThat(withoutB.movedCount()).isEqualTo(SPACE - 1001);
        assertThat(withoutB.ranges()).containsExactly(new RingDiff.Range(1001, MAX, "b", "a"));
        RingDiff withoutA = HashRing.diff(ring, ring.remove("a"));
        assertThat(withoutA.ranges()).containsExactly(new RingDiff.Range(0, 0, "a", "c"));
        assertThat(withoutA.flows()).containsExactly(new RingDiff.Flow("a", "c", 1));
    }

    @Test
    void hashOutsideTheSpace_isRefused() {
        HashRing ring = HashRing.empty().put(Node.of("a", 1));
        assertThatIllegalArgumentException().isThrownBy(() -> ring.routeHash(-1)).withMessageEndingWith(": -1");
        assertThatIllegalArgumentException().isThrownBy(() -> ring.routeHash(SPACE))
                .withMessageEndingWith(": 4294967296");
        assertThatIllegalArgumentException().isThrownBy(() -> ring.preferenceHash(SPACE, 1, false));
    }

    // ------------------------------------------------------------ n

    @Test
    void preference_nLargerThanTheNodeCount_givesEveryNodeOnce() {
        HashRing ring = HashRing.of(RingConfig.defaults(), 0,
                List.of(Node.of("a", 1), Node.of("b", 1), new Node("c", 1, "z"), new Node("d", 1, "z")));
        for (int i = 0; i < 200; i++) {
            String k = "k" + i;
            for (boolean zones : new boolean[] {false, true}) {
                assertThat(ring.preference(k, 5, zones)).containsExactlyInAnyOrder("a", "b", "c", "d")
                        .startsWith(ring.route(k));
                assertThat(ring.preference(k, Integer.MAX_VALUE, zones)).hasSize(4);
            }
        }
    }

    @Test
    void preference_nOfOne_isTheRoute() {
        HashRing ring = HashRing.of(RingConfig.defaults(), 0, List.of(Node.of("a", 1), Node.of("b", 1), Node.of("c", 1)));
        for (int i = 0; i < 200; i++) {
            String k = "k" + i;
            assertThat(ring.preference(k, 1)).containsExactly(ring.route(k));
            assertThat(ring.preference(k, 1, true)).containsExactly(ring.route(k));
        }
    }

    @Test
    void preference_nBelowOne_isRefusedNamingN() {
        HashRing ring = HashRing.empty().put(Node.of("a", 1));
        assertThatIllegalArgumentException().isThrownBy(() -> ring.preference("k", 0)).withMessage("n must be >= 1: 0");
        assertThatIllegalArgumentException().isThrownBy(() -> ring.preference("k", -3, true))
                .withMessage("n must be >= 1: -3");
        assertThatIllegalArgumentException().isThrownBy(() -> ring.preferenceHash(5, 0, false))
                .withMessage("n must be >= 1: 0");
    }

    // ------------------------------------------------------------ collisions

    @Test
    void collisionLoser_staysAMemberButOwnsNothingAndIsNeverAnswered() {
        Map<String, Long> at = new java.util.HashMap<>(Map.of("a#0", 500L, "b#0", 500L, "c#0", 1_000_000L));
        HashRing ring = placed(at, new Node("a", 1, "z1"), new Node("b", 1, "z2"), new Node("c", 1, "z1"));
        assertThat(ring.contains("b")).isTrue();
        assertThat(ring.nodeCount()).isEqualTo(3);
        assertThat(ring.vnodeCount()).isEqualTo(3);
        assertThat(ring.pointCount()).isEqualTo(2);
        assertThat(ring.routeHash(500)).isEqualTo("a");
        Ownership.Share b = ring.ownership().shares().get(1);
        assertThat(b.node().id()).isEqualTo("b");
        assertThat(b.points()).isZero();
        assertThat(b.count()).isZero();
        assertThat(ring.ownership().total()).isEqualTo(SPACE);
        for (int i = 0; i < 500; i++) {
            String k = "k" + i;
            assertThat(ring.route(k)).isNotEqualTo("b");
            assertThat(ring.preference(k, 10)).hasSize(2).doesNotContain("b");
            assertThat(ring.preference(k, 10, true)).as("b's zone has no owning node").hasSize(2).doesNotContain("b");
        }
        for (long h : new long[] {0, 499, 500, 501, 1_000_000, 1_000_001, MAX}) {
            assertThat(ring.preferenceHash(h, 3, false)).doesNotContain("b");
        }
        assertThat(ring.toString()).isEqualTo("HashRing[3 nodes, 2 points, v0]");

        // without a, b inherits the point: a's whole arc moves to b
        RingDiff d = HashRing.diff(ring, ring.remove("a"));
        assertThat(d.flows()).containsExactly(new RingDiff.Flow("a", "b", SPACE - 1_000_000 + 500));
        assertThat(d.ranges()).containsExactly(
                new RingDiff.Range(0, 500, "a", "b"), new RingDiff.Range(1_000_001, MAX, "a", "b"));
    }

    @Test
    void collision_goesToTheBytewiseSmallestIdWhateverTheOrder() {
        List<String> ids = new ArrayList<>(List.of("a_", "a", "B", "a-", "a.", "a0", "a:", "a@", "aA", "ab", "Z"));
        Map<String, Long> at = new java.util.HashMap<>();
        for (String id : ids) {
            at.put(id + "#0", 42L);
        }
        KeyHash hash = RingTesting.table(at);
        RingConfig config = new RingConfig(hash, 1);
        // byte-wise: "B" (0x42) < "Z" (0x5a) < "a" < "a-" < "a." < "a0" < "a:" < "a@" < "aA" < "a_" < "ab"
        List<String> expectedOrder = List.of("B", "Z", "a", "a-", "a.", "a0", "a:", "a@", "aA", "a_", "ab");
        java.util.Random rnd = new java.util.Random(ids.hashCode());
        for (int round = 0; round < 5; round++) {
            Collections.shuffle(ids, rnd);
            HashRing ring = HashRing.empty(config);
            for (String id : ids) {
                ring = ring.put(Node.of(id, 1));
            }
            assertThat(ring.pointCount()).isEqualTo(1);
            assertThat(ring.routeHash(0)).as("order %s", ids).isEqualTo("B");
            HashRing without = ring;
            for (int i = 0; i < expectedOrder.size() - 1; i++) {
                without = without.remove(expectedOrder.get(i));
                assertThat(without.routeHash(7)).as("after removing %s", expectedOrder.subList(0, i + 1))
                        .isEqualTo(expectedOrder.get(i + 1));
            }
        }
    }

    /**
     * Invariant 5 (removing a node keeps the others' relative order) has one
     * exception, shown here with real md5 points: node-001#1464 and
     * node-021#316 collide (the collision vector of ring-md5-collision.json), node-001 wins the
     * point, and x206's only point lies just after it. Removing node-001
     * gives the point to node-021, which moves ahead of x206.
     */
    @Test
    void removal_collisionHeirMovesAheadInPreferenceLists() {
        long p = 2580184630L;
        assertThat(RingTesting.digest32("MD5", "node-001#1464")).isEqualTo(p);
        assertThat(RingTesting.digest32("MD5", "node-021#316")).isEqualTo(p);
        assertThat(RingTesting.digest32("MD5", "x206#0")).isEqualTo(2584028840L);
        HashRing ring = HashRing.of(RingConfig.defaults(), 0,
                List.of(Node.of("node-001", 12), Node.of("node-021", 3), Node.of("x206", 1e-9)));
        assertThat(ring.preferenceHash(p, 3, false)).containsExactly("node-001", "x206", "node-021");
        HashRing without = ring.remove("node-001");
        assertThat(without.routeHash(p)).isEqualTo("node-021");
        assertThat(without.preferenceHash(p, 3, false)).containsExactly("node-021", "x206");
        // from just after the contested point, the order is kept
        assertThat(ring.preferenceHash(p + 1, 3, false)).containsExactly("node-001", "x206", "node-021");
        assertThat(without.preferenceHash(p + 1, 3, false)).containsExactly("x206", "node-021");
    }

    @Test
    void ownDuplicatePoints_collapseIntoOne() {
        HashRing ring = HashRing.of(new RingConfig(RingTesting.table(Map.of("a#0", 7L, "a#1", 7L)), 2), 0,
                List.of(Node.of("a", 1)));
        assertThat(ring.vnodeCount()).isEqualTo(2);
        assertThat(ring.pointCount()).isEqualTo(1);
        assertThat(ring.ownership().shares().get(0).points()).isEqualTo(1);
        assertThat(ring.ownership().shares().get(0).count()).isEqualTo(SPACE);
    }

    // ------------------------------------------------------------ zone-aware preference

    @Test
    void zonedPreference_zonelessNodesAreEachAZoneOfTheirOwn() {
        Map<String, Long> at = keysAt(50, 250, 350);
        at.putAll(Map.of("p#0", 100L, "r#0", 200L, "s#0", 300L, "q#0", 400L));
        HashRing ring = placed(at, Node.of("p", 1), new Node("r", 1, "z1"), new Node("s", 1, "z1"), Node.of("q", 1));
        // from 50 the walk meets p, r, s, q
        assertThat(ring.preference("h50", 3)).containsExactly("p", "r", "s");
        assertThat(ring.preference("h50", 2, true)).containsExactly("p", "r");
        assertThat(ring.preference("h50", 3, true)).containsExactly("p", "r", "q");
        assertThat(ring.preference("h50", 4, true)).containsExactly("p", "r", "q", "s");
        // from 250: s, q, p, r
        assertThat(ring.preference("h250", 3, true)).containsExactly("s", "q", "p");
        assertThat(ring.preference("h250", 4, true)).containsExactly("s", "q", "p", "r");
        // from 350: q, p, r, s
        assertThat(ring.preference("h350", 3, true)).containsExactly("q", "p", "r");
        assertThat(ring.preference("h350", 9, true)).containsExactly("q", "p", "r", "s");
    }

    @Test
    void zonedPreference_fewerZonesThanN_fillsInWalkOrder() {
        Map<String, Long> at = keysAt(50, 250);
        at.putAll(Map.of("a#0", 100L, "b#0", 200L, "c#0", 300L, "d#0", 400L));
        HashRing ring = placed(at, new Node("a", 1, "z1"), new Node("b", 1, "z1"), new Node("c", 1, "z2"),
                new Node("d", 1, "z2"));
        assertThat(ring.preference("h50", 3)).containsExactly("a", "b", "c");
        assertThat(ring.preference("h50", 2, true)).containsExactly("a", "c");
        assertThat(ring.preference("h50", 3, true)).containsExactly("a", "c", "b");
        assertThat(ring.preference("h50", 4, true)).containsExactly("a", "c", "b", "d");
        assertThat(ring.preference("h250", 2, true)).containsExactly("c", "a");
        assertThat(ring.preference("h250", 3, true)).containsExactly("c", "a", "d");
    }

    @Test
    void zonedPreference_aZoneWhoseNodesOwnNothingIsNotWaitedFor() {
        Map<String, Long> at = keysAt(50);
        at.putAll(Map.of("a#0", 100L, "b#0", 100L, "c#0", 200L));
        HashRing ring = placed(at, new Node("a", 1, "z1"), new Node("b", 1, "z2"), new Node("c", 1, "z1"));
        assertThat(ring.preference("h50", 2, true)).containsExactly("a", "c");
        assertThat(ring.preference("h50", 5, true)).containsExactly("a", "c");
        assertThat(ring.preference("h50", 5, false)).containsExactly("a", "c");
    }

    @Test
    void zonedPreference_manyNodesFewZones_isDistinctAndStartsWithTheRoute() {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            nodes.add(new Node("n" + i, 1, i % 7 == 0 ? null : "z" + (i % 3)));
        }
        HashRing ring = HashRing.of(new RingConfig(KeyHashes.murmur3(), 16), 0, nodes);
        LinearScanRing oracle = LinearScanRing.of(ring);
        for (int i = 0; i < 100; i++) {
            String k = "key-" + i;
            long h = ring.hash(k);
            for (int n : new int[] {1, 3, 8, 9, 17, 40}) {
                List<String> z = ring.preference(k, n, true);
                assertThat(z).as("%s n %s", k, n).containsExactlyElementsOf(oracle.zonedPreference(h, n));
                Set<String> zones = new HashSet<>();
                int distinctZones = 0;
                for (String id : z.subList(0, Math.min(n, 9))) { // 3 zones + 6 zoneless nodes
                    String zone = ring.node(id).orElseThrow().zone();
                    if (zones.add(zone == null ? "own:" + id : zone)) {
                        distinctZones++;
                    }
                }
                assertThat(distinctZones).as("%s n %s: the first min(n, 9) nodes are in distinct zones", k, n)
                        .isEqualTo(Math.min(n, 9));
            }
        }
    }
}
