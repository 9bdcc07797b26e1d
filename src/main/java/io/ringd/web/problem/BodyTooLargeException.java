package io.ringd.web.problem;

import java.io.IOException;

/** A request body past the limit (HTTP 413), thrown while reading a body of unknown length. */
public class BodyTooLargeException extends IOException {

    public BodyTooLargeException(long limit) {
        super("the body must be at most " + limit + " bytes");
    }
}
