package io.ringd.client;

import java.net.URI;

/**
 * A lookup on a {@link RingClient} whose ring the server does not have
 * (docs/ring.md section 22): it was deleted, or never made. The client no
 * longer answers from the ring it held, and asks again now and then
 * ({@link RingClientBuilder#goneRecheck}): once a ring of that name is made
 * (again), it loads it and answers again. A kind of
 * {@link RingNotReadyException}: there is no ring to answer from.
 */
public final class RingGoneException extends RingNotReadyException {

    private static final long serialVersionUID = 1L;

    private final String ringName;
    private final URI baseUrl;
    /** What the server said, if anything. */
    final transient String detail;

    RingGoneException(URI baseUrl, String ringName, String detail) {
        super("the ring " + ringName + " does not exist on " + baseUrl + ": it was deleted, or never made"
                + (detail == null || detail.isBlank() ? "" : " (the server said: " + detail + ")"));
        this.ringName = ringName;
        this.baseUrl = baseUrl;
        this.detail = detail;
    }

    /** The name of the ring the server does not have. */
    public String ringName() {
        return ringName;
    }

    /** The server asked. */
    public URI baseUrl() {
        return baseUrl;
    }
}
