package io.ringd.web;

import java.util.List;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import io.ringd.admin.AdminProperties;
import io.ringd.admin.AdminToken;
import io.ringd.state.RingService;
import io.ringd.state.RingSettings;
import io.ringd.store.MemoryRingStore;
import io.ringd.store.StoreProperties;
import io.ringd.web.problem.ProblemWriter;

/**
 * What a {@code @WebMvcTest} slice of one controller needs besides it: a
 * real ring service on a memory store, the admin token, and the shared web
 * parts a slice does not pick up by itself (the strict JSON reading).
 */
@TestConfiguration(proxyBeanMethods = false)
@EnableConfigurationProperties({AdminProperties.class, StoreProperties.class})
@Import({ProblemWriter.class, AdminToken.class, JsonConfiguration.class})
public class WebSliceConfiguration {

    public static final String TOKEN = "slice-test-admin-token";

    @Bean
    RingService ringService() {
        return new RingService(new MemoryRingStore(), RingSettings.defaults(), 101, List.of());
    }
}
