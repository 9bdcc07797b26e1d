package io.ringd.state;

/**
 * The store could not be reached, or could not make a change durable; a
 * change was not applied.
 */
public class StoreUnavailableException extends RuntimeException {

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public StoreUnavailableException(String message) {
        super(message);
    }
}
