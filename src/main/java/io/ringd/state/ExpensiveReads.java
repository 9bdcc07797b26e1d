package io.ringd.state;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The gate in front of reads whose work grows with the ring rather than the
 * request: rebuilding an old version, a diff not yet computed, a dry run,
 * labelling the points of a heavy node. At most {@code permits} run at once;
 * one more waits up to {@code wait} for its turn and is then refused with a
 * {@link BusyException}, so that memory stays bounded by the permits times
 * the largest ring and the other processors stay free for lookups, which are
 * never gated.
 */
public final class ExpensiveReads {

    private final Semaphore permits;
    private final int size;
    private final long waitNanos;
    private final LongAdder runs = new LongAdder();
    private final LongAdder refused = new LongAdder();

    public ExpensiveReads(int permits, Duration wait) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be >= 1: " + permits);
        }
        this.size = permits;
        this.permits = new Semaphore(permits, true);
        this.waitNanos = wait.toNanos();
    }

    public ExpensiveReads(ReadLimitsProperties limits) {
        this(limits.permits(), limits.expensiveWait());
    }

    /** No limit: for tests and tools that build a service by hand. */
    public static ExpensiveReads unlimited() {
        return new ExpensiveReads(Integer.MAX_VALUE / 2, Duration.ZERO);
    }

    /**
     * Runs {@code work} once a permit is free.
     *
     * @throws BusyException when none frees within the wait; {@code work} did not run
     */
    public <T> T run(String what, Supplier<T> work) {
        boolean acquired;
        try {
            acquired = permits.tryAcquire(waitNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BusyException("interrupted while waiting to " + what);
        }
        if (!acquired) {
            refused.increment();
            throw new BusyException("too many expensive reads (old versions, diffs, dry runs, explain) run at "
                    + "once (" + size + "): could not " + what + " now; try again in a second");
        }
        try {
            runs.increment();
            return work.get();
        } finally {
            permits.release();
        }
    }

    /** How long one waits for a permit, or for another's computation of the same result. */
    public long waitNanos() {
        return waitNanos;
    }

    /** How many may run at once. */
    public int permits() {
        return size;
    }

    /** How many were let through since start. */
    public long runs() {
        return runs.sum();
    }

    /** How many were refused since start. */
    public long refused() {
        return refused.sum();
    }

    /** How many run now. */
    public int running() {
        return size - permits.availablePermits();
    }
}
