package io.ringd.store;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.ringd.state.RingStore;

/** Chooses the store from {@code ringd.store}. */
@Configuration(proxyBeanMethods = false)
class StoreConfiguration {

    @Bean
    RingStore ringStore(StoreProperties props) {
        return switch (props.store()) {
            case FILE -> new FileRingStore(props.dataDir());
            case MEMORY -> new MemoryRingStore();
            case ZOOKEEPER -> throw new IllegalStateException(
                    "ringd.store=zookeeper is not available in this version; use file or memory");
        };
    }
}
