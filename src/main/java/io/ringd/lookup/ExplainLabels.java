package io.ringd.lookup;

import java.util.concurrent.ExecutionException;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.util.concurrent.ExecutionError;
import com.google.common.util.concurrent.UncheckedExecutionException;

import io.ringd.ring.HashRing;
import io.ringd.ring.KeyHash;
import io.ringd.ring.RingConfig;
import io.ringd.ring.RingPoints;
import io.ringd.state.ExpensiveReads;

/**
 * The vnode labels {@code ?explain=true} names. A node of few points has its
 * labels hashed on each request (at most {@link #DIRECT} of them, well under
 * a millisecond); a heavier node's labels are hashed once, through the gate
 * of expensive reads, and kept indexed in a small cache, whatever version
 * asks: a node's labels depend only on the hash, the placement, its id and
 * its vnode count.
 */
final class ExplainLabels implements RingPoints.Labeller {

    /** Labels hashed per request without the cache. */
    static final long DIRECT = 1024;
    /** Labels cached in all, at eight bytes each: 32 MB, one node of the largest ring. */
    static final long CACHED_LABELS = HashRing.MAX_POINTS;

    private final ExpensiveReads reads;
    private final Cache<Key, RingPoints.VnodeLabels> cache = CacheBuilder.newBuilder()
            .maximumWeight(CACHED_LABELS).weigher((Key k, RingPoints.VnodeLabels l) -> Math.max(1, l.size()))
            .build();

    ExplainLabels(ExpensiveReads reads) {
        this.reads = reads;
    }

    /** What a node's labels depend on. */
    private record Key(KeyHash hash, RingConfig.Algorithm algorithm, String node, long labels) {
    }

    @Override
    public String label(HashRing ring, String node, long point) {
        long count = RingPoints.labelCount(ring, node);
        if (count <= DIRECT) {
            return RingPoints.label(ring, node, point);
        }
        Key key = new Key(ring.config().hash(), ring.config().algorithm(), node, count);
        try {
            return cache.get(key, () -> reads.run("label the points of node " + node,
                    () -> RingPoints.VnodeLabels.of(ring, node))).label(point);
        } catch (ExecutionException | UncheckedExecutionException | ExecutionError e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException("labelling the points of " + node + " failed", e.getCause());
        }
    }

    /** The nodes whose labels are cached now. */
    long cached() {
        return cache.size();
    }
}
