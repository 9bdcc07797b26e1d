package io.ringd.state;

/** No ring of this name is served (never made, or deleted): 404 naming {@code ring} (docs/ring.md section 22). */
public final class RingNotFoundException extends RuntimeException {

    private final String ring;

    public RingNotFoundException(String ring, String message) {
        super(message);
        this.ring = ring;
    }

    /** The name asked for. */
    public String ring() {
        return ring;
    }
}
