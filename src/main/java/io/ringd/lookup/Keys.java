package io.ringd.lookup;

import java.nio.charset.StandardCharsets;

import io.ringd.web.problem.ApiException;

/** Checks of the keys looked up. */
final class Keys {

    /** The longest key, in UTF-8 bytes. */
    static final int MAX_KEY_BYTES = 4096;

    private Keys() {
    }

    /**
     * Checks a key is 1 to 4096 UTF-8 bytes.
     *
     * @throws ApiException (400) naming {@code field}
     */
    static String check(String key, String field) {
        if (key == null || key.isEmpty()) {
            throw ApiException.badRequest("key must be 1 to 4096 UTF-8 bytes: it is empty", field);
        }
        // a UTF-16 char is at most 3 UTF-8 bytes: skip the count for short keys
        if (key.length() * 3 > MAX_KEY_BYTES) {
            int bytes = utf8Length(key);
            if (bytes > MAX_KEY_BYTES) {
                throw ApiException.badRequest("key must be 1 to 4096 UTF-8 bytes: it is " + bytes + " bytes", field);
            }
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < key.length() && Character.isLowSurrogate(key.charAt(i + 1))) {
                    i++;
                    continue;
                }
                throw ApiException.badRequest("key is not valid UTF-8 (a lone surrogate at "
                        + i + ")", field);
            }
        }
        return key;
    }

    /**
     * Whether {@link #check} passes {@code key}, without naming a field: one pass over the chars and no
     * allocation, for the keys of a batch (whose field names are made only for the key at fault).
     */
    static boolean valid(String key) {
        int n = key.length();
        if (n == 0 || n * 3 > MAX_KEY_BYTES && utf8Length(key) > MAX_KEY_BYTES) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = key.charAt(i);
            if (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE) {
                if (c > Character.MAX_HIGH_SURROGATE || ++i == n || !Character.isLowSurrogate(key.charAt(i))) {
                    return false;
                }
            }
        }
        return true;
    }

    static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
