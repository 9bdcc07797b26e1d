package io.ringd.web;

/**
 * A streaming check that bytes are strict UTF-8: the well-formed sequences
 * of RFC 3629 (section 4), so no overlong form ({@code C0 AE} for
 * {@code .}), no surrogate ({@code ED A0 80}), nothing past U+10FFFF and no
 * stray continuation byte. Bytes come in chunks of any size; a character may
 * span two chunks. Not thread-safe: one per stream.
 */
final class StrictUtf8 {

    /* The state between chunks is the number of continuation bytes the current
     * character still needs, and the range the next one must fall in: 80..BF,
     * narrowed after E0 (A0..), ED (..9F), F0 (90..) and F4 (..8F), which is
     * what rules out overlong forms, surrogates and code points past U+10FFFF.
     * Within a chunk a character is checked whole (its lead byte, then its
     * continuation bytes), and an ASCII byte costs one test; the state is
     * kept only for a character that a chunk's end cuts. */

    private final byte[] one = new byte[1];
    private int need;
    private int lo = 0x80;
    private int hi = 0xBF;

    /**
     * Checks {@code len} bytes of {@code buf} from {@code off}, continuing the
     * bytes checked before: the index of the first byte that cannot be part
     * of well-formed UTF-8, or {@code -1}. After a refusal the check starts
     * again as if new.
     */
    int check(byte[] buf, int off, int len) {
        int end = off + len;
        int i = off;
        while (need > 0 && i < end) { // the character the last chunk left open
            int c = buf[i] & 0xff;
            if (c < lo || c > hi) {
                reset();
                return i;
            }
            need--;
            lo = 0x80;
            hi = 0xBF;
            i++;
        }
        while (i < end) {
            int b = buf[i];
            if (b >= 0) { // ASCII
                i++;
                continue;
            }
            b &= 0xff;
            int n;
            int first = 0x80;
            int last = 0xBF;
            if (b >= 0xC2 && b <= 0xDF) {
                n = 1;
            } else if (b >= 0xE0 && b <= 0xEF) {
                n = 2;
                first = b == 0xE0 ? 0xA0 : 0x80;
                last = b == 0xED ? 0x9F : 0xBF;
            } else if (b >= 0xF0 && b <= 0xF4) {
                n = 3;
                first = b == 0xF0 ? 0x90 : 0x80;
                last = b == 0xF4 ? 0x8F : 0xBF;
            } else {
                reset();
                return i;
            }
            i++;
            if (i + n > end) { // the character goes on in the next chunk
                need = n;
                lo = first;
                hi = last;
                return check(buf, i, end - i);
            }
            int c = buf[i] & 0xff;
            if (c < first || c > last) {
                reset();
                return i;
            }
            for (int k = 1; k < n; k++) {
                if ((buf[i + k] & 0xC0) != 0x80) {
                    reset();
                    return i + k;
                }
            }
            i += n;
        }
        return -1;
    }

    /** Checks one byte ({@code 0..255}); {@code false} if it cannot continue well-formed UTF-8. */
    boolean check(int b) {
        one[0] = (byte) b;
        return check(one, 0, 1) < 0;
    }

    /** Whether the bytes checked so far end between characters (the end of a body may come here only). */
    boolean atBoundary() {
        return need == 0;
    }

    /** Starts again as if new. */
    void reset() {
        need = 0;
        lo = 0x80;
        hi = 0xBF;
    }
}
