package io.ringd.state;

import java.util.Map;

/**
 * What the followers of a ring report of each member's latency (docs/ring.md
 * section 23): with {@code ringd.load.source=followers}, the load bounded
 * routing compares. The followers feature keeps it for each ring; the loads
 * read it on the request path, so reading takes no lock.
 */
public interface NodeLatencies {

    /**
     * Per member, the median of the latest {@code latencyMs} that the followers
     * that are not silent reported for it, as of the last refresh (at most a
     * second old); members nobody reported are absent. Immutable.
     */
    Map<String, Double> medians();
}
