package io.ringd.web.problem;

import java.io.IOException;

/** A request body that is not valid UTF-8 (an invalid, overlong or truncated sequence, or a surrogate): 400. */
public class InvalidBodyException extends IOException {

    public InvalidBodyException(String message) {
        super(message);
    }
}
