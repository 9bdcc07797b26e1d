package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The fingerprint's bytes (docs/ring.md section 10, and section 15 for a
 * Maglev table) when they span many of the buffer's chunks: ids of every
 * length from 1 to the longest allowed, so lines of every size land on
 * every offset of a chunk's end, against the byte format hashed point by
 * point by the JDK's SHA-256 (PlacementOracles, RingPropertiesTest).
 */
class FingerprintTest {

    /** Ids of lengths 1 .. Node.MAX_ID_LENGTH, each made of random id characters. */
    private static List<Node> nodesOfEveryIdLength(Random rnd) {
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:@-";
        List<Node> nodes = new ArrayList<>();
        for (int length = 1; length <= Node.MAX_ID_LENGTH; length++) {
            StringBuilder id = new StringBuilder(length);
            for (int c = 0; c < length; c++) {
                id.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
            nodes.add(Node.of(id.toString(), 1 + rnd.nextInt(3)));
        }
        return nodes;
    }

    @Test
    void ring_bytesOverManyChunks_areTheContractsBytes() {
        Random rnd = new Random(10);
        List<Node> nodes = nodesOfEveryIdLength(rnd);
        HashRing ring = HashRing.of(RingConfig.of("md5", 16), 1, nodes);
        long bytes = 0;
        long[] points = new long[ring.pointCount()];
        String[] owners = new String[ring.pointCount()];
        for (int i = 0; i < points.length; i++) {
            points[i] = ring.pointAt(i);
            owners[i] = ring.ownerAt(i);
            bytes += 4 + owners[i].length() + 1;
        }
        assertThat(bytes).as("the bytes span many chunks").isGreaterThan(20L * Fingerprint.CHUNK);
        assertThat(ring.fingerprint()).isEqualTo(RingPropertiesTest.fingerprintOf(points, owners));

        HashRing changed = ring.remove(nodes.get(199).id()).put(Node.of("x", 2));
        String[] changedOwners = new String[changed.pointCount()];
        long[] changedPoints = new long[changed.pointCount()];
        for (int i = 0; i < changedPoints.length; i++) {
            changedPoints[i] = changed.pointAt(i);
            changedOwners[i] = changed.ownerAt(i);
        }
        assertThat(changed.fingerprint()).as("built incrementally")
                .isEqualTo(RingPropertiesTest.fingerprintOf(changedPoints, changedOwners))
                .isNotEqualTo(ring.fingerprint());
    }

    @Test
    void table_bytesOverManyChunks_areTheContractsBytes() {
        List<Node> nodes = nodesOfEveryIdLength(new Random(15));
        HashRing table = HashRing.of(RingConfig.maglev(RingConfig.defaults().hash(), 65_537), 1, nodes);
        String[] owners = new String[table.pointCount()];
        long bytes = 0;
        for (int e = 0; e < owners.length; e++) {
            owners[e] = table.ownerAt(e);
            bytes += owners[e].length() + 1;
        }
        assertThat(bytes).as("the bytes span many chunks").isGreaterThan(20L * Fingerprint.CHUNK);
        assertThat(table.fingerprint()).isEqualTo(PlacementOracles.tableFingerprint(owners));
    }
}
