package io.ringd.web;

/** A request refused with a given problem type, optionally naming the field at fault. */
public class ApiException extends RuntimeException {

    private final Problems problem;
    private final String field;

    public ApiException(Problems problem, String detail, String field) {
        super(detail);
        this.problem = problem;
        this.field = field;
    }

    public Problems problem() {
        return problem;
    }

    public String field() {
        return field;
    }
}
