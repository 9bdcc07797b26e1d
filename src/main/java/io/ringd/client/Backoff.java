package io.ringd.client;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Capped exponential backoff with jitter: after {@code f} failures in a row
 * the delay is uniformly random in {@code [cap/2, cap]}, with
 * {@code cap = min(max, initial * 2^f)}. Half the cap is kept so that a
 * fleet of clients still spreads out but none retries at once.
 */
final class Backoff {

    private final long initialNanos;
    private final long maxNanos;

    Backoff(Duration initial, Duration max) {
        if (initial.isNegative() || initial.isZero()) {
            throw new IllegalArgumentException("initial backoff must be positive: " + initial);
        }
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("max backoff must be at least the initial one (" + initial + "): " + max);
        }
        this.initialNanos = initial.toNanos();
        this.maxNanos = max.toNanos();
    }

    /** The cap after {@code failures} failures in a row (0 after a healthy connection). */
    long capNanos(int failures) {
        long cap = initialNanos;
        for (int i = 0; i < failures && cap < maxNanos; i++) {
            cap = cap > maxNanos / 2 ? maxNanos : cap * 2;
        }
        return Math.min(cap, maxNanos);
    }

    /** The delay before the next attempt, after {@code failures} failures in a row. */
    long delayNanos(int failures, RandomGenerator random) {
        long cap = capNanos(failures);
        long half = cap / 2;
        return half + random.nextLong(cap - half + 1);
    }
}
