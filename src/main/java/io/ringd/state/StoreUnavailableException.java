package io.ringd.state;

/** The store could not make a change durable ; the change was not applied. */
public class StoreUnavailableException extends RuntimeException {

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
