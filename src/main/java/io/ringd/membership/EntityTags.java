package io.ringd.membership;

import io.ringd.web.ApiException;
import io.ringd.web.Problems;
import io.ringd.web.RingHeaders;

/**
 * Ring versions as entity tags: {@code If-Match} on admin calls and
 * {@code If-None-Match} on {@code GET /ring}. A tag is the version, bare
 * ({@code 7}) or quoted ({@code "7"}).
 */
final class EntityTags {

    private EntityTags() {
    }

    /**
     * The version an {@code If-Match} header names; {@code null} for no header or {@code *}.
     *
     * @throws ApiException 412 for a weak tag (If-Match compares strongly), 400 for anything else
     */
    static Long ifMatch(String header) {
        if (header == null) {
            return null;
        }
        String v = header.trim();
        if (v.equals("*")) {
            return null;
        }
        if (v.startsWith("W/")) {
            throw new ApiException(Problems.PRECONDITION_FAILED,
                    "If-Match compares strongly: a weak tag never matches; send the version bare or quoted", "If-Match");
        }
        Long parsed = parse(v);
        if (parsed == null) {
            throw ApiException.badRequest("If-Match must be a ring version, bare or quoted (e.g. \"7\"): "
                    + ApiException.abbreviate(header), "If-Match");
        }
        return parsed;
    }

    /** Whether an {@code If-None-Match} header (a list, weak tags allowed) matches {@code version}. */
    static boolean noneMatch(String header, long version) {
        if (header == null) {
            return false;
        }
        for (String part : header.split(",")) {
            String p = part.trim();
            if (p.equals("*")) {
                return true;
            }
            Long v = parse(p);
            if (v != null && v == version) {
                return true;
            }
        }
        return false;
    }

    /** A version from an entity tag ({@code 7}, {@code "7"}, {@code W/"7"}), or {@code null}. */
    private static Long parse(String tag) {
        String v = tag.trim();
        if (v.startsWith("W/")) {
            v = v.substring(2);
        }
        if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
            v = v.substring(1, v.length() - 1);
        }
        return RingHeaders.parseVersion(v);
    }
}
