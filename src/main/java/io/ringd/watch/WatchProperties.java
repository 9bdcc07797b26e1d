package io.ringd.watch;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The change stream, {@code GET /ring/events}.
 *
 * @param maxStreams streams open at once; more are refused with 503
 * @param maxQueued  events queued for one stream before it counts as too slow and is closed
 * @param keepAlive  how often a comment is sent on every stream, so that idle streams stay open and clients
 *                   know the server is there
 * @param writers    threads that write events to streams (shared by all streams)
 * @param writeTimeout how long one write to a stream may stay blocked (the client not reading) before the
 *                   stream is ended
 * @param probeInterval how long a stream may stay idle before an empty comment is written to it: a client
 *                   that went away is noticed (and its slot freed) by the second write after it left, so
 *                   within about two intervals
 * @param probeRate  the most empty comments written a second, over all streams: with more streams than
 *                   {@code probeRate * probeInterval} each idle stream is probed every
 *                   {@code streams / probeRate} seconds instead, so that idle streams cost a bounded
 *                   share of the CPU however many there are
 * @param noticeCloses whether a stream's connection tells of its client closing it, without a write (the
 *                   selector watches it): such a stream is never probed, and its slot is freed as soon as
 *                   its client goes. {@code false}: the probes find closed clients, as they do where the
 *                   connection cannot be watched
 */
@ConfigurationProperties("ringd.watch")
public record WatchProperties(@DefaultValue("10000") int maxStreams, @DefaultValue("1000") int maxQueued,
        @DefaultValue("15s") Duration keepAlive, @DefaultValue("4") int writers,
        @DefaultValue("5s") Duration writeTimeout, @DefaultValue("300ms") Duration probeInterval,
        @DefaultValue("4000") int probeRate, @DefaultValue("true") boolean noticeCloses) {

    public WatchProperties {
        if (maxStreams < 1 || maxStreams > 100_000) {
            throw new IllegalArgumentException("ringd.watch.max-streams must be in [1, 100000]: " + maxStreams);
        }
        if (maxQueued < 1 || maxQueued > 1_000_000) {
            throw new IllegalArgumentException("ringd.watch.max-queued must be in [1, 1000000]: " + maxQueued);
        }
        if (keepAlive.isNegative() || keepAlive.isZero() || keepAlive.compareTo(Duration.ofSeconds(15)) > 0) {
            throw new IllegalArgumentException("ringd.watch.keep-alive must be in (0, 15s]: " + keepAlive);
        }
        if (writers < 1 || writers > 64) {
            throw new IllegalArgumentException("ringd.watch.writers must be in [1, 64]: " + writers);
        }
        if (writeTimeout.compareTo(Duration.ofMillis(100)) < 0 || writeTimeout.compareTo(Duration.ofSeconds(60)) > 0) {
            throw new IllegalArgumentException("ringd.watch.write-timeout must be in [100ms, 60s]: " + writeTimeout);
        }
        if (probeInterval.compareTo(Duration.ofMillis(50)) < 0 || probeInterval.compareTo(keepAlive) > 0) {
            throw new IllegalArgumentException("ringd.watch.probe-interval must be in [50ms, ringd.watch.keep-alive]: "
                    + probeInterval);
        }
        if (probeRate < 10 || probeRate > 1_000_000) {
            throw new IllegalArgumentException("ringd.watch.probe-rate must be in [10, 1000000]: " + probeRate);
        }
    }

    /**
     * How long a stream may stay idle before it is probed, with {@code streams} open: the probe
     * interval, or longer where the probe rate could not probe them all that often.
     */
    long probeIdleNanos(int streams) {
        return Math.max(probeInterval.toNanos(), (long) (streams * (1e9 / probeRate)));
    }
}
