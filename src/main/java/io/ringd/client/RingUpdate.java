package io.ringd.client;

import java.time.Instant;
import java.util.Objects;

import io.ringd.ring.HashRing;

/**
 * A verified ring the client has just begun to answer from, and how it got
 * it: what {@link RingClient.Listener#ringUpdated} is told of each one.
 *
 * <p>Most versions are {@linkplain Source#CHANGE applied from their change
 * event}, one after the other; each event says whether the version is a step
 * of a planned change (docs/ring.md section 24), so {@code planStep} is that
 * step, or null for an ordinary write. A ring {@linkplain Source#WHOLE loaded
 * whole} (the first one, a reload, a snapshot the server sent) comes without
 * that mark: its {@code planStep} is null because the client cannot know,
 * and the versions between {@code previous} and {@code current}, plan steps
 * among them, were not seen one by one ({@code GET /plans} says where a plan
 * stands).
 *
 * @param previous    the ring answered from before, or {@code null} for the first (and the first after the ring
 *                    was gone)
 * @param current     the ring answered from now
 * @param committedAt when the server committed {@code current}'s version, or {@code null} if it did not say
 * @param source      how the client got {@code current}
 * @param planStep    the plan step {@code current}'s version is, or {@code null}: no plan's step ({@link
 *                    Source#CHANGE}), or not known ({@link Source#WHOLE})
 */
public record RingUpdate(HashRing previous, HashRing current, Instant committedAt, Source source,
        PlanStep planStep) {

    /** How the client got a ring. */
    public enum Source {
        /** Applied from the change event of its version to the version before: every version is seen. */
        CHANGE,
        /**
         * Loaded whole ({@code GET /ring}, or a snapshot event): the first ring, a reload after a gap or a
         * mismatch, a new history or incarnation. Whether it is a plan's step is not known.
         */
        WHOLE
    }

    /**
     * @throws IllegalArgumentException if a ring loaded whole names a plan step
     */
    public RingUpdate {
        Objects.requireNonNull(current, "current");
        Objects.requireNonNull(source, "source");
        if (source == Source.WHOLE && planStep != null) {
            throw new IllegalArgumentException("a ring loaded whole cannot know its plan step: " + planStep);
        }
    }

    /** The version of the ring answered from now. */
    public long version() {
        return current.version();
    }

    /**
     * Whether {@link #planStep()} is known: true for a version applied from its change event (null then
     * means no plan's step), false for a ring loaded whole.
     */
    public boolean planStepKnown() {
        return source == Source.CHANGE;
    }
}
