package io.ringd.state;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;

import io.ringd.ring.HandoffIndex;
import io.ringd.ring.HashRing;

/**
 * The handoff index of the version served (docs/ring.md section 21): built
 * once per version, the first time a lookup asks for it, from the kept
 * versions committed within the window; however many ask at once, one
 * builds it, through the gate of expensive reads. Lookups then read it
 * without locks.
 */
public final class Handoffs {

    /*
     * Design note. The index of version V covers the versions from the one in
     * force when the window began, at the time it was built, to V. A later
     * lookup's window begins later (time went on) or is shorter
     * (?window=), so it is a cut within the same index: one index per
     * version is enough, whenever it was built. Building replays the kept
     * history as the followers do: the first version of the window rebuilt
     * from its membership, each next one applied incrementally to it, and V
     * the served ring itself; the builder holds them until the index is made
     * (only a window across a change of placement kind, table size or key
     * hash keeps them after: HandoffIndex's design note). Two indexes are
     * cached, by generation and version, so the one being replaced still
     * answers lookups of the requests that read the state before a swap.
     */

    private final RingService ring;
    private final Duration window;
    private final Clock clock;
    private final Cache<Key, HandoffIndex> built = CacheBuilder.newBuilder().maximumSize(2).build();
    private final SingleFlight<Key, HandoffIndex> flights;

    private record Key(long generation, long version) {
    }

    public Handoffs(RingService ring, HandoffProperties properties, Clock clock) {
        this.ring = Objects.requireNonNull(ring, "ring");
        this.window = properties.window();
        this.clock = Objects.requireNonNull(clock, "clock");
        this.flights = new SingleFlight<>(built, ring.reads());
    }

    /** The longest window a lookup may ask for. */
    public Duration window() {
        return window;
    }

    /** The time now, for the start of a lookup's window. */
    public Instant now() {
        return clock.instant();
    }

    /**
     * The index of {@code state}'s version, which must be the current one or a
     * version kept since (a request's state).
     *
     * @throws BusyException if it must be built and too many expensive reads run already
     */
    public HandoffIndex indexOf(RingState state) {
        Key key = new Key(ring.generation(), state.version());
        HandoffIndex cached = flights.cached(key);
        if (cached != null) {
            return cached;
        }
        return flights.get(key, "build the handoff index of version " + state.version(),
                () -> build(state, ring.history(), clock.instant().minus(window)));
    }

    /** The index from the version in force at {@code since} (or the oldest kept) to {@code state}'s. */
    static HandoffIndex build(RingState state, RingHistory history, Instant since) {
        long v = state.version();
        long base = history.baseVersion();
        HandoffIndex.Builder b = HandoffIndex.builder();
        if (v <= base || history.latestVersion() < v) { // nothing kept before it (or a history moved on)
            return b.add(state.ring(), state.committedAt()).build();
        }
        long from = base;
        for (long p = v; p > base; p--) {
            Instant t = history.committedAt(p);
            if (t == null || t.isBefore(since)) {
                from = p;
                break;
            }
        }
        if (from == v) {
            return b.add(state.ring(), state.committedAt()).build();
        }
        RingHistory.Version first = history.at(from);
        RingSettings settings = first.settings();
        HashRing r = HashRing.of(settings.toConfig(), from, first.nodes());
        b.add(r, history.committedAt(from));
        for (HistoryDelta d : history.after(from)) {
            if (d.version() == v) {
                b.add(state.ring(), state.committedAt());
                break;
            }
            if (d.settings() != null) {
                settings = d.settings();
            }
            r = r.apply(d.changes(), settings.toConfig(), d.version());
            b.add(r, d.committedAt());
        }
        return b.build();
    }
}
