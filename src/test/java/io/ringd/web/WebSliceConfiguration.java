package io.ringd.web;

import java.util.List;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import io.ringd.config.AdminProperties;
import io.ringd.config.StoreProperties;
import io.ringd.state.RingService;
import io.ringd.state.RingSettings;
import io.ringd.store.MemoryRingStore;

/**
 * What a {@code @WebMvcTest} slice of one controller needs besides it: a
 * real ring service on a memory store, and the web package's components.
 */
@TestConfiguration(proxyBeanMethods = false)
@EnableConfigurationProperties({AdminProperties.class, StoreProperties.class})
@Import({Snapshots.class, ProblemWriter.class, AdminToken.class})
public class WebSliceConfiguration {

    public static final String TOKEN = "slice-test-admin-token";

    @Bean
    RingService ringService() {
        return new RingService(new MemoryRingStore(), RingSettings.defaults(), 101, List.of());
    }
}
