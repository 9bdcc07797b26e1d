package io.ringd.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.ringd.ring.Node;
import io.ringd.state.RingService;
import io.ringd.state.Rings;
import io.ringd.state.RingSettings;
import io.ringd.store.FileRingStore;

/**
 * The lookup warm-up runs before readiness, sends its loopback preference
 * lookups, and leaves the lookup counters alone. The server starts on a
 * stored ring of three nodes (a file store in a new folder), so the warm-up's
 * lookups are answered (200, a preference list) and a lookup that routed a
 * key would count it. A filter ahead of every other sees each warm-up lookup
 * arrive and notes whether readiness already accepted traffic.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "ringd.store=file",
        "ringd.admin.token=warmup-test-admin-token-0123456789",
        "ringd.warmup.enabled=true",
        "ringd.warmup.duration=1500ms",
        "logging.level.io.ringd=WARN" })
class WarmupTest {

    private static final String PREFERENCE = "/preference/{key}";

    /** A data folder holding a ring of three nodes at version 3, for the server to start on. */
    @DynamicPropertySource
    static void storedRing(DynamicPropertyRegistry registry) {
        registry.add("ringd.data-dir", () -> {
            try {
                Files.createDirectories(Path.of("target"));
                Path dir = Files.createTempDirectory(Path.of("target"), "warmup-test-data-");
                try (FileRingStore store = new FileRingStore(dir)) {
                    RingService ring = new RingService(store, RingSettings.defaults(), 16, List.of());
                    ring.put(Node.of("a", 1), null);
                    ring.put(Node.of("b", 2), null);
                    ring.put(new Node("c", 1, "z1"), null);
                }
                return dir.toString();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /**
     * Sees each warm-up lookup (a path with "/warmup:" in it) as the server
     * takes it, before anything else handles it; notes whether readiness was
     * already ACCEPTING_TRAFFIC, and how the lookup was answered.
     */
    static final class WarmupRequests implements Filter {
        private final ApplicationAvailability availability;
        final AtomicInteger beforeReadiness = new AtomicInteger();
        final AtomicInteger afterReadiness = new AtomicInteger();
        final AtomicInteger answered = new AtomicInteger();
        final AtomicInteger answeredOk = new AtomicInteger();

        WarmupRequests(ApplicationAvailability availability) {
            this.availability = availability;
        }

        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            if (!(request instanceof HttpServletRequest http && http.getRequestURI().contains("/warmup:"))) {
                chain.doFilter(request, response);
                return;
            }
            boolean ready = availability.getReadinessState() == ReadinessState.ACCEPTING_TRAFFIC;
            (ready ? afterReadiness : beforeReadiness).incrementAndGet();
            try {
                chain.doFilter(request, response);
            } finally {
                if (((HttpServletResponse) response).getStatus() == 200) {
                    answeredOk.incrementAndGet();
                }
                answered.incrementAndGet();
            }
        }

        int taken() {
            return beforeReadiness.get() + afterReadiness.get();
        }
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class WarmupRequestsFilter {

        @Bean
        WarmupRequests warmupRequests(ApplicationAvailability availability) {
            return new WarmupRequests(availability);
        }

        @Bean
        FilterRegistrationBean<WarmupRequests> warmupRequestsRegistration(WarmupRequests filter) {
            FilterRegistrationBean<WarmupRequests> registration = new FilterRegistrationBean<>(filter);
            registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
            return registration;
        }
    }

    @Autowired
    MeterRegistry registry;

    @Autowired
    ApplicationAvailability availability;

    RingService service;

    @Autowired
    void rings(Rings rings) {
        service = rings.defaultRing().service();
    }

    @Autowired
    WarmupRequests warmup;

    @Test
    void warmUpRanOverHttpBeforeReadinessAndRoutedNoKey() throws InterruptedException {
        assertThat(service.current().ring().nodeCount()).as("the stored ring the server started on").isEqualTo(3);
        assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
        assertThat(warmup.beforeReadiness.get()).as("warm-up lookups taken while readiness still refused traffic")
                .isPositive();
        // A warm-up lookup the warm-up stopped waiting for (its 2 s read timeout, on a loaded machine) may
        // still be in the server: let it finish before counting answers.
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (warmup.answered.get() < warmup.taken() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(warmup.answeredOk.get()).as("warm-up lookups answered 200 (the ring has nodes), of %d",
                warmup.taken()).isEqualTo(warmup.taken());
        double routed = Search.in(registry).name("ringd.routes").counters().stream()
                .mapToDouble(c -> c.count()).sum();
        assertThat(routed).as("keys counted as routed").isZero();
        assertThat(preferenceRequests(registry)).as("warm-up requests to %s in the server metrics", PREFERENCE)
                .isEqualTo(warmup.taken());
    }

    /** The {@code GET /preference/{key}} requests the server has timed. */
    static long preferenceRequests(MeterRegistry registry) {
        return Search.in(registry).name("http.server.requests").tag("uri", PREFERENCE).timers().stream()
                .mapToLong(t -> t.count()).sum();
    }
}
