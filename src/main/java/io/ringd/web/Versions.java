package io.ringd.web;

/** Parsing of version parameters and headers. */
public final class Versions {

    private Versions() {
    }

    /**
     * The version an {@code If-Match} header names: a bare or quoted
     * non-negative integer; {@code null} for no header or {@code *}.
     *
     * @throws ApiException 412 for a weak tag (If-Match compares strongly), 400 for anything else
     */
    public static Long ifMatch(String header) {
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
        Long parsed = parseTag(v);
        if (parsed == null) {
            throw new ApiException(Problems.BAD_REQUEST,
                    "If-Match must be a ring version, bare or quoted (e.g. \"7\"): " + abbreviate(header), "If-Match");
        }
        return parsed;
    }

    /** A version from an entity tag ({@code 7}, {@code "7"}, {@code W/"7"}), or {@code null}. */
    public static Long parseTag(String tag) {
        String v = tag.trim();
        if (v.startsWith("W/")) {
            v = v.substring(2);
        }
        if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
            v = v.substring(1, v.length() - 1);
        }
        return parseVersion(v);
    }

    /** A non-negative decimal version, or {@code null} if {@code s} is not one. */
    public static Long parseVersion(String s) {
        if (s == null || s.isEmpty() || s.length() > 18) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
        }
        return Long.parseLong(s);
    }

    /** Whether an {@code If-None-Match} header matches {@code version}. */
    public static boolean noneMatch(String header, long version) {
        if (header == null) {
            return false;
        }
        for (String part : header.split(",")) {
            String p = part.trim();
            if (p.equals("*")) {
                return true;
            }
            Long v = parseTag(p);
            if (v != null && v == version) {
                return true;
            }
        }
        return false;
    }

    static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
