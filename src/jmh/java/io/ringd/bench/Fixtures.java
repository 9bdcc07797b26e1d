package io.ringd.bench;

import io.ringd.ring.HashRing;
import io.ringd.ring.Node;

import java.util.ArrayList;
import java.util.List;

/** The keys and memberships every benchmark shares, and a check that a peer agrees with the ring. */
final class Fixtures {

    /** Keys per benchmark: a power of two, so {@code keys[i++ & KEY_MASK]} cycles them. */
    static final int KEY_COUNT = 1 << 16;
    static final int KEY_MASK = KEY_COUNT - 1;
    /** Points per unit of weight, the library default. */
    static final int VNODES = 128;

    private Fixtures() {
    }

    /** {@code "user:0" .. "user:65535"}. */
    static String[] keys() {
        String[] keys = new String[KEY_COUNT];
        for (int i = 0; i < KEY_COUNT; i++) {
            keys[i] = "user:" + i;
        }
        return keys;
    }

    /** {@code count} nodes of weight 1, {@code "node-0000" ..}, ascending by id. */
    static List<Node> nodes(int count) {
        List<Node> nodes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            nodes.add(Node.of(String.format("node-%04d", i), 1.0));
        }
        return nodes;
    }

    /**
     * Fails the trial unless {@code peer} places the same points as
     * {@code ring} and routes and ranks the first keys alike.
     */
    static void checkAgree(HashRing ring, TreeMapRing peer, String[] keys) {
        if (ring.pointCount() != peer.pointCount()) {
            throw new IllegalStateException(
                    "peer has " + peer.pointCount() + " points, ring has " + ring.pointCount());
        }
        for (int i = 0; i < 4096; i++) {
            String key = keys[i];
            if (!ring.route(key).equals(peer.route(key))) {
                throw new IllegalStateException("peer routes " + key + " elsewhere");
            }
            if (!ring.preference(key, 3).equals(peer.preference(key, 3))) {
                throw new IllegalStateException("peer ranks " + key + " differently");
            }
        }
    }
}
