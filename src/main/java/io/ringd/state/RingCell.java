package io.ringd.state;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What one {@link RingService} holds, shared by the collaborators it is made of ({@link RingLoader},
 * {@link RingWrites}, {@link RingVersions}): the current {@link RingState} in an {@link AtomicReference},
 * the kept history, whether the ring is loaded or deleted, the count of whole states installed, and the
 * one write lock every change to them is made under.
 *
 * <p>Lookups read {@link #current} without locks; everything that changes these fields holds
 * {@link #writes}.
 */
final class RingCell {

    final Clock clock;
    final RingStore store;
    final int historyCapacity;
    final ReentrantLock writes = new ReentrantLock();
    final AtomicReference<RingState> current = new AtomicReference<>();
    volatile RingHistory history;
    volatile boolean loaded;
    /** Set once the ring is deleted: it answers 404 from then on, and writes nothing. */
    volatile String deleted;
    /** Counts the whole states installed: while it stays the same, a kept version stays the same ring. */
    volatile long generation;

    RingCell(RingStore store, int historyCapacity, Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.store = Objects.requireNonNull(store, "store");
        this.historyCapacity = historyCapacity;
    }

    /** Commit times are kept to the millisecond, as they are shown. */
    Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    void checkNotDeleted() {
        String name = deleted;
        if (name != null) {
            throw new RingNotFoundException(name, "the ring " + name + " was deleted");
        }
    }

    StoreUnavailableException notLoaded() {
        return new StoreUnavailableException("the ring has not been loaded from " + store.describe(),
                "this instance has not loaded the ring from its store yet: the change was not applied", null);
    }
}
