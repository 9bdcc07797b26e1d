package io.ringd.client;

import java.net.URI;

/**
 * A lookup on a {@link RingClient} that holds no verified ring yet: the
 * server has not been reached, or what it sent did not verify.
 */
public final class RingNotReadyException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    RingNotReadyException(URI baseUrl) {
        super("no verified ring from " + baseUrl + " yet");
    }
}
