package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The classic claims of consistent hashing, each with its bound, over fixed
 * key sets with md5 and 128 points per unit of weight.
 */
class ConsistentHashingClaimsTest {

    private static List<String> keys(String prefix, int count) {
        List<String> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(prefix + i);
        }
        return out;
    }

    private static HashRing ring(int vnodesPerWeight, Node... nodes) {
        return HashRing.of(new RingConfig(KeyHashes.md5(), vnodesPerWeight), 0, List.of(nodes));
    }

    @Test
    void growingFourNodesToFive_movesAboutAFifthOnTheRingButFourFifthsUnderModN() {
        List<String> keys = keys("key", 100_000);
        HashRing four = ring(128, Node.of("node-0", 1), Node.of("node-1", 1), Node.of("node-2", 1), Node.of("node-3", 1));
        HashRing five = four.put(Node.of("node-4", 1));

        KeyHash md5 = KeyHashes.md5();
        int movedModN = 0;
        for (String k : keys) {
            long h = md5.hashUnsigned(k);
            if (h % 4 != h % 5) {
                movedModN++;
            }
        }
        assertThat(movedModN / (double) keys.size()).as("mod-N moves most keys").isBetween(0.78, 0.82);

        KeyMovement m = KeyMovement.between(four.assignments(keys), five.assignments(keys));
        assertThat(m.keyCount()).isEqualTo(100_000);
        assertThat(m.movedFraction()).as("the ring moves about 1/5").isBetween(0.15, 0.25);
        assertThat(m.flows()).isNotEmpty().allSatisfy(f -> {
            assertThat(f.to()).isEqualTo("node-4");
            assertThat(f.from()).isNotEqualTo("node-4");
        });
        assertThat(m.flows().stream().mapToInt(KeyMovement.Flow::count).sum()).isEqualTo(m.movedCount());
    }

    @Test
    void addingD_toABC_movesUnder40PercentAllToD() {
        List<String> keys = keys("k", 200);
        HashRing abc = ring(128, Node.of("A", 1), Node.of("B", 1), Node.of("C", 1));
        HashRing abcd = abc.put(Node.of("D", 1));
        KeyMovement m = KeyMovement.between(abc.assignments(keys), abcd.assignments(keys));
        assertThat(m.movedCount()).isPositive();
        assertThat(m.movedFraction()).isLessThan(0.40);
        assertThat(m.flows()).allSatisfy(f -> assertThat(f.to()).isEqualTo("D"));
        for (int i = 0; i < keys.size(); i++) {
            String before = abc.route(keys.get(i));
            String after = abcd.route(keys.get(i));
            assertThat(after.equals(before) || after.equals("D")).as(keys.get(i)).isTrue();
        }
    }

    @Test
    void fiveNodes_spreadEvenlyWith150PointsAndBetterThanWithOne() {
        List<String> keys = keys("k", 1000);
        double cv150 = coefficientOfVariation(ring(150, fiveNodes()), keys);
        double cv1 = coefficientOfVariation(ring(1, fiveNodes()), keys);
        assertThat(cv150).isLessThan(0.25);
        assertThat(cv150).isLessThan(cv1);
    }

    private static Node[] fiveNodes() {
        Node[] out = new Node[5];
        for (int i = 0; i < 5; i++) {
            out[i] = Node.of("n" + i, 1);
        }
        return out;
    }

    /** Population standard deviation over the mean of the per-node key counts (nodes with no key count as 0). */
    private static double coefficientOfVariation(HashRing ring, List<String> keys) {
        Map<String, Integer> counts = new HashMap<>();
        ring.nodes().forEach(n -> counts.put(n.id(), 0));
        for (String k : keys) {
            counts.merge(ring.route(k), 1, Integer::sum);
        }
        double mean = keys.size() / (double) counts.size();
        double var = 0;
        for (int c : counts.values()) {
            var += (c - mean) * (c - mean);
        }
        return Math.sqrt(var / counts.size()) / mean;
    }

    @Test
    void weights_BWithTwiceTheWeightGetsAboutHalf() {
        List<String> keys = keys("k", 500);
        HashRing ring = ring(128, Node.of("A", 1), Node.of("B", 2), Node.of("C", 1));
        long b = keys.stream().filter(k -> ring.route(k).equals("B")).count();
        assertThat(b / 500.0).isBetween(0.35, 0.65);
        // the exact share of the hash space says the same
        Ownership.Share share = ring.ownership().shares().get(1);
        assertThat(share.node().id()).isEqualTo("B");
        assertThat(share.share()).isBetween(0.35, 0.65);
        assertThat(share.points()).isEqualTo(256);
    }

    @Test
    void removingANode_movesExactlyTheKeysItOwned() {
        List<String> keys = keys("k", 5000);
        HashRing before = ring(128, Node.of("A", 1), Node.of("B", 2), Node.of("C", 1), Node.of("D", 0.5));
        HashRing after = before.remove("B");
        KeyAssignment a = before.assignments(keys);
        KeyAssignment b = after.assignments(keys);
        KeyMovement m = KeyMovement.between(a, b);
        int ownedByB = 0;
        for (int i = 0; i < keys.size(); i++) {
            if (a.node(i).equals("B")) {
                ownedByB++;
                assertThat(b.node(i)).isNotEqualTo("B");
            } else {
                assertThat(b.node(i)).as(keys.get(i)).isEqualTo(a.node(i));
            }
        }
        assertThat(ownedByB).isPositive();
        assertThat(m.movedCount()).isEqualTo(ownedByB);
        assertThat(m.flows()).allSatisfy(f -> assertThat(f.from()).isEqualTo("B"));
        // and exactly, over the whole hash space
        long bCount = before.ownership().shares().get(1).count();
        assertThat(HashRing.diff(before, after).movedCount()).isEqualTo(bCount);
    }
}
