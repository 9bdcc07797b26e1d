package io.ringd.client;

import java.net.URI;

/**
 * A lookup on a {@link RingClient} that holds no verified ring yet: the
 * server has not been reached, or what it sent did not verify; or, as its
 * {@link RingGoneException} kind, the server has no ring of the client's name.
 */
public sealed class RingNotReadyException extends IllegalStateException permits RingGoneException {

    private static final long serialVersionUID = 1L;

    RingNotReadyException(URI baseUrl) {
        super("no verified ring from " + baseUrl + " yet");
    }

    RingNotReadyException(String message) {
        super(message);
    }
}
