package io.ringd.ring;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Who held a key before its current owner (docs/ring.md section 21): the
 * version at which it last changed owner within the window, when that
 * version was committed, and the distinct owners it had before, newest
 * first. A key whose owner did not change within the window has no
 * handoff ({@link HandoffIndex} answers {@code null}).
 *
 * @param movedAt     the newest version V within the window whose owner of the key differs from the owner at V-1
 * @param movedAtTime when V was committed, or {@code null} when that is not known
 * @param previous    the distinct owners the key had at versions before V, newest first, within the window: at
 *                    most {@link #MAX_PREVIOUS}, never the current owner; empty for a key that came from an
 *                    empty ring
 */
public record Handoff(long movedAt, Instant movedAtTime, List<String> previous) {

    /** The most previous owners an answer lists. */
    public static final int MAX_PREVIOUS = 8;

    public Handoff {
        if (movedAt < 1) {
            throw new IllegalArgumentException("movedAt must be >= 1: " + movedAt);
        }
        previous = List.copyOf(Objects.requireNonNull(previous, "previous"));
        if (previous.size() > MAX_PREVIOUS) {
            throw new IllegalArgumentException("previous must hold at most 8 owners: " + previous.size());
        }
    }
}
