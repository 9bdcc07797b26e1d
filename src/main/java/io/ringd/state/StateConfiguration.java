package io.ringd.state;

import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the ring service from the store, the history setting and the settings of a new ring. */
@Configuration(proxyBeanMethods = false)
class StateConfiguration {

    @Bean
    RingService ringService(RingStore store, InitialRingProperties initial, HistoryProperties history,
            ObjectProvider<RingListener> listeners) {
        List<RingListener> all = listeners.orderedStream().toList();
        try {
            return new RingService(store, initial.toSettings(), history.versions(), all);
        } catch (InvalidInputException e) {
            throw new IllegalStateException("invalid ringd.ring settings for a new ring: " + e.getMessage(), e);
        }
    }
}
