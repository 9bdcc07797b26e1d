package io.ringd.watch;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import io.ringd.state.RingState;

/**
 * The events a ring's streams open with, encoded once for all of them: the
 * snapshot of the current version, and the change events of the latest
 * versions, which a client that reconnects with {@code Last-Event-ID} is
 * sent again. When a server restarts or a proxy drops its connections,
 * thousands of followers ask for the same few events at once; each is then
 * serialized once rather than once a stream. The items kept here are never
 * timed (no commit time): only a version's live delivery is. Bounded to
 * {@link #MAX_CHANGES} change events and {@link #MAX_BYTES} of their
 * encodings. Not thread-safe: the hub's lock guards it.
 */
final class OpeningEvents {

    static final int MAX_CHANGES = 64;
    static final long MAX_BYTES = 4L << 20;

    private RingState snapshotOf;
    private WatchStream.Item snapshot;
    private String incarnation;
    private final LinkedHashMap<Long, WatchStream.Item> changes = new LinkedHashMap<>();
    private long changeBytes;

    /** The snapshot of {@code current}, made by {@code encode} once per version. */
    WatchStream.Item snapshot(RingState current, Supplier<WatchStream.Item> encode) {
        if (snapshotOf != current) {
            snapshot = encode.get();
            snapshotOf = current;
        }
        return snapshot;
    }

    /** The change event of {@code version} in {@code incarnation}, made by {@code encode} once. */
    WatchStream.Item change(String incarnation, long version, Supplier<WatchStream.Item> encode) {
        follow(incarnation);
        WatchStream.Item item = changes.get(version);
        if (item == null) {
            item = encode.get();
            put(item);
        }
        return item;
    }

    /** A version was committed and its change event encoded for the live streams: kept, untimed, for later. */
    void changed(String incarnation, WatchStream.Item live) {
        follow(incarnation);
        put(new WatchStream.Item(live.name(), live.id(), live.data(), null, live.wire()));
    }

    /** Forgets everything: the ring was reloaded from its store. */
    void clear() {
        snapshotOf = null;
        snapshot = null;
        changes.clear();
        changeBytes = 0;
    }

    private void follow(String incarnation) {
        if (!Objects.equals(this.incarnation, incarnation)) {
            clear();
            this.incarnation = incarnation;
        }
    }

    private void put(WatchStream.Item item) {
        WatchStream.Item old = changes.put(item.id(), item);
        changeBytes += item.wire().length - (old == null ? 0 : old.wire().length);
        Iterator<Map.Entry<Long, WatchStream.Item>> oldest = changes.entrySet().iterator();
        while (changes.size() > 1 && (changes.size() > MAX_CHANGES || changeBytes > MAX_BYTES)) {
            changeBytes -= oldest.next().getValue().wire().length;
            oldest.remove();
        }
    }

    /** How many change events are kept, for tests. */
    int changesKept() {
        return changes.size();
    }
}
