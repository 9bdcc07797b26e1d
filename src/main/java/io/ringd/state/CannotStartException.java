package io.ringd.state;

/**
 * A reason ringd cannot start that the operator can fix, with what to do:
 * reported by {@link StartFailureAnalyzer} as a short failure report, not a
 * stack trace.
 */
public class CannotStartException extends IllegalStateException {

    private final String action;

    /**
     * @param description what is wrong, naming the file, folder or setting
     * @param action      what the operator can do about it
     */
    public CannotStartException(String description, String action) {
        super(description);
        this.action = action;
    }

    public CannotStartException(String description, String action, Throwable cause) {
        super(description, cause);
        this.action = action;
    }

    /** What the operator can do. */
    public String action() {
        return action;
    }
}
