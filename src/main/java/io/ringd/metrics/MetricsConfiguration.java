package io.ringd.metrics;

import java.time.Duration;

import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.ringd.state.RingService;
import io.ringd.state.Rings;
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

    /** The ring {@code default} under {@code ring}, as before named rings, and how many rings are served. */
    @Bean
    InfoContributor ringInfo(Rings rings) {
        return builder -> {
            RingService ring = rings.defaultRing().service();
            RingState s = ring.current();
            builder.withDetail("ring", java.util.Map.of(
                    "version", s.version(),
                    "fingerprint", s.fingerprint(),
                    "settings", s.settings(),
                    "nodes", s.nodes().size(),
                    "points", s.ring().pointCount(),
                    "oldestKeptVersion", ring.oldestVersion()));
            builder.withDetail("rings", rings.all().size());
        };
    }
}
