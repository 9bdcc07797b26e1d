package io.ringd.state;

/**
 * The store could not be reached, or could not make a change durable; a
 * change was not applied.
 */
public class StoreUnavailableException extends RuntimeException {

    private final boolean outcomeUnknown;
    private final String detail;

    public StoreUnavailableException(String message, Throwable cause) {
        this(message, cause, false);
    }

    public StoreUnavailableException(String message) {
        this(message, null, false);
    }

    /**
     * @param outcomeUnknown the store was asked to make the change durable and the connection failed before it
     *                       answered: the change may have been stored after all
     */
    public StoreUnavailableException(String message, Throwable cause, boolean outcomeUnknown) {
        super(message, cause);
        this.outcomeUnknown = outcomeUnknown;
        this.detail = null;
    }

    /**
     * A refusal whose cause the caller is told as {@code detail} (no address, no exception): what happened,
     * so that it is never mistaken for another cause.
     */
    public StoreUnavailableException(String message, String detail, Throwable cause) {
        super(message, cause);
        this.outcomeUnknown = false;
        this.detail = detail;
    }

    /** Whether the change may have been stored although the write failed. */
    public boolean outcomeUnknown() {
        return outcomeUnknown;
    }

    /** What the caller is told, or {@code null} for the general "could not be made durable". */
    public String detail() {
        return detail;
    }
}
