package io.ringd.placement;

import java.util.List;

import org.springframework.stereotype.Component;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;

import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingDiff;
import io.ringd.state.ExpensiveReads;
import io.ringd.state.RingService;
import io.ringd.state.Rings;
import io.ringd.web.RingPaths;
import io.ringd.state.RingState;
import io.ringd.state.SingleFlight;
import io.ringd.web.problem.ApiException;
import io.ringd.web.problem.Fields;
import io.ringd.web.problem.Problems;

/**
 * The diffs {@code /diff} answers: each computed once per pair of versions
 * (and node) however many ask, kept in a small cache, and computed through
 * the gate of expensive reads; dry runs through the gate each time.
 */
@Component
class Diffs {

    /*
     * Design note. A diff is computed keeping the most flows and ranges any
     * request may ask for (KEPT), and each answer takes the first maxFlows and
     * maxRanges of it: one computation serves every limit. The cache's key is
     * the service's generation (kept versions stay the same rings while it
     * does), the two versions and the node; SingleFlight makes concurrent
     * misses of one key wait (briefly) for one computation, which alone takes
     * a permit (a rebuild of an old version takes one of its own, before). The cache
     * is weighed in rows, flows plus ranges kept: CACHED_ROWS of them is
     * about 40 MB, at least ten of the largest diffs.
     */

    /** The most flows and ranges an answer lists, and so what a diff keeps. */
    static final int KEPT = 100_000;
    static final long CACHED_ROWS = 1_000_000;

    private final Rings rings;
    private final ExpensiveReads reads;
    private final SingleFlight<Key, RingDiff> cache;

    Diffs(Rings rings, ExpensiveReads reads) {
        this.rings = rings;
        this.reads = reads;
        Cache<Key, RingDiff> done = CacheBuilder.newBuilder().maximumWeight(CACHED_ROWS)
                .weigher((Key k, RingDiff d) -> d.flows().size() + d.keptRangeCount() + 1).build();
        this.cache = new SingleFlight<>(done, reads);
    }

    /** A diff of one ring (its service: a ring made again after a delete is another), kept by generation. */
    private record Key(RingService ring, long generation, long from, long to, String node) {
    }

    /**
     * The diff from version {@code from} to {@code to} (the current one when {@code null}), only from or to
     * {@code node} when it is not {@code null}, with at most {@link #KEPT} flows and ranges.
     */
    RingDiff between(long from, Long to, String node, RingState current) {
        checkNodeId(node);
        RingService ring = RingPaths.here(rings).service();
        long generation = ring.generation(); // read before the rings it keys
        Fields.named("from", () -> ring.checkKept(from));
        long toVersion = to == null ? current.version() : to;
        if (to != null) {
            Fields.named("to", () -> ring.checkKept(to));
        }
        Key key = new Key(ring, generation, from, toVersion, node);
        RingDiff cached = cache.cached(key);
        if (cached != null) {
            return cached;
        }
        HashRing a = Fields.named("from", () -> ring.ringAt(from));
        // the current ring, unless the ring moved on since the request read it: then as a kept version
        HashRing b = Fields.named("to", () -> ring.ringAt(toVersion));
        checkMember(node, a, b, "neither version " + from + " nor version " + toVersion);
        return cache.get(key, "compute the diff from " + from + " to " + toVersion,
                () -> HashRing.diff(a, b, KEPT, KEPT, node));
    }

    /** What {@code changes} would move from the current ring, never cached: a dry run, through the gate. */
    RingDiff dryRun(List<Change> changes, String node, int maxRanges, int maxFlows, RingState current) {
        checkNodeId(node);
        HashRing a = current.ring();
        return reads.run("compute a dry run", () -> {
            HashRing b = a.apply(changes);
            checkMember(node, a, b, "neither the current version " + a.version() + " nor the batch's");
            return HashRing.diff(a, b, maxRanges, maxFlows, node);
        });
    }

    /** The number of diffs cached now. */
    long cached() {
        return cache.size();
    }

    private static void checkNodeId(String node) {
        if (node != null) {
            try {
                Node.checkId(node);
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest(e.getMessage(), "node");
            }
        }
    }

    /** A node must be a member of one of the two rings: 404 otherwise, as a typo would be. */
    private static void checkMember(String node, HashRing a, HashRing b, String neither) {
        if (node != null && !a.contains(node) && !b.contains(node)) {
            throw new ApiException(Problems.NODE_NOT_FOUND, "node " + ApiException.abbreviate(node)
                    + " is a member of " + neither, "node");
        }
    }
}
