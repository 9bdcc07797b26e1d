package io.ringd.state;

import java.util.regex.Pattern;

/** What a ring may be called (docs/ring.md section 22). */
public final class RingNames {

    /** The ring that always exists: the one the paths without {@code /rings/{name}} serve. */
    public static final String DEFAULT = "default";
    /** The longest name. */
    public static final int MAX_LENGTH = 63;

    private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");

    private RingNames() {
    }

    /** Whether {@code name} is a ring name: 1 to 63 of {@code a-z 0-9 -}, starting and ending with a letter or digit. */
    public static boolean valid(String name) {
        return name != null && name.length() <= MAX_LENGTH && NAME.matcher(name).matches();
    }

    /**
     * {@code name}, checked.
     *
     * @throws InvalidInputException naming {@code field} when it is no ring name
     */
    public static String check(String name, String field) {
        if (!valid(name)) {
            String shown = name == null ? "null" : name.length() > 80 ? name.substring(0, 80) + "..." : name;
            throw new InvalidInputException(field, "a ring name is 1 to 63 characters of a-z, 0-9 and '-', "
                    + "starting and ending with a letter or digit: " + shown);
        }
        return name;
    }
}
