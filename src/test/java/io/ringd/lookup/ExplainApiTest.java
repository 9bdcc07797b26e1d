package io.ringd.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ringd.RealServerTest;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import io.ringd.ring.RingPoints;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /route/{key}?explain=true} (and {@code ?key=}) against the
 * library, for many seeded keys ({@code -Dringd.seed=N} replays): the owning
 * point, its vnode label and arc on a ring, the wrap arc included, and the
 * entry on a Maglev table. Labels and arcs under vnode collisions are checked
 * in the library's own test (RingPointsTest) and by {@link ExplainTest}.
 */
class ExplainApiTest extends RealServerTest {

    @BeforeEach
    void emptyRing() {
        reset();
    }

    static long seed(String test) {
        String given = System.getProperty("ringd.seed");
        long seed = given == null || given.isBlank() ? 20_260_214L : Long.parseLong(given.trim());
        System.out.println(test + ": seed " + seed + " (replay with -Dringd.seed=" + seed + ")");
        return seed;
    }

    @Test
    void explain_agreesWithTheLibraryForManyKeys() {
        long seed = seed("explain_agreesWithTheLibraryForManyKeys");
        putAll("A:1", "B:2:eu-1a", "C:0.5", "node-d:3:eu-1b");
        HashRing lib = libraryRing();
        Random rnd = new Random(seed);
        for (int i = 0; i < 60; i++) {
            String key = "k" + rnd.nextInt(1_000_000) + (i % 3 == 0 ? "/ü x" : "");
            JsonNode path = fastGet("/route/" + enc(key) + "?explain=true");
            JsonNode query = fastGet("/route?key=" + form(key) + "&explain=true");
            assertThat(query).as("seed %d key %s", seed, key).isEqualTo(path);
            checkRing(path, lib, key, "seed " + seed + " key " + key);
        }
    }

    @Test
    void explain_theWrapArcOfTheFirstPoint() {
        putAll("A:1", "B:1");
        HashRing lib = libraryRing();
        long last = lib.pointAt(lib.pointCount() - 1);
        long first = lib.pointAt(0);
        String past = null;
        String before = null;
        for (int i = 0; past == null || before == null; i++) {
            long h = lib.hash("w" + i);
            past = past == null && h > last ? "w" + i : past;
            before = before == null && h <= first ? "w" + i : before;
        }
        for (String key : List.of(past, before)) {
            JsonNode e = fastGet("/route/" + enc(key) + "?explain=true").get("explain");
            assertThat(e.get("index").asInt()).isZero();
            assertThat(e.get("point").asLong()).isEqualTo(first);
            assertThat(e.get("start").asLong()).isEqualTo((last + 1) % SPACE);
            assertThat(e.get("end").asLong()).isEqualTo(first);
            assertThat(e.get("wraps").asBoolean()).isTrue();
            assertThat(e.get("count").asLong()).isEqualTo(SPACE - last + first);
            assertThat(e.get("node").asString()).isEqualTo(lib.ownerAt(0));
        }
    }

    @Test
    void explain_withoutItTheAnswerIsUnchangedAndABadValueIs400() {
        putAll("A:1");
        assertThat(fastGet("/route/x").propertyNames()).containsExactlyInAnyOrder("key", "node", "hash", "version");
        assertThat(fastGet("/route/x?explain=false").propertyNames())
                .containsExactlyInAnyOrder("key", "node", "hash", "version");
        assertProblem(httpGet("/route/x?explain=maybe"), 400, "explain");
    }

    @Test
    void explain_aRingOfOnePointOwnsTheWholeSpace() {
        assertThat(adminJson("{\"vnodesPerWeight\":1}").put("/settings").statusCode()).isEqualTo(200);
        putAll("A:1");
        long point = libraryRing().pointAt(0);
        JsonNode one = fastGet("/route/x?explain=true").get("explain");
        assertThat(one.get("count").asLong()).isEqualTo(SPACE);
        assertThat(one.get("vnode").asString()).isEqualTo("A#0");
        assertThat(one.get("start").asLong()).isEqualTo((point + 1) % SPACE);
        assertThat(one.get("end").asLong()).isEqualTo(point);
    }

    @Test
    void explain_withBoundAndAnOlderVersion() {
        long v1 = putAll("A:1", "B:1");
        HashRing old = libraryRing();
        putAll("C:1");
        JsonNode atOld = fastGet("/route/user%3A42?explain=true&version=" + v1);
        checkRing(atOld, old, "user:42", "version " + v1);
        JsonNode bounded = fastGet("/route/user%3A42?explain=true&bound=2");
        assertThat(bounded.get("explain").get("node").asString()).isEqualTo(libraryRing().route("user:42"));
        assertThat(bounded.has("skipped")).isTrue();
    }

    @Test
    void explain_onAMaglevTableNamesTheEntry() {
        long seed = seed("explain_onAMaglevTableNamesTheEntry");
        assertThat(adminJson("{\"algorithm\":\"maglev\",\"maglevTableSize\":1009}").put("/settings").statusCode())
                .isEqualTo(200);
        putAll("A:1", "B:2", "C:1");
        HashRing lib = HashRing.of(RingConfig.of("md5", 128, "maglev", 1009), 0,
                List.of(Node.of("A", 1), Node.of("B", 2), Node.of("C", 1)));
        Random rnd = new Random(seed);
        for (int i = 0; i < 30; i++) {
            String key = "m" + rnd.nextInt();
            JsonNode body = fastGet("/route/" + enc(key) + "?explain=true");
            JsonNode e = body.get("explain");
            long h = lib.hash(key);
            RingPoints.TableEntry want = RingPoints.entryOf(lib, h);
            assertThat(e.get("placement").asString()).isEqualTo("maglev");
            assertThat(e.get("entry").asLong()).isEqualTo(h % 1009).isEqualTo(want.entry());
            assertThat(e.get("tableSize").asInt()).isEqualTo(1009);
            assertThat(e.get("node").asString()).isEqualTo(lib.route(key)).isEqualTo(body.get("node").asString());
            assertThat(e.get("first").asLong()).isEqualTo(want.first());
            assertThat(e.get("last").asLong()).isEqualTo(want.last());
            assertThat(e.get("count").asLong()).isEqualTo(want.count());
            assertThat(e.has("vnode")).isFalse();
        }
    }

    /** The explain of {@code body} is the library's owning point of the key's hash, checked from first principles. */
    private static void checkRing(JsonNode body, HashRing lib, String key, String at) {
        JsonNode e = body.get("explain");
        long h = lib.hash(key);
        assertThat(body.get("hash").asLong()).as(at).isEqualTo(h);
        assertThat(e.get("placement").asString()).as(at).isEqualTo("ring");
        int i = e.get("index").asInt();
        long point = lib.pointAt(i);
        assertThat(e.get("point").asLong()).as(at).isEqualTo(point);
        assertThat(e.get("node").asString()).as(at).isEqualTo(lib.ownerAt(i)).isEqualTo(lib.route(key))
                .isEqualTo(body.get("node").asString());
        String vnode = e.get("vnode").asString();
        assertThat(vnode).as(at).startsWith(lib.ownerAt(i) + "#");
        assertThat(lib.config().hash().hashUnsigned(vnode)).as(at + " " + vnode).isEqualTo(point);
        long prev = lib.pointAt(i == 0 ? lib.pointCount() - 1 : i - 1);
        assertThat(e.get("start").asLong()).as(at).isEqualTo((prev + 1) % SPACE);
        assertThat(e.get("end").asLong()).as(at).isEqualTo(point);
        boolean wraps = i == 0;
        assertThat(e.get("wraps").asBoolean()).as(at).isEqualTo(wraps);
        assertThat(wraps ? h > prev || h <= point : h > prev && h <= point).as(at + " hash in arc").isTrue();
        assertThat(e.get("count").asLong()).as(at).isEqualTo((point - prev + SPACE) % SPACE);
        assertThat(e.has("entry")).as(at).isFalse();
    }
}
