package io.ringd.state;

/**
 * Stored ring state that cannot be read or used: ringd must not start, and
 * must not start with an empty ring in its place.
 */
public class StateUnreadableException extends IllegalStateException {

    private final String where;

    public StateUnreadableException(String where, String message, Throwable cause) {
        super(message, cause);
        this.where = where;
    }

    /** The file or location of the state. */
    public String where() {
        return where;
    }
}
