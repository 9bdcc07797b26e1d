package io.ringd.state;

/** Too much expensive read work runs already: the read was not made; it may be tried again shortly. */
public class BusyException extends RuntimeException {

    public BusyException(String message) {
        super(message);
    }
}
