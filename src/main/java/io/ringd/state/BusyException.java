package io.ringd.state;

/** Too much expensive read work runs already: the read was not made; it may be tried again shortly. */
public class BusyException extends RuntimeException {

    private final int retryAfterSeconds;

    /** Busy for a moment: tried again after a second. */
    public BusyException(String message) {
        this(message, 1);
    }

    /** Busy for {@code retryAfterSeconds} (at least 1), as the answer's {@code Retry-After} says. */
    public BusyException(String message, int retryAfterSeconds) {
        super(message);
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
    }

    /** When to try again, in seconds. */
    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
