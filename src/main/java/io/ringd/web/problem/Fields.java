package io.ringd.web.problem;

import java.util.function.Supplier;

/**
 * Names the request input a call works on, for its refusals: a version
 * looked up for {@code ?from=} is refused naming {@code from}. The refusal
 * keeps its own problem type; only its {@code field} changes.
 */
public final class Fields {

    private Fields() {
    }

    /** {@code call}'s answer; a refusal it throws names {@code field}. */
    public static <T> T named(String field, Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            throw new Named(field, e);
        }
    }

    /** A refusal, renamed to the input it was about; {@link ProblemHandler} answers its cause. */
    static final class Named extends RuntimeException {
        private final String field;

        Named(String field, RuntimeException cause) {
            super(cause.getMessage(), cause, false, false);
            this.field = field;
        }

        String field() {
            return field;
        }
    }
}
