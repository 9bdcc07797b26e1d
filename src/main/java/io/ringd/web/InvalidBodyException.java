package io.ringd.web;

import java.io.IOException;

/** A request body that is not valid UTF-8 (an invalid, overlong or truncated sequence, or a surrogate): 400. */
class InvalidBodyException extends IOException {

    InvalidBodyException(String message) {
        super(message);
    }
}
