package io.ringd.follow;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Followers of each ring (docs/ring.md section 23).
 *
 * @param ttl        a follower that has not reported for this long is {@code silent}, and forgotten after ten
 *                   times it; 1 s to 1 day
 * @param max        the most followers one ring knows; a report from one more is 503 (an older silent one is
 *                   forgotten first, when there is one); 1 to 1,000,000
 * @param reportRate the most reports one ring takes per second, on average; past it, 503 with Retry-After;
 *                   1 to 10,000,000
 * @param maxWaiters the most {@code GET /followers/converged} requests that wait at once for one ring; past
 *                   it, 503; 1 to 100,000
 */
@ConfigurationProperties("ringd.followers")
public record FollowersProperties(@DefaultValue("60s") Duration ttl, @DefaultValue("10000") int max,
        @DefaultValue("5000") int reportRate, @DefaultValue("1000") int maxWaiters) {

    public FollowersProperties {
        if (ttl.compareTo(Duration.ofSeconds(1)) < 0 || ttl.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException("ringd.followers.ttl must be in [1s, 1d]: " + ttl);
        }
        if (max < 1 || max > 1_000_000) {
            throw new IllegalArgumentException("ringd.followers.max must be in [1, 1000000]: " + max);
        }
        if (reportRate < 1 || reportRate > 10_000_000) {
            throw new IllegalArgumentException("ringd.followers.report-rate must be in [1, 10000000]: "
                    + reportRate);
        }
        if (maxWaiters < 1 || maxWaiters > 100_000) {
            throw new IllegalArgumentException("ringd.followers.max-waiters must be in [1, 100000]: " + maxWaiters);
        }
    }

    /** How long after its last report a follower is forgotten: ten times the TTL. */
    Duration forgetAfter() {
        return ttl.multipliedBy(10);
    }
}
