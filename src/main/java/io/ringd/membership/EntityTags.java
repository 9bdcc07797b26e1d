package io.ringd.membership;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

import io.ringd.state.RingState;
import io.ringd.wire.RingJson;

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

    /** The answer of {@code GET /ring} for {@code state}: 304 when {@code ifNoneMatch} names its tag, else 200. */
    static ResponseEntity<RingJson> document(RingState state, String ifNoneMatch) {
        String etag = of(state);
        if (noneMatch(ifNoneMatch, etag)) {
            return ResponseEntity.status(HttpStatus.NOT_MODIFIED).eTag(etag).build();
        }
        return ResponseEntity.ok().eTag(etag).body(state.document());
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
