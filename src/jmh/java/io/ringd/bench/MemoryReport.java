package io.ringd.bench;

import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;

import java.util.List;

import org.openjdk.jol.info.GraphLayout;

/**
 * The retained size of ring snapshots, measured with JOL: everything
 * reachable from the {@code HashRing} except what every ring shares (its
 * config and hash function), for rings of about 1,000,000 and 100,000
 * points, a snapshot made by a change (one node joining), and what the
 * service's cache of old snapshots holds at most. Run by bench/memory.sh;
 * prints a Markdown table.
 */
public final class MemoryReport {

    private MemoryReport() {
    }

    public static void main(String[] args) {
        int pointsPerNode = 160;
        System.out.println("| ring | nodes | points | retained bytes | bytes per point |");
        System.out.println("| --- | ---: | ---: | ---: | ---: |");
        for (int nodes : new int[] {625, 6_250}) {
            RingConfig config = RingConfig.of("md5", pointsPerNode);
            List<Node> members = Fixtures.nodes(nodes);
            HashRing ring = HashRing.of(config, 1, members);
            report("from scratch, md5, " + pointsPerNode + " points a node", ring);
            HashRing joined = ring.put(Node.of("node-new", 1.0));
            report("after one node joined (incremental)", joined);
            // both versions alive, as while the service caches the old one: what the new one adds
            long both = retained(List.of(ring, joined));
            long one = retained(List.of(ring));
            System.out.printf("| the two versions together, the second's share | %,d | %,d | %,d | %.2f |%n",
                    joined.nodeCount(), joined.pointCount(), both - one, (both - one) / (double) joined.pointCount());
        }
    }

    private static void report(String what, HashRing ring) {
        long bytes = retained(List.of(ring));
        System.out.printf("| %s | %,d | %,d | %,d | %.2f |%n", what, ring.nodeCount(), ring.pointCount(), bytes,
                bytes / (double) ring.pointCount());
    }

    /** Bytes reachable from the rings, without the objects every ring shares (the config and its hash). */
    static long retained(List<HashRing> rings) {
        long total = GraphLayout.parseInstance(rings.toArray()).totalSize();
        long shared = GraphLayout.parseInstance(rings.get(0).config()).totalSize();
        return total - shared;
    }
}
