package io.ringd.config;

import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.ringd.state.InvalidRequestException;
import io.ringd.state.RingListener;
import io.ringd.state.RingService;
import io.ringd.state.RingStore;
import io.ringd.store.FileRingStore;
import io.ringd.store.MemoryRingStore;

/** Wires the store and the ring service from the settings. */
@Configuration(proxyBeanMethods = false)
class StateConfiguration {

    @Bean
    RingStore ringStore(StoreProperties props) {
        return switch (props.store()) {
            case FILE -> new FileRingStore(props.dataDir());
            case MEMORY -> new MemoryRingStore();
            case ZOOKEEPER -> throw new IllegalStateException(
                    "ringd.store=zookeeper is not available in this version; use file or memory");
        };
    }

    @Bean
    RingService ringService(RingStore store, InitialRingProperties initial, HistoryProperties history,
            ObjectProvider<RingListener> listeners) {
        List<RingListener> all = listeners.orderedStream().toList();
        try {
            return new RingService(store, initial.toSettings(), history.versions(), all);
        } catch (InvalidRequestException e) {
            throw new IllegalStateException("invalid ringd.ring settings for a new ring: " + e.getMessage(), e);
        }
    }
}
