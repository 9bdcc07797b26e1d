package io.ringd.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import io.ringd.state.RingSettings;
import io.ringd.state.RingState;

/** The events streams open with: each encoded once, bounded, never timed, forgotten with their incarnation. */
class OpeningEventsTest {

    final OpeningEvents opening = new OpeningEvents();
    final AtomicInteger encoded = new AtomicInteger();

    WatchStream.Item encode(long version, String data) {
        encoded.incrementAndGet();
        return WatchStream.Item.event(WatchHub.CHANGE, version, data, null);
    }

    static RingState state(long version) {
        HashRing ring = HashRing.of(RingConfig.defaults(), version, List.of(Node.of("a", 1)));
        return new RingState(RingSettings.defaults(), ring, ring.fingerprint(), Instant.EPOCH, "inc-1");
    }

    @Test
    void aStormOfReconnections_encodesEachEventOnce() {
        for (int stream = 0; stream < 1_000; stream++) {
            for (long v = 5; v <= 7; v++) {
                long version = v;
                WatchStream.Item item = opening.change("inc-1", v, () -> encode(version, "{\"version\":" + version + "}"));
                assertThat(item.id()).isEqualTo(v);
            }
        }
        assertThat(encoded).hasValue(3);
        RingState current = state(7);
        for (int stream = 0; stream < 1_000; stream++) {
            assertThat(opening.snapshot(current, () -> encode(7, "{\"snapshot\":7}")).data()).isEqualTo("{\"snapshot\":7}");
        }
        assertThat(encoded).hasValue(4);
        opening.snapshot(state(8), () -> encode(8, "{\"snapshot\":8}"));
        assertThat(encoded).as("another version: encoded again").hasValue(5);
    }

    @Test
    void aLiveEvent_isKeptUntimed_withTheSameBytes() {
        WatchStream.Item live = WatchStream.Item.event(WatchHub.CHANGE, 9, "{\"version\":9}", Instant.now());
        opening.changed("inc-1", live);
        WatchStream.Item again = opening.change("inc-1", 9, () -> encode(9, "never"));
        assertThat(encoded).hasValue(0);
        assertThat(again.committedAt()).as("a resumed delivery is not timed as a live one").isNull();
        assertThat(again.wire()).isSameAs(live.wire());
    }

    @Test
    void anotherIncarnation_orAReload_forgetsWhatWasEncoded() {
        opening.change("inc-1", 3, () -> encode(3, "one"));
        assertThat(opening.change("inc-2", 3, () -> encode(3, "two")).data()).isEqualTo("two");
        opening.clear();
        assertThat(opening.change("inc-2", 3, () -> encode(3, "three")).data()).isEqualTo("three");
        assertThat(encoded).hasValue(3);
    }

    @Test
    void itKeepsTheLatestEvents_boundedInCountAndBytes() {
        for (long v = 1; v <= 200; v++) {
            opening.changed("inc-1", WatchStream.Item.event(WatchHub.CHANGE, v, "{}", null));
        }
        assertThat(opening.changesKept()).isEqualTo(OpeningEvents.MAX_CHANGES);
        opening.change("inc-1", 200, () -> encode(200, "again"));
        assertThat(encoded).as("the newest is kept").hasValue(0);
        opening.change("inc-1", 1, () -> encode(1, "again"));
        assertThat(encoded).as("the oldest was let go").hasValue(1);
        String big = "x".repeat(1 << 20);
        for (long v = 300; v < 306; v++) {
            opening.changed("inc-1", WatchStream.Item.event(WatchHub.CHANGE, v, big, null));
        }
        assertThat(opening.changesKept()).as("at most 4 MiB of encodings").isLessThanOrEqualTo(4);
        assertThat(List.of(opening.change("inc-1", 305, () -> encode(305, "x")).id())).containsExactly(305L);
        assertThat(encoded).hasValue(1);
    }
}
