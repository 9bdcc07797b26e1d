package io.ringd.state;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How much expensive read work (rebuilding an old version, a diff not yet
 * computed, a dry run, labelling the points of a heavy node) may run at once.
 *
 * @param expensiveReads how many may run at once; 0 (the default) for {@link #defaultPermits}
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

    /** What one expensive read may hold on the largest ring the limits allow, with room to spare. */
    static final long PER_READ = 256L << 20;
    /** The heap kept for the rest: the current ring, the caches of old versions, diffs and labels. */
    static final long RESERVED = 384L << 20;

    /** The permits: {@link #expensiveReads()}, or {@link #defaultPermits} when it is 0. */
    public int permits() {
        return expensiveReads > 0 ? expensiveReads
                : defaultPermits(Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory());
    }

    /**
     * Half the processors, so that lookups keep the others, and no more than
     * the heap holds after {@link #RESERVED} at {@link #PER_READ} each; at
     * least 1. Two with a 1 GiB heap on four processors or more, one on two.
     */
    static int defaultPermits(int processors, long maxHeap) {
        long byHeap = (maxHeap - RESERVED) / PER_READ;
        return (int) Math.max(1, Math.min(processors / 2, byHeap));
    }
}
