package io.ringd.web.problem;

/** A request refused with a given problem type, optionally naming the field at fault. */
public class ApiException extends RuntimeException {

    private final Problems problem;
    private final String field;

    public ApiException(Problems problem, String detail, String field) {
        super(detail);
        this.problem = problem;
        this.field = field;
    }

    /** A 400 naming {@code field}. */
    public static ApiException badRequest(String detail, String field) {
        return new ApiException(Problems.BAD_REQUEST, detail, field);
    }

    public Problems problem() {
        return problem;
    }

    public String field() {
        return field;
    }

    /** {@code s}, cut to 40 characters for a message. */
    public static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
