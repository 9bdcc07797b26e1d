package io.ringd.client;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.ringd.ring.HandoffIndex;
import io.ringd.ring.HashRing;

/**
 * Benchmark only (src/jmh, never in the client): what the follower thread
 * does with each verified ring for handoff ({@code HandoffVersions.keep}, at
 * every swap), which is package-private in the client, for
 * HandoffHistoryBenchmark to time and to measure the heap of.
 */
public final class HandoffKeepPath {

    private HandoffKeepPath() {
    }

    /**
     * Follows {@code rings} (consecutive versions, committed at {@code times}) as the client does, keeping at
     * most {@code maxVersions} within a window of 10 minutes, and answers what the last swap published.
     * With {@code asked}, a handoff lookup came first, so every swap indexes what it keeps, as a client
     * that asks for handoff does.
     */
    public static Object keepAll(List<HashRing> rings, List<Instant> times, int maxVersions, boolean asked) {
        HandoffVersions versions = new HandoffVersions(Duration.ofMinutes(10), maxVersions);
        if (asked) {
            versions.handoff(null, "any key"); // marks it asked, as a client's first lookup does
        }
        RingClient.Held held = null;
        for (int i = 0; i < rings.size(); i++) {
            HashRing ring = rings.get(i);
            HandoffVersions.Kept kept = versions.keep(held, ring, times.get(i), null);
            held = new RingClient.Held(ring, times.get(i), null, kept);
        }
        return held.handoff();
    }

    /** What {@code RingClient.handoffHistory()} says of what {@link #keepAll} answered. */
    public static HandoffHistory history(Object kept) {
        return ((HandoffVersions.Kept) kept).history();
    }

    /** The index the first handoff lookup builds over what {@link #keepAll} answered. */
    public static HandoffIndex index(Object kept) {
        return ((HandoffVersions.Kept) kept).index();
    }
}
