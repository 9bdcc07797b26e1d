package io.ringd.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.restassured.response.Response;
import io.ringd.HandoffOracle;
import io.ringd.RealServerTest;
import io.ringd.ring.Handoff;
import io.ringd.ring.HashRing;
import io.ringd.state.RingHistory;
import io.ringd.state.RingService;
import io.ringd.state.Rings;
import io.ringd.wire.WireTime;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ?handoff=true} on {@code GET /route} and {@code "handoff":true} on
 * {@code POST /route} (docs/ring.md section 21), against the rule walked by
 * brute force over the server's kept versions ({@link HandoffOracle}), for
 * every placement and a window across a settings change; the window's
 * strict reading and the refusals.
 */
class HandoffApiTest extends RealServerTest {

    private static final Duration WINDOW = Duration.ofMinutes(10);

    RingService service;

    @Autowired
    void rings(Rings rings) {
        service = rings.defaultRing().service();
    }

    @BeforeEach
    void fresh() {
        reset();
    }

    /** The answer must be the oracle's for a window starting between the request's start and end. */
    /** The last oracle built (every kept version rebuilt), and the versions it covers. */
    private HandoffOracle oracle;
    private long oracleVersion;
    private long oracleBase;

    private record Asked(JsonNode answer, Handoff early, Handoff late) {
    }

    private Asked route(String rawPathAndQuery, String key) {
        Instant before = Instant.now().minus(WINDOW);
        JsonNode a = fastGet(rawPathAndQuery);
        Instant after = Instant.now().minus(WINDOW);
        HandoffOracle oracle = oracleAt(a.get("version").asLong());
        return new Asked(a, oracle.handoff(key, before), oracle.handoff(key, after));
    }

    /** The oracle of the kept versions up to {@code version}, rebuilt when that or the oldest kept moved. */
    private HandoffOracle oracleAt(long version) {
        RingHistory history = service.history();
        if (oracle == null || oracleVersion != version || oracleBase != history.baseVersion()) {
            oracle = new HandoffOracle(history, 0, version);
            oracleVersion = version;
            oracleBase = history.baseVersion();
        }
        return oracle;
    }

    private static void assertHandoff(JsonNode answer, Handoff early, Handoff late, String at) {
        assertThat(answer.has("handoff")).as(at + ": " + answer).isTrue();
        JsonNode h = answer.get("handoff");
        if (!Objects.equals(early, late)) {
            return; // a version at the window's very edge: either answer is right
        }
        if (early == null) {
            assertThat(h.isNull()).as(at + ": " + answer).isTrue();
            return;
        }
        assertThat(h.get("movedAt").asLong()).as(at + ": " + answer).isEqualTo(early.movedAt());
        assertThat(h.get("movedAtTime").asString()).as(at).isEqualTo(WireTime.format(early.movedAtTime()));
        assertThat(strings(h.get("previous"))).as(at + ": " + answer).isEqualTo(early.previous());
        assertThat(h.size()).as(at).isEqualTo(3);
    }

    @Test
    void aJoin_namesThePreviousOwnerOfEveryMovedKey_andNoneForTheOthers() {
        putAll("ho-a:1", "ho-b:1", "ho-c:2");
        HashRing before = libraryRing();
        putNode("ho-d", 1, null);
        HashRing after = libraryRing();
        Instant committed = Instant.parse(getJson("/ring").get("committedAt").asString());
        int moved = 0;
        for (int i = 0; i < 120; i++) {
            String key = "user/" + i;
            Asked a = route("/route/" + enc(key) + "?handoff=true", key);
            assertThat(a.answer().get("node").asString()).isEqualTo(after.route(key));
            assertHandoff(a.answer(), a.early(), a.late(), key);
            if (!before.route(key).equals(after.route(key))) {
                moved++;
                JsonNode h = a.answer().get("handoff");
                assertThat(h.get("movedAt").asLong()).isEqualTo(after.version());
                assertThat(h.get("movedAtTime").asString()).isEqualTo(WireTime.format(committed));
                assertThat(h.get("previous").get(0).asString()).as(key).isEqualTo(before.route(key));
                assertThat(after.route(key)).isEqualTo("ho-d");
            }
            Asked q = route("/route?key=" + form(key) + "&handoff=true", key);
            assertThat(q.answer().get("handoff")).as(key).isEqualTo(a.answer().get("handoff"));
        }
        assertThat(moved).isPositive();
        // without handoff, no field at all
        assertThat(fastGet("/route/user%2F1").has("handoff")).isFalse();
    }

    @Test
    void everyPlacement_andAWindowAcrossSettingsChanges_matchTheBruteForceWalk() {
        String[] settings = {"{\"hash\":\"ketama\",\"ketamaFlavor\":\"libmemcached\"}",
                "{\"hash\":\"sha256\",\"algorithm\":\"maglev\",\"maglevTableSize\":1009}",
                "{\"hash\":\"murmur3\",\"algorithm\":\"ring\",\"vnodesPerWeight\":16}",
                "{\"algorithm\":\"maglev\",\"maglevTableSize\":2003}"};
        putAll("hp-a:1", "hp-b:2");
        for (String s : settings) {
            Response r = adminJson(s).put("/settings");
            assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
            putNode("hp-" + s.length(), 1, null);
            batch("[{\"op\":\"remove\",\"id\":\"hp-a\"}]");
            putNode("hp-a", 0.5, null);
            for (int i = 0; i < 40; i++) {
                String key = "k:" + i;
                Asked a = route("/route/" + enc(key) + "?handoff=true&explain=true", key);
                assertThat(a.answer().has("explain")).isTrue();
                assertHandoff(a.answer(), a.early(), a.late(), s + " " + key);
            }
        }
    }

    @Test
    void aBatch_addsEachKeysHandoff_asGetAnswersIt() {
        putAll("hb-a:1", "hb-b:1");
        putNode("hb-c", 1, null);
        ArrayNode keys = JSON.createArrayNode();
        for (int i = 0; i < 50; i++) {
            keys.add("b" + i);
        }
        ObjectNode body = JSON.createObjectNode();
        body.set("keys", keys);
        body.put("handoff", true);
        JsonNode routes = json(api().contentType("application/json").body(body.toString()).post("/route"))
                .get("routes");
        List<String> moved = new ArrayList<>();
        for (JsonNode r : routes) {
            String key = r.get("key").asString();
            JsonNode one = fastGet("/route/" + enc(key) + "?handoff=true");
            assertThat(r.get("node")).isEqualTo(one.get("node"));
            assertThat(r.get("handoff")).as(key).isEqualTo(one.get("handoff"));
            assertThat(r.size()).isEqualTo(3);
            if (!r.get("handoff").isNull()) {
                moved.add(key);
            }
        }
        assertThat(moved).isNotEmpty();
        body.remove("handoff");
        JsonNode plain = json(api().contentType("application/json").body(body.toString()).post("/route"));
        assertThat(plain.get("routes").get(0).has("handoff")).isFalse();
        body.put("handoff", true).put("window", "PT0.001S");
        sleep(20);
        JsonNode shortWindow = json(api().contentType("application/json").body(body.toString()).post("/route"));
        for (JsonNode r : shortWindow.get("routes")) {
            assertThat(r.get("handoff").isNull()).as("nothing was committed in the last millisecond").isTrue();
        }
        body.put("window", "30 seconds");
        assertProblem(api().contentType("application/json").body(body.toString()).post("/route"), 400, "window");
    }

    @Test
    void aShortWindow_seesOnlyItsVersions_andBadWindowsAre400() {
        putAll("hw-a:1", "hw-b:1");
        putNode("hw-c", 1, null);
        sleep(20);
        for (int i = 0; i < 30; i++) {
            JsonNode a = fastGet("/route/w" + i + "?handoff=true&window=PT0.010S");
            assertThat(a.get("handoff").isNull()).as(a.toString()).isTrue();
        }
        assertThat(fastGet("/route/w1?handoff=true&window=PT10M").has("handoff")).isTrue();
        for (String bad : List.of("30s", "", "PT0S", "-PT1S", "PT10M0.001S", "P1D", "PT30S%20")) {
            JsonNode p = assertProblem(httpGet("/route/w1?handoff=true&window=" + bad), 400, "window");
            assertThat(p.get("detail").asString()).contains("window");
        }
        assertProblem(httpGet("/route/w1?window=PT30S"), 400, "window");
        assertProblem(httpGet("/route?key=w1&handoff=true&window=soon"), 400, "window");
        assertProblem(httpGet("/route/w1?handoff=yes"), 400, "handoff");
        long v = version();
        JsonNode old = assertProblem(httpGet("/route/w1?handoff=true&version=" + (v - 1)), 400, "handoff");
        assertThat(old.get("detail").asString()).contains("current version");
        assertThat(fastGet("/route/w1?handoff=true&version=" + v).has("handoff")).isTrue();
        JsonNode bounded = fastGet("/route/w1?handoff=true&bound=2");
        assertThat(bounded.has("skipped")).isTrue();
        assertThat(bounded.has("handoff")).isTrue();
    }

    @Test
    void anEmptyRing_is503_withHandoffToo() {
        assertProblem(httpGet("/route/x?handoff=true"), 503, null);
        assertProblem(api().contentType("application/json").body("{\"keys\":[\"x\"],\"handoff\":true}")
                .post("/route"), 503, null);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
