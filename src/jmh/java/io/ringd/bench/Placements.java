package io.ringd.bench;

import io.ringd.ring.HashRing;
import io.ringd.ring.JumpHash;
import io.ringd.ring.KeyHash;
import io.ringd.ring.Node;
import io.ringd.ring.Placement;
import io.ringd.ring.RendezvousHash;
import io.ringd.ring.RingConfig;

import java.util.ArrayList;
import java.util.List;

/** The placements docs/algorithms.md compares, by name, with the settings it states. */
final class Placements {

    /** The Maglev table size for up to 655 nodes, the service's default. */
    static final int DEFAULT_TABLE = RingConfig.DEFAULT_MAGLEV_TABLE_SIZE;

    private Placements() {
    }

    /**
     * {@code ring} (128 points per weight), {@code maglev} (a table of
     * {@link #tableSize(int)} entries), {@code rendezvous} or {@code jump}
     * (buckets in the nodes' order) over {@code nodes}, keys hashed with {@code hash}.
     */
    static Placement build(String name, KeyHash hash, List<Node> nodes) {
        return switch (name) {
            case "ring" -> HashRing.of(new RingConfig(hash, Fixtures.VNODES), 1, nodes);
            case "maglev" -> HashRing.of(RingConfig.maglev(hash, tableSize(nodes.size())), 1, nodes);
            case "rendezvous" -> RendezvousHash.of(hash, nodes);
            case "jump" -> JumpHash.of(hash, ids(nodes));
            default -> throw new IllegalArgumentException(
                    "placement must be one of [ring, maglev, rendezvous, jump]: " + name);
        };
    }

    /**
     * The Maglev table size for {@code n} nodes: the default 65,537 while
     * that is at least 100 entries a node (the paper's M > 100 N), else the
     * smallest prime {@code >= 100 n}.
     */
    static int tableSize(int n) {
        long want = 100L * n;
        if (want <= DEFAULT_TABLE) {
            return DEFAULT_TABLE;
        }
        return nextPrime((int) want);
    }

    /** The smallest prime {@code >= n}. */
    static int nextPrime(int n) {
        int p = Math.max(2, n);
        while (!RingConfig.isPrime(p)) {
            p++;
        }
        return p;
    }

    static List<String> ids(List<Node> nodes) {
        List<String> ids = new ArrayList<>(nodes.size());
        for (Node n : nodes) {
            ids.add(n.id());
        }
        return ids;
    }
}
