package io.ringd.client;

import java.util.List;

import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.RingConfig;

/**
 * Benchmark only (src/jmh, never in the client): the steps the follower
 * thread takes for a {@code change} event's data ({@code RingFollower.change}
 * up to the publish), which are package-private in the client, for
 * ClientApplyBenchmark to time whole and one by one.
 */
public final class ClientApplyPath {

    private ClientApplyPath() {
    }

    /**
     * The follower's path: the data read ({@code RingMessages.change}), then
     * applied to {@code previous} and verified ({@code ChangeEvent.applyTo}).
     */
    public static HashRing follow(String data, HashRing previous) throws Exception {
        return RingMessages.change(data).applyTo(previous);
    }

    /** The first step alone: the event's data read. */
    public static Parsed parse(String data) throws Exception {
        return new Parsed(RingMessages.change(data));
    }

    /** A change event as the client read it. */
    public static final class Parsed {
        private final RingMessages.ChangeEvent event;

        private Parsed(RingMessages.ChangeEvent event) {
            this.event = event;
        }

        public long version() {
            return event.version();
        }

        public String fingerprint() {
            return event.fingerprint();
        }

        public List<Change> changes() {
            return event.changes();
        }

        /** The config the next version has, as {@code ChangeEvent.applyTo} takes it. */
        public RingConfig config(HashRing previous) {
            return event.settings() == null ? previous.config() : event.settings().toConfig();
        }
    }
}
