package io.ringd.ring;

/**
 * UTF-8 encoding of a string into a caller's buffer, byte for byte what
 * {@code String.getBytes(StandardCharsets.UTF_8)} gives (an unpaired
 * surrogate becomes {@code '?'}), so the key hashes can read a key's bytes
 * without allocating them.
 */
final class Utf8 {

    /** Bytes one char can take at most: 3 (a surrogate pair is 4 bytes for 2 chars). */
    static final int MAX_BYTES_PER_CHAR = 3;

    private Utf8() {
    }

    /**
     * Encodes {@code s.substring(from)} into {@code out} from index 0 and
     * answers the byte count; {@code out} holds at least
     * {@code MAX_BYTES_PER_CHAR * (s.length() - from)} bytes.
     */
    static int encode(String s, int from, byte[] out) {
        int n = s.length();
        int w = 0;
        int i = from;
        while (i < n) {
            char c = s.charAt(i++);
            if (c < 0x80) {
                out[w++] = (byte) c;
            } else if (c < 0x800) {
                out[w++] = (byte) (0xC0 | c >> 6);
                out[w++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isSurrogate(c)) {
                char d;
                if (Character.isHighSurrogate(c) && i < n && Character.isLowSurrogate(d = s.charAt(i))) {
                    i++;
                    int cp = Character.toCodePoint(c, d);
                    out[w++] = (byte) (0xF0 | cp >> 18);
                    out[w++] = (byte) (0x80 | cp >> 12 & 0x3F);
                    out[w++] = (byte) (0x80 | cp >> 6 & 0x3F);
                    out[w++] = (byte) (0x80 | cp & 0x3F);
                } else {
                    out[w++] = '?';
                }
            } else {
                out[w++] = (byte) (0xE0 | c >> 12);
                out[w++] = (byte) (0x80 | c >> 6 & 0x3F);
                out[w++] = (byte) (0x80 | c & 0x3F);
            }
        }
        return w;
    }

    /** A per-thread buffer for {@link #encode}: reused up to a size, beyond it a fresh array. */
    static final class Buffer {
        /** Kept per thread: a 4,096-character key (the service's limit in bytes) fits. */
        static final int KEPT = MAX_BYTES_PER_CHAR * 4096;
        private byte[] bytes = new byte[256];

        /** A buffer of at least {@code size} bytes: this thread's, or a fresh one past {@link #KEPT}. */
        byte[] atLeast(int size) {
            if (size <= bytes.length) {
                return bytes;
            }
            if (size > KEPT) {
                return new byte[size];
            }
            bytes = new byte[Math.max(size, Math.min(KEPT, 2 * bytes.length))];
            return bytes;
        }
    }
}
