package io.ringd.membership;

import io.ringd.state.RingState;

/**
 * The entity tag of {@code GET /ring} (docs/ring.md section 17):
 * {@code "<version>-<first 16 hex digits of the fingerprint>"}. It names one
 * ring, not only a version: after a restart of the memory store, or between
 * instances with their own histories, a tag held for another ring with the
 * same version no longer matches. {@code If-Match} is read by
 * {@link io.ringd.web.IfMatch}.
 */
final class EntityTags {

    private EntityTags() {
    }

    /** The quoted entity tag of {@code state}. */
    static String of(RingState state) {
        return "\"" + state.version() + "-" + state.fingerprint().substring(0, 16) + "\"";
    }

    /**
     * Whether an {@code If-None-Match} header (a list; {@code *}; weak tags
     * compared weakly, as RFC 9110 says for If-None-Match) names {@code tag}.
     * A tag of another form, such as the bare version, matches nothing.
     */
    static boolean noneMatch(String header, String tag) {
        if (header == null) {
            return false;
        }
        for (String part : header.split(",")) {
            String p = part.trim();
            if (p.equals("*")) {
                return true;
            }
            if (p.startsWith("W/")) {
                p = p.substring(2);
            }
            if (p.equals(tag)) {
                return true;
            }
        }
        return false;
    }
}
