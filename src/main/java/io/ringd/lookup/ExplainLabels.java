package io.ringd.lookup;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;

import io.ringd.ring.HashRing;
import io.ringd.ring.KeyHash;
import io.ringd.ring.RingConfig;
import io.ringd.ring.RingPoints;
import io.ringd.ring.VnodeLabels;
import io.ringd.state.ExpensiveReads;
import io.ringd.state.SingleFlight;

/**
 * The vnode labels {@code ?explain=true} names. A node of few points has its
 * labels hashed on each request (at most {@link #DIRECT} of them, well under
 * a millisecond); a heavier node's labels are hashed once, through the gate
 * of expensive reads, and kept indexed in a small cache, whatever version
 * asks: a node's labels depend only on the hash, the placement, the string
 * it is placed by (its hashKey, or its id) and its vnode count.
 */
final class ExplainLabels implements RingPoints.Labeller {

    /** Labels hashed per request without the cache. */
    static final long DIRECT = 1024;
    /** Labels cached in all, at eight bytes each: 32 MB, one node of the largest ring. */
    static final long CACHED_LABELS = HashRing.MAX_POINTS;

    private final SingleFlight<Key, VnodeLabels> cache;

    ExplainLabels(ExpensiveReads reads) {
        Cache<Key, VnodeLabels> done = CacheBuilder.newBuilder().maximumWeight(CACHED_LABELS)
                .weigher((Key k, VnodeLabels l) -> Math.max(1, l.size())).build();
        this.cache = new SingleFlight<>(done, reads);
    }

    /** What a node's labels depend on. */
    private record Key(KeyHash hash, RingConfig.Algorithm algorithm, String placement, long labels) {
    }

    @Override
    public String label(HashRing ring, String node, long point) {
        long count = VnodeLabels.labelCount(ring, node);
        if (count <= DIRECT) {
            return VnodeLabels.label(ring, node, point);
        }
        // by the string the labels hash (its hashKey, or its id), not the id: a hashKey changes the labels
        String placement = ring.node(node).map(n -> n.placementKey()).orElse(node);
        Key key = new Key(ring.config().hash(), ring.config().algorithm(), placement, count);
        return cache.get(key, "label the points of node " + node, () -> VnodeLabels.of(ring, node))
                .label(point);
    }

    /** The nodes whose labels are cached now. */
    long cached() {
        return cache.size();
    }
}
