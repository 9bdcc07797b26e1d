package io.ringd.store;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.ringd.state.RingStore;

/** Chooses the store from {@code ringd.store}; a store that holds resources is closed with the context. */
@Configuration(proxyBeanMethods = false)
class StoreConfiguration {

    @Bean
    RingStore ringStore(StoreProperties props, ZooKeeperProperties zookeeper) {
        return switch (props.store()) {
            case FILE -> new FileRingStore(props.dataDir());
            case MEMORY -> new MemoryRingStore();
            case ZOOKEEPER -> new ZooKeeperRingStore(zookeeper);
        };
    }
}
