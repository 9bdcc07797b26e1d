package io.ringd.web;

import io.ringd.state.RingState;
import io.ringd.web.problem.ApiException;
import io.ringd.web.problem.Problems;

/**
 * {@code If-Match} on the admin calls of every feature (docs/ring.md section 17): the ring
 * version, bare or quoted, or the {@code ETag} of {@code GET /ring} as it was given
 * ({@code "<version>-<first 16 hex digits of the fingerprint>"}, which must name the current
 * ring: its version and its fingerprint); {@code *} matches any; a weak tag never matches.
 */
public final class IfMatch {

    private static final int FINGERPRINT_DIGITS = 16;

    private IfMatch() {
    }

    /**
     * The version an {@code If-Match} header names; {@code null} for no header or {@code *}. An
     * {@code ETag} whose version is {@code current}'s but whose fingerprint is not is 412 here;
     * any other version is returned, for the write to compare with the ring it changes.
     *
     * @throws ApiException 412 for a weak tag (If-Match compares strongly) or the tag of another
     *         ring at the current version, 400 for anything else
     */
    public static Long version(String header, RingState current) {
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
        boolean quoted = v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"");
        if (quoted) {
            v = v.substring(1, v.length() - 1);
        }
        int dash = v.indexOf('-');
        if (quoted && dash > 0) {
            Long parsed = RingHeaders.parseVersion(v.substring(0, dash));
            String fingerprint = v.substring(dash + 1);
            if (parsed != null && isFingerprintPrefix(fingerprint)) {
                if (parsed == current.version()
                        && !current.fingerprint().substring(0, FINGERPRINT_DIGITS).equals(fingerprint)) {
                    throw new ApiException(Problems.PRECONDITION_FAILED, "If-Match names another ring at version "
                            + parsed + " (its fingerprint is not this ring's): read GET /ring again", "If-Match");
                }
                return parsed;
            }
        }
        Long parsed = RingHeaders.parseVersion(v);
        if (parsed == null) {
            throw ApiException.badRequest("If-Match must be a ring version, bare or quoted (e.g. \"7\"), or the "
                    + "ETag of GET /ring (e.g. \"7-5c4a568501f2a916\"): " + ApiException.abbreviate(header), "If-Match");
        }
        return parsed;
    }

    private static boolean isFingerprintPrefix(String s) {
        if (s.length() != FINGERPRINT_DIGITS) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }
}
