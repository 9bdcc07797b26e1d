package io.ringd.state;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.cache.Weigher;

import io.ringd.ring.HashRing;

/**
 * Rebuilt old snapshots of rings, shared by every ring one ringd serves
 * (docs/ring.md section 22), so that a hundred rings hold no more rebuilt
 * rings than one: at most {@link #CACHED_POINTS} points in all, the least
 * recently used evicted first (one segment: exactly LRU). A version is
 * rebuilt once however many ask for it at once, through the gate of
 * expensive reads ({@link SingleFlight}).
 */
public final class Snapshots {

    /** Old snapshots cached at most: a few, and no more points in all than two of the largest rings. */
    static final int CACHED_SNAPSHOTS = 4;
    static final long CACHED_POINTS = 2 * HashRing.MAX_POINTS;
    /**
     * The weight of a cached snapshot: its points, but at least a
     * {@code CACHED_SNAPSHOTS}th of {@code CACHED_POINTS}, so a cache of
     * {@code CACHED_POINTS} holds at most {@code CACHED_SNAPSHOTS} of them
     * and at most {@code CACHED_POINTS} points (and always the largest ring).
     */
    private static final Weigher<Key, HashRing> WEIGHT = (key, ring) ->
            (int) Math.max(ring.vnodeCount(), CACHED_POINTS / CACHED_SNAPSHOTS);

    /**
     * A kept version of one ring (its service) and one generation of it: a rebuild that ends after a reload is
     * never taken for the reloaded history's, nor one ring's version for another's.
     */
    record Key(RingService ring, long generation, long version) {
    }

    private final Cache<Key, HashRing> cache = CacheBuilder.newBuilder().concurrencyLevel(1)
            .maximumWeight(CACHED_POINTS).weigher(WEIGHT).build();
    private final SingleFlight<Key, HashRing> rebuilds;

    public Snapshots(ExpensiveReads reads) {
        this.rebuilds = new SingleFlight<>(cache, reads);
    }

    HashRing cached(Key key) {
        return cache.getIfPresent(key);
    }

    SingleFlight<Key, HashRing> rebuilds() {
        return rebuilds;
    }

    /** Drops the snapshots of {@code ring} (reloaded, or deleted). */
    void forget(RingService ring) {
        cache.asMap().keySet().removeIf(k -> k.ring() == ring);
    }

    /** The snapshots of {@code ring} cached now. */
    int count(RingService ring) {
        return (int) cache.asMap().keySet().stream().filter(k -> k.ring() == ring).count();
    }
}
