package io.ringd.ring;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Locale;

/**
 * The named hash functions of docs/ring.md section 2: {@code md5} (the
 * default), {@code murmur3} and {@code sha256}. A name is fixed to its
 * function forever. {@link #ketama()} is the key hash of the libketama
 * placement (docs/ring.md section 14); it is not one of the names
 * {@link #byName(String)} knows, because {@code hash=ketama} names a whole
 * placement, not only a function of keys.
 */
public final class KeyHashes {

    /*
     * md5 and sha256 take the first four digest bytes big-endian. Digests are
     * reused per thread, and so are the buffers the key's UTF-8 bytes are
     * encoded into (Utf8.encode) and the digest written to: hashing a key
     * allocates nothing.
     * ketama is MD5 too, its first four digest bytes read little-endian, as
     * libketama's ketama_hashi does.
     * murmur3 is MurmurHash3 x86_32 with seed 0, written here from the
     * algorithm (tail bytes unsigned, unlike Guava's deprecated
     * murmur3_32), so it is right for every UTF-8 key, including characters
     * outside the BMP. It reads an ASCII key's chars four at a time as its
     * little-endian blocks, without encoding them; from the first non-ASCII
     * char on, the rest of the key is encoded into a per-thread buffer and
     * hashed from there (KeyHashesTest checks it against golden values, the
     * vectors' hashes and a reference implementation over the UTF-8 bytes).
     */

    /** The default hash function's name. */
    public static final String DEFAULT = "md5";

    private static final KeyHash MD5 = new DigestHash("md5", "MD5", false);
    private static final KeyHash SHA256 = new DigestHash("sha256", "SHA-256", false);
    private static final KeyHash KETAMA = new DigestHash("ketama", "MD5", true);
    private static final KeyHash MURMUR3 = new Murmur3Hash();
    /** The hashes {@link #byName(String)} finds ({@code ketama} is a placement's, found by RingConfig). */
    private static final List<KeyHash> BY_NAME = List.of(MD5, MURMUR3, SHA256);
    private static final List<String> NAMES = BY_NAME.stream().map(KeyHash::name).toList();

    private KeyHashes() {
    }

    /** {@code md5}: the first 4 bytes of MD5 over the UTF-8 bytes, big-endian. */
    public static KeyHash md5() {
        return MD5;
    }

    /** {@code murmur3}: MurmurHash3 x86_32, seed 0, over the UTF-8 bytes. */
    public static KeyHash murmur3() {
        return MURMUR3;
    }

    /** {@code sha256}: the first 4 bytes of SHA-256 over the UTF-8 bytes, big-endian. */
    public static KeyHash sha256() {
        return SHA256;
    }

    /**
     * {@code ketama}: the first 4 bytes of MD5 over the UTF-8 bytes,
     * <em>little-endian</em>, as libketama hashes keys
     * ({@code ketama("test")} = 3446378249). The key hash of the
     * {@code hash=ketama} placement; its points are made otherwise
     * (docs/ring.md section 14).
     */
    public static KeyHash ketama() {
        return KETAMA;
    }

    /** The names accepted by {@link #byName(String)}. */
    public static List<String> names() {
        return NAMES;
    }

    /**
     * The hash function with that name.
     *
     * @throws IllegalArgumentException naming the value when there is none
     */
    public static KeyHash byName(String name) {
        for (KeyHash h : BY_NAME) {
            if (h.name().equals(name)) {
                return h;
            }
        }
        throw new IllegalArgumentException(
                "hash must be one of " + names() + ": " + name);
    }

    private static final class DigestHash implements KeyHash {
        private final String name;
        private final String algorithm;
        private final boolean littleEndian;
        private final ThreadLocal<Digest> digests;

        /** One thread's digest and the buffer it writes into. */
        private static final class Digest {
            final MessageDigest md;
            final byte[] out;
            final Utf8.Buffer in = new Utf8.Buffer();

            Digest(String algorithm) {
                md = newDigest(algorithm);
                out = new byte[md.getDigestLength()];
            }
        }

        DigestHash(String name, String algorithm, boolean littleEndian) {
            this.name = name;
            this.algorithm = algorithm;
            this.littleEndian = littleEndian;
            newDigest(algorithm); // fail fast if the JDK lacks it
            this.digests = ThreadLocal.withInitial(() -> new Digest(algorithm));
        }

        @Override
        public int hash(String key) {
            Digest digest = digests.get();
            byte[] d = digest.out;
            int chars = key.length();
            byte[] in = digest.in.atLeast(Utf8.MAX_BYTES_PER_CHAR * chars);
            digest.md.update(in, 0, Utf8.encode(key, 0, in));
            try {
                digest.md.digest(d, 0, d.length);
            } catch (java.security.DigestException e) {
                throw new IllegalStateException(algorithm + " failed to digest", e); // cannot happen: d fits
            }
            if (littleEndian) {
                return (d[3] & 0xff) << 24 | (d[2] & 0xff) << 16 | (d[1] & 0xff) << 8 | (d[0] & 0xff);
            }
            return (d[0] & 0xff) << 24 | (d[1] & 0xff) << 16 | (d[2] & 0xff) << 8 | (d[3] & 0xff);
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String toString() {
            return name + " (" + algorithm + (littleEndian ? ", little-endian" : "") + ")";
        }
    }

    private static final class Murmur3Hash implements KeyHash {
        private static final int C1 = 0xcc9e2d51;
        private static final int C2 = 0x1b873593;
        private static final ThreadLocal<Utf8.Buffer> BUFFERS = ThreadLocal.withInitial(Utf8.Buffer::new);

        @Override
        public int hash(String key) {
            int n = key.length();
            int h = 0;
            int i = 0;
            for (; i + 4 <= n; i += 4) { // whole ASCII blocks, read from the chars
                char c0 = key.charAt(i);
                char c1 = key.charAt(i + 1);
                char c2 = key.charAt(i + 2);
                char c3 = key.charAt(i + 3);
                if ((c0 | c1 | c2 | c3) >= 0x80) {
                    break;
                }
                h = mixBlock(h, c0 | c1 << 8 | c2 << 16 | c3 << 24);
            }
            int tail = n - i;
            int k = 0;
            switch (tail) { // an ASCII tail of up to 3 bytes, read from the chars
                case 3:
                    if (key.charAt(i + 2) >= 0x80) {
                        break;
                    }
                    k ^= key.charAt(i + 2) << 16;
                    // fall through
                case 2:
                    if (key.charAt(i + 1) >= 0x80) {
                        break;
                    }
                    k ^= key.charAt(i + 1) << 8;
                    // fall through
                case 1:
                    if (key.charAt(i) >= 0x80) {
                        break;
                    }
                    k ^= key.charAt(i);
                    return finish(mixTail(h, k), n);
                case 0:
                    return finish(h, n);
                default:
                    break;
            }
            // A non-ASCII char at or after i: the rest of the key as UTF-8 bytes.
            byte[] bytes = BUFFERS.get().atLeast(Utf8.MAX_BYTES_PER_CHAR * (n - i));
            int len = Utf8.encode(key, i, bytes);
            return hashBytes(h, bytes, len, i + len);
        }

        /** Goes on from state {@code h} over {@code bytes[0 .. len)}; {@code total} bytes in all. */
        private static int hashBytes(int h, byte[] bytes, int len, int total) {
            int blocks = len >> 2;
            for (int b = 0; b < blocks; b++) {
                int o = b << 2;
                h = mixBlock(h, bytes[o] & 0xff | (bytes[o + 1] & 0xff) << 8 | (bytes[o + 2] & 0xff) << 16
                        | (bytes[o + 3] & 0xff) << 24);
            }
            int o = blocks << 2;
            int k = 0;
            switch (len - o) {
                case 3:
                    k ^= (bytes[o + 2] & 0xff) << 16;
                    // fall through
                case 2:
                    k ^= (bytes[o + 1] & 0xff) << 8;
                    // fall through
                case 1:
                    k ^= bytes[o] & 0xff;
                    h = mixTail(h, k);
                    break;
                default:
                    break;
            }
            return finish(h, total);
        }

        private static int mixBlock(int h, int k) {
            k *= C1;
            k = Integer.rotateLeft(k, 15);
            k *= C2;
            h ^= k;
            h = Integer.rotateLeft(h, 13);
            return h * 5 + 0xe6546b64;
        }

        private static int mixTail(int h, int k) {
            k *= C1;
            k = Integer.rotateLeft(k, 15);
            k *= C2;
            return h ^ k;
        }

        private static int finish(int h, int length) {
            h ^= length;
            h ^= h >>> 16;
            h *= 0x85ebca6b;
            h ^= h >>> 13;
            h *= 0xc2b2ae35;
            return h ^ h >>> 16;
        }

        @Override
        public String name() {
            return "murmur3";
        }

        @Override
        public String toString() {
            return "murmur3 (MurmurHash3 x86_32, seed 0)";
        }
    }

    static MessageDigest newDigest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is not available in this JDK", e);
        }
    }

    static String toLowerHex(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            sb.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return sb.toString().toLowerCase(Locale.ROOT);
    }
}
