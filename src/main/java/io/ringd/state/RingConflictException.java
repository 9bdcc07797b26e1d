package io.ringd.state;

/**
 * A ring cannot be made (its name is in use, or {@code ringd.rings.max} rings exist) or deleted (the ring
 * {@code default}): 409, naming {@code name}, and nothing changed (docs/ring.md section 22).
 */
public final class RingConflictException extends RuntimeException {

    public RingConflictException(String message) {
        super(message);
    }
}
