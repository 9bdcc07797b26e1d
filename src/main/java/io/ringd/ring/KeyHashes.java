package io.ringd.ring;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Locale;

import org.apache.commons.codec.digest.MurmurHash3;

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
     * reused per thread so the lookup path allocates only the UTF-8 bytes.
     * The digest writes into a per-thread buffer rather than a new array.
     * ketama is MD5 too, its first four digest bytes read little-endian, as
     * libketama's ketama_hashi does.
     * murmur3 is MurmurHash3 x86_32 with seed 0 from commons-codec, whose
     * hash32x86 treats tail bytes as unsigned (unlike the deprecated
     * MurmurHash3.hash32 and Guava's murmur3_32), so it is right for every
     * UTF-8 key, including characters outside the BMP.
     */

    /** The default hash function's name. */
    public static final String DEFAULT = "md5";

    private static final KeyHash MD5 = new DigestHash("md5", "MD5", false);
    private static final KeyHash SHA256 = new DigestHash("sha256", "SHA-256", false);
    private static final KeyHash KETAMA = new DigestHash("ketama", "MD5", true);
    private static final KeyHash MURMUR3 = new Murmur3Hash();

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
        return List.of("md5", "murmur3", "sha256");
    }

    /**
     * The hash function with that name.
     *
     * @throws IllegalArgumentException naming the value when there is none
     */
    public static KeyHash byName(String name) {
        if (name != null) {
            switch (name) {
                case "md5":
                    return MD5;
                case "murmur3":
                    return MURMUR3;
                case "sha256":
                    return SHA256;
                default:
                    break;
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
            digest.md.update(key.getBytes(StandardCharsets.UTF_8));
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
        @Override
        public int hash(String key) {
            byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
            return MurmurHash3.hash32x86(bytes, 0, bytes.length, 0);
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
