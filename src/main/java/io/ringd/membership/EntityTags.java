package io.ringd.membership;

import io.ringd.web.RingHeaders;

/**
 * Ring versions as entity tags for {@code If-None-Match} on {@code GET /ring}
 * (a list; weak tags allowed). A tag is the version, bare ({@code 7}) or
 * quoted ({@code "7"}). {@code If-Match} is read by {@link io.ringd.web.IfMatch}.
 */
final class EntityTags {

    private EntityTags() {
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
