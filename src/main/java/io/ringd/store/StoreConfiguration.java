package io.ringd.store;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.ringd.state.RingStores;

/** Chooses the stores from {@code ringd.store}; stores that hold resources are closed with the context. */
@Configuration(proxyBeanMethods = false)
class StoreConfiguration {

    @Bean
    RingStores ringStores(StoreProperties props, ZooKeeperProperties zookeeper) {
        return switch (props.store()) {
            case FILE -> new FileRingStores(props.dataDir());
            case MEMORY -> new MemoryRingStores();
            case ZOOKEEPER -> new ZooKeeperRingStores(zookeeper);
        };
    }
}
