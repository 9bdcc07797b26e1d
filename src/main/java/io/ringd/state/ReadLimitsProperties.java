package io.ringd.state;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How much expensive read work (rebuilding an old version, a diff not yet
 * computed, a dry run, labelling the points of a heavy node) may run at once.
 *
 * @param expensiveReads how many may run at once; 0 (the default) for half the processors, at least 1
 * @param expensiveWait  how long one waits for its turn before it is answered 503 {@code busy}
 */
@ConfigurationProperties("ringd.limits")
public record ReadLimitsProperties(@DefaultValue("0") int expensiveReads,
        @DefaultValue("200ms") Duration expensiveWait) {

    public ReadLimitsProperties {
        if (expensiveReads < 0 || expensiveReads > 1024) {
            throw new IllegalArgumentException("ringd.limits.expensive-reads must be in [0, 1024]: " + expensiveReads);
        }
        if (expensiveWait.isNegative() || expensiveWait.compareTo(Duration.ofSeconds(10)) > 0) {
            throw new IllegalArgumentException("ringd.limits.expensive-wait must be in [0, 10s]: " + expensiveWait);
        }
    }

    /** The permits: {@link #expensiveReads()}, or half the processors (at least 1) when it is 0. */
    public int permits() {
        return expensiveReads > 0 ? expensiveReads : Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    }
}
