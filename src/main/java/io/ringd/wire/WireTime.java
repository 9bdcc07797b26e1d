package io.ringd.wire;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Commit times as answers and events show them: RFC 3339, UTC, always three
 * fraction digits ({@code 2026-11-30T10:11:29.606Z}). (A state file keeps
 * {@link Instant#toString()}, as it always has.)
 */
public final class WireTime {

    private static final DateTimeFormatter RFC_3339_MILLIS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private WireTime() {
    }

    /** {@code t} as answers show it; {@code null} stays {@code null}. */
    public static String format(Instant t) {
        return t == null ? null : RFC_3339_MILLIS.format(t);
    }

    /** The time {@code s} says, or {@code null} when it is absent or not an RFC 3339 time. */
    public static Instant parseOrNull(String s) {
        if (s == null) {
            return null;
        }
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
