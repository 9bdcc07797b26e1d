package io.ringd.warmup;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.ringd.state.Rings;

/** The lookup warm-up before readiness ({@link LookupWarmup}). */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(WarmupProperties.class)
class WarmupConfiguration {

    @Bean
    LookupWarmup lookupWarmup(Rings rings, ApplicationContext context, WarmupProperties properties) {
        return new LookupWarmup(rings, context, properties);
    }
}
