package io.ringd.state;

/** Bad input (HTTP 400), naming the parameter or JSON field at fault. */
public class InvalidRequestException extends RuntimeException {

    private final String field;

    public InvalidRequestException(String field, String message) {
        super(message);
        this.field = field;
    }

    /** The parameter or JSON field at fault, or {@code null}. */
    public String field() {
        return field;
    }
}
