package io.ringd.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;

/**
 * The lookup warm-up runs before readiness, sends its loopback preference
 * lookups, and leaves the lookup counters alone.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "ringd.store=memory",
        "ringd.admin.token=warmup-test-admin-token-0123456789",
        "ringd.data-dir=target/warmup-test-data",
        "ringd.warmup.enabled=true",
        "ringd.warmup.duration=1500ms",
        "logging.level.io.ringd=WARN" })
class WarmupTest {

    @Autowired
    MeterRegistry registry;

    @Autowired
    ApplicationAvailability availability;

    @Test
    void warmUpRanOverHttpBeforeReadinessAndRoutedNoKey() {
        assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
        long preferenceRequests = Search.in(registry).name("http.server.requests")
                .tag("uri", "/preference/{key}").timers().stream().mapToLong(t -> t.count()).sum();
        assertThat(preferenceRequests).as("warm-up requests to /preference/{key}").isPositive();
        double routed = Search.in(registry).name("ringd.routes").counters().stream()
                .mapToDouble(c -> c.count()).sum();
        assertThat(routed).as("keys counted as routed").isZero();
    }
}
