package io.ringd.metrics;

import java.time.Duration;

import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.ringd.state.RingService;
import io.ringd.state.RingState;

/**
 * Latency histograms for the HTTP endpoints (so {@code /route/{key}} has
 * {@code http_server_requests_seconds_bucket}), and the ring in {@code /actuator/info}.
 */
@Configuration(proxyBeanMethods = false)
class MetricsConfiguration {

    @Bean
    MeterFilter lookupLatencyHistograms() {
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                // Every series of one Prometheus metric must be of one type, so all
                // http.server.requests get the histogram; the range keeps the buckets few.
                if (id.getName().equals("http.server.requests")) {
                    return DistributionStatisticConfig.builder().percentilesHistogram(true)
                            .minimumExpectedValue((double) Duration.ofNanos(50_000).toNanos())
                            .maximumExpectedValue((double) Duration.ofSeconds(10).toNanos())
                            .build().merge(config);
                }
                return config;
            }
        };
    }

    @Bean
    MeterBinder storeState(RingService ring) {
        return registry -> {
            Gauge.builder("ringd.store.writable", ring, r -> r.isWritable() ? 1 : 0)
                    .description("1 when the ring's store accepts writes; 0 while a shared store is out of reach")
                    .register(registry);
            Gauge.builder("ringd.ring.loaded", ring, r -> r.isLoaded() ? 1 : 0)
                    .description("1 once a ring is loaded; 0 for an instance that never reached its shared store")
                    .register(registry);
        };
    }

    @Bean
    InfoContributor ringInfo(RingService ring) {
        return builder -> {
            RingState s = ring.current();
            builder.withDetail("ring", java.util.Map.of(
                    "version", s.version(),
                    "fingerprint", s.fingerprint(),
                    "settings", s.settings(),
                    "nodes", s.nodes().size(),
                    "points", s.ring().pointCount(),
                    "oldestKeptVersion", ring.oldestVersion()));
        };
    }
}
