package io.ringd.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.ringd.web.problem.ApiException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The batch answer's writer and the batch's key check, against what they stand in for: Jackson's own
 * serialization of the record, and {@link Keys#check}. Random keys from a seeded {@link Random}
 * ({@code -Dringd.seed} to replay).
 */
class BatchAnswerTest {

    /** The answer as Jackson writes a record of the same components without a serializer of its own. */
    record PlainAnswer(long version, List<BatchAnswer.KeyNode> routes) {
    }

    static final long SEED = Long.getLong("ringd.seed", System.nanoTime());

    /** 0 to 12 chars of ASCII, controls, quotes, backslashes, BMP letters, surrogates (paired or lone). */
    static String randomKey(Random rnd) {
        StringBuilder b = new StringBuilder();
        int n = rnd.nextInt(13);
        for (int i = 0; i < n; i++) {
            switch (rnd.nextInt(8)) {
                case 0 -> b.append((char) rnd.nextInt(0x20)); // a control
                case 1 -> b.append(rnd.nextBoolean() ? '"' : '\\');
                case 2 -> b.append((char) (0x80 + rnd.nextInt(0xD800 - 0x80))); // BMP, no surrogate
                case 3 -> b.appendCodePoint(0x10000 + rnd.nextInt(0x100000)); // a surrogate pair
                case 4 -> b.append((char) (Character.MIN_SURROGATE + rnd.nextInt(0x800))); // lone, high or low
                default -> b.append((char) (0x20 + rnd.nextInt(0x5F)));
            }
        }
        return b.toString();
    }

    @Test
    void writer_writesTheSameBytesAsTheRecordsSerializer_seeded() {
        JsonMapper mapper = JsonMapper.builder().build();
        Random rnd = new Random(SEED);
        for (int round = 0; round < 200; round++) {
            List<BatchAnswer.KeyNode> routes = new ArrayList<>();
            int n = rnd.nextInt(50);
            for (int i = 0; i < n; i++) {
                String key = randomKey(rnd);
                routes.add(new BatchAnswer.KeyNode(key, Keys.valid(key) ? key : "node-" + i));
            }
            long version = rnd.nextBoolean() ? rnd.nextInt(1000) : rnd.nextLong();
            String written = mapper.writeValueAsString(new BatchAnswer(version, routes));
            assertThat(written).as("seed %d, round %d", SEED, round)
                    .isEqualTo(mapper.writeValueAsString(new PlainAnswer(version, routes)));
        }
        assertThat(mapper.writeValueAsString(new BatchAnswer(7,
                List.of(new BatchAnswer.KeyNode("a\"b", "n1"), new BatchAnswer.KeyNode("\u00e9", "n2")))))
                .isEqualTo("{\"version\":7,\"routes\":[{\"key\":\"a\\\"b\",\"node\":\"n1\"},"
                        + "{\"key\":\"\u00e9\",\"node\":\"n2\"}]}");
    }

    @Test
    void writer_withHandoff_writesItForEveryRoute_nullWhenTheKeyDidNotMove() {
        JsonMapper mapper = JsonMapper.builder().build();
        HandoffJson moved = new HandoffJson(12, "2026-11-30T10:11:29.606Z", List.of("n1", "n3"));
        String written = mapper.writeValueAsString(new BatchAnswer(13, List.of(
                new BatchAnswer.KeyNode("a", "n2", moved), new BatchAnswer.KeyNode("b", "n1", null)), true));
        assertThat(written).isEqualTo("{\"version\":13,\"routes\":[{\"key\":\"a\",\"node\":\"n2\","
                + "\"handoff\":{\"movedAt\":12,\"movedAtTime\":\"2026-11-30T10:11:29.606Z\","
                + "\"previous\":[\"n1\",\"n3\"]}},{\"key\":\"b\",\"node\":\"n1\",\"handoff\":null}]}");
        assertThat(mapper.readTree(written).get("routes").get(0).get("handoff"))
                .isEqualTo(mapper.readTree(mapper.writeValueAsString(moved)));
    }

    @Test
    void valid_agreesWithCheck_seeded() {
        Random rnd = new Random(SEED);
        List<String> keys = new ArrayList<>(List.of("", "a", "x".repeat(4096), "x".repeat(4097),
                "\u00e9".repeat(2048), "\u00e9".repeat(2049), "\u20ac".repeat(1365) + "a", "\u20ac".repeat(1366),
                "\ud83d\ude00".repeat(1024), "\ud83d\ude00".repeat(1024) + "a", "\ud800", "\udc00", "a\ud800",
                "\ud800a", "\ud83d\ude00", "\ude00\ud83d"));
        for (int i = 0; i < 5_000; i++) {
            keys.add(randomKey(rnd));
        }
        for (String key : keys) {
            boolean checked;
            try {
                Keys.check(key, "k");
                checked = true;
            } catch (ApiException e) {
                checked = false;
            }
            assertThat(Keys.valid(key)).as("seed %d, key %s", SEED, key.codePoints().boxed().toList())
                    .isEqualTo(checked);
        }
    }

    @Test
    void checked_namesTheFirstKeyAtFault() {
        assertThatThrownBy(() -> new RouteBatchRequest(List.of("a", "\ud800", "")).checked())
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.field()).isEqualTo("keys[1]");
                    assertThat(e.getMessage()).contains("surrogate");
                });
    }
}
