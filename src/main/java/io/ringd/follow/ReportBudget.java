package io.ringd.follow;

import java.util.function.LongSupplier;

import io.ringd.state.BusyException;

/**
 * How many reports one ring takes: a token bucket of {@code burst} reports,
 * refilled at {@code rate} a second, so a fleet that reports at once after a
 * change is taken whole while a flood is cut off. One short lock per report,
 * never on a lookup.
 */
final class ReportBudget {

    /** No report left this second: answered 503 with Retry-After: 1. */
    static final class Exhausted extends BusyException {
        Exhausted(String message) {
            super(message);
        }
    }

    private final double perMilli;
    private final double burst;
    private final LongSupplier clock;
    private double tokens;
    private long at;

    ReportBudget(int rate, int burst, LongSupplier clock) {
        this.perMilli = rate / 1000.0;
        this.burst = burst;
        this.clock = clock;
        this.tokens = burst;
        this.at = clock.getAsLong();
    }

    /** Takes one report's token, or refuses. */
    synchronized void take() {
        long now = clock.getAsLong();
        if (now > at) {
            tokens = Math.min(burst, tokens + (now - at) * perMilli);
            at = now;
        }
        if (tokens < 1) {
            throw new Exhausted("this ring takes at most " + Math.round(perMilli * 1000)
                    + " follower reports a second (ringd.followers.report-rate): try again shortly");
        }
        tokens -= 1;
    }
}
