package io.ringd.web;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import io.ringd.admin.AdminProperties;
import io.ringd.admin.AdminToken;
import io.ringd.state.ExpensiveReads;
import io.ringd.state.HandoffProperties;
import io.ringd.state.RingService;
import io.ringd.state.Rings;
import io.ringd.state.RingSettings;
import io.ringd.store.MemoryRingStores;
import io.ringd.store.StoreProperties;
import io.ringd.web.problem.ProblemWriter;

/**
 * What a {@code @WebMvcTest} slice of one controller needs besides it: a
 * real ring default on a memory store (and its service), the admin token, and the shared web
 * parts a slice does not pick up by itself (the strict JSON reading).
 */
@TestConfiguration(proxyBeanMethods = false)
@EnableConfigurationProperties({AdminProperties.class, StoreProperties.class})
@Import({ProblemWriter.class, AdminToken.class, JsonConfiguration.class})
public class WebSliceConfiguration {

    public static final String TOKEN = "slice-test-admin-token";

    @Bean
    Rings rings() {
        return new Rings(new MemoryRingStores(), RingSettings.defaults(), 101, List.of(), List.of(),
                Clock.systemUTC(), ExpensiveReads.unlimited(), new HandoffProperties(Duration.ofMinutes(10)), 100);
    }

    /** The ring default's service, for the tests to read and change the ring directly. */
    @Bean
    RingService ringService(Rings rings) {
        return rings.defaultRing().service();
    }

    @Bean
    ExpensiveReads expensiveReads() {
        return ExpensiveReads.unlimited();
    }
}
