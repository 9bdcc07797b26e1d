package io.ringd.state;

/**
 * An input to the ring service that is malformed or not implemented: a
 * setting, a change in a batch, a node id. Names the input at fault
 * ({@code vnodesPerWeight}, {@code changes[2].weight}) so that whoever reads
 * the input can point at it; nothing was changed.
 */
public class InvalidInputException extends RuntimeException {

    private final String field;

    public InvalidInputException(String field, String message) {
        super(message);
        this.field = field;
    }

    /** The input at fault, or {@code null}. */
    public String field() {
        return field;
    }
}
