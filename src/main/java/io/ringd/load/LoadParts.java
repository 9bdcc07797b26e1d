package io.ringd.load;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import java.util.Map;

import io.ringd.state.NodeLatencies;
import io.ringd.state.RingPart;
import io.ringd.state.ServedRing;

/** Gives every ring its own {@link LoadTracker}: loads are per ring, as its members are. */
@Component
@Order(0) // before the metrics, which export the ring's loads
class LoadParts implements RingPart {

    private final LoadProperties properties;

    LoadParts(LoadProperties properties) {
        this.properties = properties;
    }

    @Override
    public Object attach(ServedRing ring) {
        LoadTracker tracker = new LoadTracker(properties);
        if (properties.source() == LoadProperties.Source.FOLLOWERS) {
            tracker.useFollowers(() -> {
                NodeLatencies l = ring.part(NodeLatencies.class);
                return l == null ? Map.of() : l.medians();
            });
        }
        return tracker;
    }
}
