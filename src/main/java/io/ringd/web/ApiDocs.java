package io.ringd.web;

/** Shared texts of the API description. */
public final class ApiDocs {

    public static final String PROBLEM = "application/problem+json";
    public static final String KEY = "The key, any UTF-8 string of 1 to 4096 bytes, percent-encoded: every byte "
            + "outside A-Z a-z 0-9 - . _ ~ as %XX (a '/' is %2F, a ';' is %3B). Send a key that is exactly '.' or '..' "
            + "as %2E or %2E%2E, or as ?key=: many HTTP clients normalize such path segments away.";
    public static final String VERSION = "Answer at this older version (kept: at least the last 100); "
            + "the current one when absent.";
    public static final String IF_MATCH = "Apply only if the ring is still at this version (bare or quoted); "
            + "412 otherwise.";

    private ApiDocs() {
    }
}
