package io.ringd.state;

import java.time.Clock;
import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the ring service from the store, the history setting, the settings of a new ring and the read limits,
 * and the handoff indexes from the handoff window.
 */
@Configuration(proxyBeanMethods = false)
class StateConfiguration {

    @Bean
    ExpensiveReads expensiveReads(ReadLimitsProperties limits) {
        return new ExpensiveReads(limits);
    }

    @Bean
    RingService ringService(RingStore store, InitialRingProperties initial, HistoryProperties history,
            ObjectProvider<RingListener> listeners, ExpensiveReads reads) {
        List<RingListener> all = listeners.orderedStream().toList();
        try {
            return new RingService(store, initial.toSettings(), history.versions(), all, Clock.systemUTC(), reads);
        } catch (InvalidInputException e) {
            throw new IllegalStateException("invalid ringd.ring settings for a new ring: " + e.getMessage(), e);
        }
    }

    @Bean
    Handoffs handoffs(RingService ring, HandoffProperties handoff) {
        return new Handoffs(ring, handoff, Clock.systemUTC());
    }
}
