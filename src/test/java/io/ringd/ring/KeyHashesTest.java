package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

import tools.jackson.databind.JsonNode;

/**
 * Golden values pin each named hash function forever. The expected values
 * were computed outside ringd: md5 and sha256 with Python's hashlib, murmur3
 * with a Python implementation of MurmurHash3 x86_32 written from the
 * algorithm (which also reproduces all 212 murmur3 hashes of the test
 * vectors).
 */
class KeyHashesTest {

    @Test
    void md5_goldenValuesFromTheContract() {
        assertThat(KeyHashes.md5().hashUnsigned("A#0")).isEqualTo(0xf87ef636L).isEqualTo(4169070134L);
        assertThat(KeyHashes.md5().hash("A#0")).isEqualTo(0xf87ef636);
        assertThat(KeyHashes.md5().hashUnsigned("user:42")).isEqualTo(0x56dadf18L).isEqualTo(1457184536L);
    }

    @Test
    void murmur3_goldenValueFromTheContract() {
        assertThat(KeyHashes.murmur3().hashUnsigned("hello")).isEqualTo(0x248bfa47L);
    }

    /** UTF-8 hex is given so the tail bytes (length mod 4) can be read off. */
    @ParameterizedTest(name = "{0} ({1})")
    @CsvSource(delimiterString = "|", textBlock = """
            ''         | ''                   | 0xd41d8cd9 | 0x00000000 | 0xe3b0c442
            A#0        | 412330               | 0xf87ef636 | 0xeb2af74f | 0xb0fa6cef
            user:42    | 757365723a3432       | 0x56dadf18 | 0xc7a6a375 | 0xea3fd43b
            hello      | 68656c6c6f           | 0x5d41402a | 0x248bfa47 | 0x2cf24dba
            ü          | c3bc                 | 0xc03410a5 | 0x7840e6aa | 0x607474ca
            ß          | c39f                 | 0xe11ce22e | 0x14147826 | 0xcd3a7e92
            xÿ         | 78c3bf               | 0xb852c091 | 0x022db994 | 0x7dd100e9
            ab€        | 6162e282ac           | 0xc0019b34 | 0xa80e3361 | 0x4d6ffcde
            k€y        | 6be282ac79           | 0x3e325eec | 0x1b8ca97e | 0x0cd08c06
            日本語      | e697a5e69cace8aa9e   | 0x00110af8 | 0xa5a47297 | 0x77710aed
            ключ       | d0bad0bbd18ed187     | 0xc3657b66 | 0x9a592042 | 0x1de36a32
            🙂         | f09f9982             | 0x5c8d6d30 | 0x3e226063 | 0xd06f1525
            a🙂        | 61f09f9982           | 0x2811dee8 | 0x2453fa8d | 0xeb0708b3
            😀😀       | f09f9880f09f9880     | 0x583e20fc | 0x9ed9681c | 0x91ad485b
            🙂 smile   | f09f998220736d696c65 | 0xc4c67453 | 0x52c70ed1 | 0x40d3dc1a
            """)
    void allThree_goldenValuesIncludingNonBmpAndHighTailBytes(String key, String utf8Hex, String md5,
            String murmur3, String sha256) {
        assertThat(hex(key.getBytes(StandardCharsets.UTF_8))).as("UTF-8 of %s", key).isEqualTo(utf8Hex);
        assertThat(KeyHashes.md5().hashUnsigned(key)).as("md5(%s)", key).isEqualTo(Long.decode(md5));
        assertThat(KeyHashes.murmur3().hashUnsigned(key)).as("murmur3(%s)", key).isEqualTo(Long.decode(murmur3));
        assertThat(KeyHashes.sha256().hashUnsigned(key)).as("sha256(%s)", key).isEqualTo(Long.decode(sha256));
    }

    /**
     * The tail keys above really do catch the classic bug: a murmur3 that
     * sign-extends tail bytes (as Guava's deprecated murmur3_32 did) gives
     * a different answer for every one of them, and the right answer for
     * keys without a high tail byte.
     */
    @ParameterizedTest
    @ValueSource(strings = {"ü", "ß", "xÿ", "ab€", "日本語", "a🙂"})
    void murmur3_tailBytesAreUnsigned(String key) {
        byte[] b = key.getBytes(StandardCharsets.UTF_8);
        assertThat(b[b.length - 1] & 0x80).as("last byte of %s is >= 0x80", key).isNotZero();
        assertThat(b.length % 4).as("%s has a tail", key).isNotZero();
        assertThat(KeyHashes.murmur3().hash(key)).as("murmur3(%s)", key)
                .isEqualTo(referenceMurmur3(b, false))
                .isNotEqualTo(referenceMurmur3(b, true));
    }

    @Test
    void murmur3_agreesWithTheCrossImplementationVector() {
        JsonNode v = Vectors.load("ring-murmur3-zones.json");
        assertThat(v.get("settings").get("hash").asString()).isEqualTo("murmur3");
        int nonAscii = 0;
        for (JsonNode l : v.get("lookups")) {
            String key = l.get("key").asString();
            assertThat(KeyHashes.murmur3().hashUnsigned(key)).as("murmur3(%s)", key).isEqualTo(l.get("hash").asLong());
            if (!StandardCharsets.US_ASCII.newEncoder().canEncode(key)) {
                nonAscii++;
            }
        }
        assertThat(nonAscii).as("the vector holds non-ASCII keys").isGreaterThanOrEqualTo(3);
    }

    @Test
    void allThree_agreeWithIndependentImplementationsOnRandomKeys() {
        long seed = RingTesting.seed("allThree_agreeWithIndependentImplementationsOnRandomKeys");
        Random rnd = new Random(seed);
        for (int i = 0; i < 5_000; i++) {
            String key = RingTesting.randomKey(rnd);
            byte[] b = key.getBytes(StandardCharsets.UTF_8);
            assertThat(KeyHashes.md5().hashUnsigned(key)).as("seed " + seed + " md5(" + key + ")")
                    .isEqualTo(RingTesting.digest32("MD5", key));
            assertThat(KeyHashes.sha256().hashUnsigned(key)).as("seed " + seed + " sha256(" + key + ")")
                    .isEqualTo(RingTesting.digest32("SHA-256", key));
            assertThat(KeyHashes.murmur3().hash(key)).as("seed " + seed + " murmur3(" + key + ")")
                    .isEqualTo(referenceMurmur3(b, false));
        }
    }

    /**
     * The hashes read a key's chars without String.getBytes: every shape of
     * key must give the bytes getBytes gives (unpaired surrogates become
     * '?'), an ASCII run of any length before the first other char, and
     * keys longer than the per-thread buffer.
     */
    @Test
    void allThree_encodeLikeGetBytes_surrogatesAsciiRunsAndLongKeys() {
        long seed = RingTesting.seed("allThree_encodeLikeGetBytes_surrogatesAsciiRunsAndLongKeys");
        Random rnd = new Random(seed);
        char[] odd = {'\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\u00E9', '\u0800', '\uFFFF', '\u007F', '\u0080'};
        java.util.List<String> keys = new java.util.ArrayList<>();
        for (int run = 0; run < 12; run++) {
            for (char c : odd) {
                keys.add("a".repeat(run) + c);
                keys.add("b".repeat(run) + c + "xyz".substring(0, run % 4));
                keys.add(c + "c".repeat(run));
            }
        }
        keys.add("\uD83D\uDE00\uD83D"); // a pair, then a lone high surrogate at the end
        keys.add("\uDE00\uD83D\uDE00"); // a lone low surrogate, then a pair
        for (int i = 0; i < 2_000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int n = rnd.nextInt(14); n > 0; n--) {
                sb.append(rnd.nextInt(3) == 0 ? odd[rnd.nextInt(odd.length)] : (char) ('!' + rnd.nextInt(90)));
            }
            keys.add(sb.toString());
        }
        keys.add("k".repeat(20_000));
        keys.add("k".repeat(7_001) + "\u00E9".repeat(5_000) + "\uD800");
        for (String key : keys) {
            byte[] b = key.getBytes(StandardCharsets.UTF_8);
            String as = "seed " + seed + ", key of " + key.length() + " chars " + key.chars().limit(20)
                    .mapToObj(Integer::toHexString).toList();
            assertThat(KeyHashes.md5().hashUnsigned(key)).as("md5 " + as).isEqualTo(RingTesting.digest32("MD5", key));
            assertThat(KeyHashes.sha256().hashUnsigned(key)).as("sha256 " + as)
                    .isEqualTo(RingTesting.digest32("SHA-256", key));
            assertThat(KeyHashes.murmur3().hash(key)).as("murmur3 " + as).isEqualTo(referenceMurmur3(b, false));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"md5", "murmur3", "sha256"})
    void byName_findsEachNamedFunction(String name) {
        KeyHash h = KeyHashes.byName(name);
        assertThat(h.name()).isEqualTo(name);
        assertThat(RingConfig.of(name, 128).hash().name()).isEqualTo(name);
        assertThat(KeyHashes.names()).contains(name);
        assertThat(h.hashUnsigned("hello")).isEqualTo(switch (name) {
            case "md5" -> 0x5d41402aL;
            case "murmur3" -> 0x248bfa47L;
            default -> 0x2cf24dbaL;
        });
    }

    @Test
    void names_areExactlyTheThree() {
        assertThat(KeyHashes.names()).containsExactly("md5", "murmur3", "sha256");
        assertThat(KeyHashes.DEFAULT).isEqualTo("md5");
        assertThat(RingConfig.defaults().hash().name()).isEqualTo("md5");
        assertThat(RingConfig.defaults().vnodesPerWeight()).isEqualTo(128);
    }

    @ParameterizedTest
    @ValueSource(strings = {"MD5", "Md5", "sha-256", "SHA256", "murmur3_32", "crc32", "ketama", "", " md5", "md5 "})
    void byName_refusesOtherNamesNamingThem(String bad) {
        assertThatIllegalArgumentException().isThrownBy(() -> KeyHashes.byName(bad))
                .withMessageContaining(bad + "")
                .withMessageContaining(": " + bad)
                .withMessageContaining("md5").withMessageContaining("murmur3").withMessageContaining("sha256");
        assertThatIllegalArgumentException().isThrownBy(() -> RingConfig.of(bad, 128))
                .withMessageEndingWith(": " + bad);
    }

    @ParameterizedTest
    @NullSource
    void byName_refusesNull(String bad) {
        assertThatIllegalArgumentException().isThrownBy(() -> KeyHashes.byName(bad)).withMessageEndingWith(": null");
    }

    @Test
    void injectedHash_isCalledCustomAndUnsigned() {
        KeyHash h = key -> -1;
        assertThat(h.name()).isEqualTo("custom");
        assertThat(h.hashUnsigned("x")).isEqualTo(4294967295L);
    }

    /**
     * MurmurHash3 x86_32, seed 0, written from the algorithm for this test.
     * With {@code signExtendTail} it reproduces the well-known bug of
     * treating tail bytes as signed.
     */
    static int referenceMurmur3(byte[] data, boolean signExtendTail) {
        final int c1 = 0xcc9e2d51;
        final int c2 = 0x1b873593;
        int h = 0;
        int blocks = data.length / 4;
        for (int i = 0; i < blocks; i++) {
            int k = (data[4 * i] & 0xff) | (data[4 * i + 1] & 0xff) << 8
                    | (data[4 * i + 2] & 0xff) << 16 | (data[4 * i + 3] & 0xff) << 24;
            k *= c1;
            k = Integer.rotateLeft(k, 15);
            k *= c2;
            h ^= k;
            h = Integer.rotateLeft(h, 13);
            h = h * 5 + 0xe6546b64;
        }
        int tail = blocks * 4;
        int k = 0;
        switch (data.length - tail) {
            case 3:
                k ^= (signExtendTail ? data[tail + 2] : data[tail + 2] & 0xff) << 16;
                // fall through
            case 2:
                k ^= (signExtendTail ? data[tail + 1] : data[tail + 1] & 0xff) << 8;
                // fall through
            case 1:
                k ^= signExtendTail ? data[tail] : data[tail] & 0xff;
                k *= c1;
                k = Integer.rotateLeft(k, 15);
                k *= c2;
                h ^= k;
                break;
            default:
                break;
        }
        h ^= data.length;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    private static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder();
        for (byte b : bytes) {
            sb.append(String.format("%02x", b & 0xff));
        }
        return sb.toString();
    }
}
