package io.ringd.web;

import io.ringd.web.problem.ApiException;
import io.ringd.web.problem.Problems;

/**
 * {@code If-Match} on the admin calls of every feature (docs/ring.md section 17): the ring
 * version, bare or quoted; {@code *} matches any; a weak tag never matches.
 */
public final class IfMatch {

    private IfMatch() {
    }

    /**
     * The version an {@code If-Match} header names; {@code null} for no header or {@code *}.
     *
     * @throws ApiException 412 for a weak tag (If-Match compares strongly), 400 for anything else
     */
    public static Long version(String header) {
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
        if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
            v = v.substring(1, v.length() - 1);
        }
        Long parsed = RingHeaders.parseVersion(v);
        if (parsed == null) {
            throw ApiException.badRequest("If-Match must be a ring version, bare or quoted (e.g. \"7\"): "
                    + ApiException.abbreviate(header), "If-Match");
        }
        return parsed;
    }
}
