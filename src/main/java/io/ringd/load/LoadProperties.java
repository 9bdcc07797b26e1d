package io.ringd.load;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The loads of bounded-load lookups.
 *
 * @param halfLife  the half-life of a node's decayed count of routed keys: each key counts 1 when it is routed
 *                  and half as much every half-life after; 1 ms to 1 day
 * @param reportTtl how long a load reported with {@code PUT /nodes/{id}/load} stands in for the decayed count;
 *                  past it the decayed count is the load again; 1 s to 1 day
 * @param source    {@code routed}: a reported load, else the decayed count; {@code followers}: the median of
 *                  the latencies the ring's followers report of the node (docs/ring.md section 23)
 */
@ConfigurationProperties("ringd.load")
public record LoadProperties(@DefaultValue("10s") Duration halfLife, @DefaultValue("60s") Duration reportTtl,
        @DefaultValue("routed") Source source) {

    /** Where the loads of bounded routing come from. */
    public enum Source {
        /** An admin's reported load, else the decayed count of the keys routed to the node. */
        ROUTED,
        /** The median of the latencies the followers reported of the node. */
        FOLLOWERS
    }


    static final Duration MAX = Duration.ofDays(1);

    public LoadProperties {
        if (source == null) {
            source = Source.ROUTED;
        }
        if (halfLife.compareTo(Duration.ofMillis(1)) < 0 || halfLife.compareTo(MAX) > 0) {
            throw new IllegalArgumentException("ringd.load.half-life must be in [1ms, 1d]: " + halfLife);
        }
        if (reportTtl.compareTo(Duration.ofSeconds(1)) < 0 || reportTtl.compareTo(MAX) > 0) {
            throw new IllegalArgumentException("ringd.load.report-ttl must be in [1s, 1d]: " + reportTtl);
        }
    }
}
