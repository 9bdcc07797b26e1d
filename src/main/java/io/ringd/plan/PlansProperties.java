package io.ringd.plan;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Planned changes (docs/ring.md section 24).
 *
 * @param keep the most plans kept per ring, the running or paused one included; the oldest ended ones go
 *             first; 1 to 1,000
 * @param tick how often the instance that drives a ring's plan looks at it while it runs (the interval and the
 *             gate are checked this often); 10 ms to 10 s
 */
@ConfigurationProperties("ringd.plans")
public record PlansProperties(@DefaultValue("20") int keep, @DefaultValue("100ms") Duration tick) {

    public PlansProperties {
        if (keep < 1 || keep > 1_000) {
            throw new IllegalArgumentException("ringd.plans.keep must be in [1, 1000]: " + keep);
        }
        if (tick.compareTo(Duration.ofMillis(10)) < 0 || tick.compareTo(Duration.ofSeconds(10)) > 0) {
            throw new IllegalArgumentException("ringd.plans.tick must be in [10ms, 10s]: " + tick);
        }
    }
}
