package io.ringd.interop;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Keys of every shape the memcached text protocol and all three clients accept: 1 to 250
 * bytes of UTF-8 with no space and no control character. Plain ASCII ids, printable
 * punctuation (the protocol's own {@code %}, {@code :}, {@code /} among it), non-ASCII text of
 * two, three and four bytes a character, and long keys up to exactly 250 bytes. No key holds a
 * character that JavaScript's {@code \s} matches either (the npm client refuses those).
 */
final class InteropKeys {

    static final int MAX_BYTES = 250;
    private static final String PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
    private static final String ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    /** Code point ranges of letters: Latin-1, Greek, Cyrillic, Hebrew, CJK, emoji (4 bytes in UTF-8). */
    private static final int[][] NON_ASCII = {{0xC0, 0xFF}, {0x391, 0x3C9}, {0x410, 0x44F}, {0x5D0, 0x5EA},
            {0x4E00, 0x4FFF}, {0x1F300, 0x1F5FF}};

    private InteropKeys() {
    }

    /** {@code count} distinct keys from {@code seed}: a fixed mix of the shapes above. */
    static List<String> keys(long seed, int count) {
        Random random = new Random(seed);
        Set<String> keys = new LinkedHashSet<>();
        // the edges first: one byte, exactly 250 bytes of ASCII, of 2-byte and of 4-byte characters
        keys.add("k");
        keys.add("x".repeat(MAX_BYTES));
        keys.add("é".repeat(MAX_BYTES / 2));
        keys.add("🔑".repeat(MAX_BYTES / 4) + "ab");
        while (keys.size() < count) {
            int i = keys.size();
            String key = switch (i % 5) {
                case 0 -> "user:" + i;
                case 1 -> ascii(random, PUNCTUATION + ALNUM, 1 + random.nextInt(40));
                case 2 -> mixed(random, 1 + random.nextInt(60));
                case 3 -> "session/" + i + "/" + mixed(random, 4 + random.nextInt(12));
                default -> toBytes(random, 200 + random.nextInt(MAX_BYTES - 200 + 1));
            };
            keys.add(key);
        }
        return List.copyOf(keys);
    }

    private static String ascii(Random random, String alphabet, int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    private static String mixed(Random random, int chars) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < chars; i++) {
            sb.appendCodePoint(codePoint(random));
        }
        return cut(sb.toString(), MAX_BYTES);
    }

    /** A key of exactly {@code bytes} bytes (a character that would pass the end is replaced by ASCII). */
    private static String toBytes(Random random, int bytes) {
        StringBuilder sb = new StringBuilder();
        int size = 0;
        while (size < bytes) {
            int cp = codePoint(random);
            int n = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (size + n > bytes) {
                cp = ALNUM.charAt(random.nextInt(ALNUM.length()));
                n = 1;
            }
            sb.appendCodePoint(cp);
            size += n;
        }
        return sb.toString();
    }

    private static int codePoint(Random random) {
        if (random.nextInt(3) == 0) {
            String alphabet = PUNCTUATION + ALNUM;
            return alphabet.charAt(random.nextInt(alphabet.length()));
        }
        int[] range = NON_ASCII[random.nextInt(NON_ASCII.length)];
        return range[0] + random.nextInt(range[1] - range[0] + 1);
    }

    private static String cut(String s, int maxBytes) {
        StringBuilder sb = new StringBuilder();
        int size = 0;
        for (int i = 0; i < s.length();) {
            int cp = s.codePointAt(i);
            int n = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (size + n > maxBytes) {
                break;
            }
            sb.appendCodePoint(cp);
            size += n;
            i += Character.charCount(cp);
        }
        return sb.toString();
    }

    /** Whether {@code key} is one of the shapes above: for a check of the generator itself. */
    static boolean acceptable(String key) {
        byte[] b = key.getBytes(StandardCharsets.UTF_8);
        if (b.length < 1 || b.length > MAX_BYTES) {
            return false;
        }
        for (byte x : b) {
            if ((x & 0xff) <= 0x20 || x == 0x7f) {
                return false;
            }
        }
        return key.codePoints().noneMatch(cp -> Character.isWhitespace(cp) || Character.isSpaceChar(cp)
                || Character.getType(cp) == Character.CONTROL || cp == 0xFEFF);
    }

    static List<String> shapes(List<String> keys) {
        List<String> out = new ArrayList<>();
        out.add("ascii-only " + keys.stream().filter(k -> k.chars().allMatch(c -> c < 0x80)).count());
        out.add("non-ascii " + keys.stream().filter(k -> k.chars().anyMatch(c -> c >= 0x80)).count());
        out.add("4-byte " + keys.stream().filter(k -> k.codePoints().anyMatch(c -> c > 0xFFFF)).count());
        out.add("250 bytes " + keys.stream().filter(k -> k.getBytes(StandardCharsets.UTF_8).length == MAX_BYTES).count());
        return out;
    }
}
