package io.ringd.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;

import org.junit.jupiter.api.Test;

class StrictUtf8Test {

    /** Whether {@code bytes} pass as a whole body: no refused byte, and the end between characters. */
    private static boolean valid(byte[] bytes) {
        StrictUtf8 utf8 = new StrictUtf8();
        return utf8.check(bytes, 0, bytes.length) < 0 && utf8.atBoundary();
    }

    private static boolean valid(String hex) {
        return valid(HexFormat.of().parseHex(hex.replace(" ", "")));
    }

    /** The index of the first byte refused, or -1. */
    private static int refusedAt(String hex) {
        byte[] b = HexFormat.of().parseHex(hex.replace(" ", ""));
        return new StrictUtf8().check(b, 0, b.length);
    }

    private static boolean jdkValid(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    @Test
    void validInput_passes_atEveryLengthAndItsBounds() {
        assertThat(valid(new byte[0])).isTrue();
        assertThat(valid("{\"keys\":[\"user:42\"]}".getBytes(StandardCharsets.UTF_8))).isTrue();
        for (int cp : new int[] {0x00, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F600,
                0x10FFFF}) {
            byte[] b = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
            assertThat(valid(b)).as("U+%04X", cp).isTrue();
        }
        assertThat(valid("c3a9 e282ac f09f9880 f48fbfbf")).as("é € 😀 U+10FFFF").isTrue();
    }

    @Test
    void overlongForms_areRefused() {
        assertThat(refusedAt("c0 ae")).as("'.' in two bytes").isZero();
        assertThat(refusedAt("c1 bf")).isZero();
        assertThat(refusedAt("e0 80 af")).as("'/' in three bytes").isEqualTo(1);
        assertThat(refusedAt("e0 9f bf")).as("U+07FF in three bytes").isEqualTo(1);
        assertThat(refusedAt("f0 80 80 af")).as("'/' in four bytes").isEqualTo(1);
        assertThat(refusedAt("f0 8f bf bf")).as("U+FFFF in four bytes").isEqualTo(1);
        assertThat(valid("e0 a0 80")).as("U+0800, the first three-byte form").isTrue();
        assertThat(valid("f0 90 80 80")).as("U+10000, the first four-byte form").isTrue();
    }

    @Test
    void surrogates_areRefused() {
        assertThat(refusedAt("ed a0 80")).as("U+D800").isEqualTo(1);
        assertThat(refusedAt("ed bf bf")).as("U+DFFF").isEqualTo(1);
        assertThat(refusedAt("ed a0 bd ed b8 80")).as("a pair written as two surrogates (CESU-8)").isEqualTo(1);
        assertThat(valid("ed 9f bf")).as("U+D7FF, just below").isTrue();
        assertThat(valid("ee 80 80")).as("U+E000, just above").isTrue();
    }

    @Test
    void fourBytes_endAtU10FFFF() {
        assertThat(valid("f4 8f bf bf")).isTrue();
        assertThat(refusedAt("f4 90 80 80")).as("U+110000").isEqualTo(1);
        for (int lead = 0xF5; lead <= 0xFF; lead++) {
            assertThat(refusedAt(String.format("%02x 80 80 80", lead))).as("lead %02X", lead).isZero();
        }
    }

    @Test
    void truncatedSequences_areRefused_atTheEndOrAtTheNextByte() {
        for (String cut : new String[] {"c3", "e2 82", "f0 9f 98", "41 f0"}) {
            StrictUtf8 utf8 = new StrictUtf8();
            byte[] b = HexFormat.of().parseHex(cut.replace(" ", ""));
            assertThat(utf8.check(b, 0, b.length)).as(cut).isEqualTo(-1);
            assertThat(utf8.atBoundary()).as(cut + " ends inside a character").isFalse();
        }
        assertThat(refusedAt("e2 82 41")).as("ASCII where a continuation belongs").isEqualTo(2);
        assertThat(refusedAt("c3 c3 a9")).as("a lead byte where a continuation belongs").isEqualTo(1);
        assertThat(refusedAt("41 80")).as("a continuation with no lead").isEqualTo(1);
    }

    @Test
    void aCharacter_mayCrossChunks_andSingleBytesAgreeWithChunks() {
        byte[] b = "a\u00e9\u20ac\uD83D\uDE00z".getBytes(StandardCharsets.UTF_8);
        for (int split = 0; split <= b.length; split++) {
            StrictUtf8 utf8 = new StrictUtf8();
            assertThat(utf8.check(b, 0, split)).as("split at %d", split).isEqualTo(-1);
            assertThat(utf8.check(b, split, b.length - split)).as("split at %d", split).isEqualTo(-1);
            assertThat(utf8.atBoundary()).isTrue();
        }
        StrictUtf8 bytewise = new StrictUtf8();
        for (byte x : HexFormat.of().parseHex("f09f98")) {
            assertThat(bytewise.check(x & 0xff)).isTrue();
        }
        assertThat(bytewise.check(0x41)).as("a truncated four-byte form").isFalse();
        assertThat(bytewise.atBoundary()).as("a refusal starts again").isTrue();
        assertThat(bytewise.check(0xc3)).isTrue();
        assertThat(bytewise.check(0xa9)).isTrue();
    }

    /** The JDK's strict decoder is the oracle: random bytes, biased towards UTF-8's lead and continuation bytes. */
    @Test
    void agreesWithTheJdksStrictDecoder_onRandomBytes() {
        long seed = 20261201L;
        Random random = new Random(seed);
        int refused = 0;
        for (int round = 0; round < 200_000; round++) {
            byte[] b = new byte[1 + random.nextInt(8)];
            for (int i = 0; i < b.length; i++) {
                int kind = random.nextInt(4);
                b[i] = (byte) (kind == 0 ? random.nextInt(0x80) : kind == 1 ? 0x80 + random.nextInt(0x40)
                        : kind == 2 ? 0xC0 + random.nextInt(0x40) : random.nextInt(256));
            }
            boolean expected = jdkValid(b);
            refused += expected ? 0 : 1;
            assertThat(valid(b)).as("seed %d round %d: %s", seed, round, HexFormat.of().formatHex(b))
                    .isEqualTo(expected);
        }
        assertThat(refused).as("both kinds of input were tried").isBetween(1, 199_999);
    }

    /** Split anywhere, in chunks of any size, a body is refused at the same byte as whole. */
    @Test
    void chunksAgreeWithTheWholeBody_onRandomSplits() {
        long seed = 17L;
        Random random = new Random(seed);
        for (int round = 0; round < 20_000; round++) {
            byte[] b = new byte[random.nextInt(24)];
            for (int i = 0; i < b.length; i++) {
                int kind = random.nextInt(3);
                b[i] = (byte) (kind == 0 ? random.nextInt(0x80) : kind == 1 ? 0x80 + random.nextInt(0x40)
                        : 0xC0 + random.nextInt(0x40));
            }
            StrictUtf8 whole = new StrictUtf8();
            int expected = whole.check(b, 0, b.length);
            StrictUtf8 chunked = new StrictUtf8();
            int at = -1;
            for (int off = 0; off < b.length && at < 0; ) {
                int len = Math.min(b.length - off, random.nextInt(4));
                at = chunked.check(b, off, len);
                off += len;
            }
            String what = "seed " + seed + " round " + round + ": " + HexFormat.of().formatHex(b);
            assertThat(at).as(what).isEqualTo(expected);
            if (expected < 0) {
                assertThat(chunked.atBoundary()).as(what).isEqualTo(whole.atBoundary());
            }
        }
    }
}
