package io.ringd.state;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * A ring's incarnation (docs/ring.md section 20): 16 lowercase hex digits
 * drawn at random when the ring is made at version 0 and kept with it for
 * ever. Two histories with the same version numbers are told apart by it.
 */
public final class Incarnation {

    private static final Pattern FORM = Pattern.compile("[0-9a-f]{16}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private Incarnation() {
    }

    /** A new incarnation, at random. */
    public static String random() {
        byte[] b = new byte[8];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** Whether {@code s} is of the form of an incarnation. */
    public static boolean valid(String s) {
        return s != null && FORM.matcher(s).matches();
    }
}
