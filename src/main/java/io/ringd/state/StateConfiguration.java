package io.ringd.state;

import java.time.Clock;
import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the rings from the stores, the history setting, the settings of a new ring, the read limits, the
 * handoff window, the movement guard and every {@link RingPart}.
 */
@Configuration(proxyBeanMethods = false)
class StateConfiguration {

    @Bean
    ExpensiveReads expensiveReads(ReadLimitsProperties limits) {
        return new ExpensiveReads(limits);
    }

    @Bean(destroyMethod = "close")
    Rings rings(RingStores stores, InitialRingProperties initial, HistoryProperties history,
            ObjectProvider<RingListener> listeners, ObjectProvider<RingPart> parts, ExpensiveReads reads,
            HandoffProperties handoff, RingsProperties rings, GuardProperties guard) {
        RingSettings defaults = initial.toSettings();
        try {
            SettingsPatch.validate(defaults);
        } catch (InvalidInputException e) {
            throw new IllegalStateException("invalid ringd.ring settings for a new ring: " + e.getMessage(), e);
        }
        List<RingListener> all = listeners.orderedStream().toList();
        return new Rings(stores, defaults, history.versions(), all, parts.orderedStream().toList(),
                Clock.systemUTC(), reads, handoff, rings.max(), guard.guard());
    }
}
