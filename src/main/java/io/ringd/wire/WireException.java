package io.ringd.wire;

/**
 * A wire form that does not make a valid value: a field missing, or a value
 * the ring library refuses. {@link #field()} names the field at fault
 * relative to the form ({@code "id"}), or is {@code null} when the fault is
 * the form's as a whole (a weight or zone the library refuses, as it words
 * it); {@link #at(String)} words it for a form at a place in a document.
 */
public final class WireException extends IllegalArgumentException {

    private final String field;
    private final boolean missing;

    private WireException(String field, String message, boolean missing, Throwable cause) {
        super(message, cause);
        this.field = field;
        this.missing = missing;
    }

    /** {@code field} is absent or null. */
    public static WireException missing(String field) {
        return new WireException(field, "missing field \"" + field + "\"", true, null);
    }

    /** {@code field} (or the form, if null) holds a bad value, as {@code cause} says. */
    public static WireException invalid(String field, IllegalArgumentException cause) {
        return new WireException(field, cause.getMessage(), false, cause);
    }

    /** The field at fault, or {@code null} for the form as a whole. */
    public String field() {
        return field;
    }

    /** Whether the field is missing (rather than bad). */
    public boolean isMissing() {
        return missing;
    }

    /**
     * The message for the form at {@code path} ({@code "nodes[0]"}, or
     * {@code ""} at the root): {@code missing field "id" in nodes[0]},
     * {@code nodes[0].id: node id must be ...}, {@code nodes[0]: weight must be ...}.
     */
    public String at(String path) {
        if (missing) {
            return getMessage() + (path.isEmpty() ? "" : " in " + path);
        }
        String where = field == null ? path : path.isEmpty() ? field : path + "." + field;
        return where.isEmpty() ? getMessage() : where + ": " + getMessage();
    }
}
