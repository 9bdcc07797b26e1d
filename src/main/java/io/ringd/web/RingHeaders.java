package io.ringd.web;

/** The headers of ring answers (SPEC.md section 7). */
public final class RingHeaders {

    /** The server's current version on answers; a client's own version on requests. */
    public static final String VERSION = "X-Ring-Version";
    /** {@code true} when the client's version is older than the server's. */
    public static final String STALE = "X-Ring-Stale";

    private RingHeaders() {
    }
}
