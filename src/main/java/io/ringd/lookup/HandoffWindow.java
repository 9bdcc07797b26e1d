package io.ringd.lookup;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

import io.ringd.state.Handoffs;
import io.ringd.web.problem.ApiException;

/**
 * The window of a handoff lookup (docs/ring.md section 21): the configured
 * one, or a shorter one asked for with {@code window}, an ISO-8601
 * duration ({@code PT30S}); anything else is 400 naming the field.
 */
final class HandoffWindow {

    private HandoffWindow() {
    }

    /**
     * The start of the window of a lookup with {@code handoff} and
     * {@code window} (the request's values, either absent): null when no
     * handoff is asked for.
     *
     * @throws ApiException (400, field {@code window}) for a window that is not a positive ISO-8601 duration
     *                      no longer than the configured one, or a window without handoff
     */
    static Instant since(Handoffs handoffs, boolean handoff, String window, String field) {
        if (!handoff) {
            if (window != null) {
                throw ApiException.badRequest(field + " applies with handoff=true only", field);
            }
            return null;
        }
        Duration longest = handoffs.window();
        Duration w = window == null ? longest : parse(window, longest, field);
        return handoffs.now().minus(w);
    }

    static Duration parse(String text, Duration longest, String field) {
        Duration d;
        try {
            d = Duration.parse(text);
        } catch (DateTimeParseException | ArithmeticException e) {
            throw ApiException.badRequest(field + " must be an ISO-8601 duration such as PT30S: "
                    + (text.isEmpty() ? "(empty)" : ApiException.abbreviate(text)), field);
        }
        if (d.isNegative() || d.isZero() || d.compareTo(longest) > 0) {
            throw ApiException.badRequest(field + " must be more than 0 and at most " + longest + " (ringd.handoff"
                    + ".window): " + ApiException.abbreviate(text), field);
        }
        return d;
    }
}
