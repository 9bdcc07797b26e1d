package io.ringd.state;

/**
 * A plan's step could not be committed: the ring is not at the version the
 * step was computed after, and the version after it is not that step either
 * (something else changed the ring). Nothing was changed.
 */
public final class StepConflictException extends RuntimeException {

    public StepConflictException(String message) {
        super(message);
    }
}
