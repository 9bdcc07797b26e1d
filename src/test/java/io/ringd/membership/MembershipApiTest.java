package io.ringd.membership;

import io.ringd.RealServerTest;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import tools.jackson.databind.JsonNode;

/** The membership rows of docs/ring.md section 17: /ring, /nodes, /settings and the admin calls that change them. */
class MembershipApiTest extends RealServerTest {

    /** SHA-256 of zero bytes: the empty ring's fingerprint (docs/ring.md section 10). */
    private static final String EMPTY_FINGERPRINT = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    @BeforeEach
    void emptyRing() {
        reset();
    }

    // ------------------------------------------------------------ reads

    @Test
    void ring_answersVersionFingerprintSettingsAndNodes() {
        JsonNode empty = getJson("/ring");
        assertThat(empty.get("fingerprint").asString()).isEqualTo(EMPTY_FINGERPRINT);
        assertThat(empty.get("nodes")).isEmpty();

        long v = putAll("b:2:eu-1a", "a:1", "c:0.5:eu-1b");
        JsonNode ring = getJson("/ring");

        // the change stream's contract adds committedAt and the ring's incarnation to GET /ring
        assertThat(ring.propertyNames()).containsExactlyInAnyOrder("version", "incarnation", "fingerprint", "settings",
                "nodes", "committedAt");
        assertThat(ring.get("incarnation").asString()).matches("[0-9a-f]{16}");
        assertThat(ring.get("committedAt").asString()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
        assertThat(java.time.Instant.parse(ring.get("committedAt").asString()))
                .isBetween(java.time.Instant.now().minusSeconds(60), java.time.Instant.now());
        assertThat(ring.get("version").asLong()).isEqualTo(v);
        assertThat(ring.get("fingerprint").asString()).matches("[0-9a-f]{64}")
                .isEqualTo(libraryRing().fingerprint());
        assertSettings(ring.get("settings"), "md5", 128);
        assertThat(ring.get("nodes")).hasSize(3);
        JsonNode a = ring.get("nodes").get(0);
        assertThat(a.propertyNames()).containsExactlyInAnyOrder("id", "weight", "zone");
        assertThat(a.get("id").asString()).isEqualTo("a");
        assertThat(a.get("weight").asDouble()).isEqualTo(1.0);
        assertThat(a.get("zone").isNull()).isTrue();
        assertThat(ring.get("nodes").get(1).get("zone").asString()).isEqualTo("eu-1a");
        assertThat(ring.get("nodes").get(2).get("weight").asDouble()).isEqualTo(0.5);
    }

    /** docs/ring.md section 17: ETag "<version>-<first 16 hex digits of the fingerprint>". */
    private static String tag(long version, String fingerprint) {
        return "\"" + version + "-" + fingerprint.substring(0, 16) + "\"";
    }

    @Test
    void ring_etagIsVersionAndFingerprint_ifNoneMatchCurrentAnswers304WithoutBody() {
        long v = putAll("A:1");
        Response r = api().get("/ring");
        String etag = tag(v, json(r).get("fingerprint").asString());
        assertThat(r.header("ETag")).isEqualTo(etag).matches("\"[0-9]+-[0-9a-f]{16}\"");

        Response same = api().header("If-None-Match", etag).get("/ring");
        assertThat(same.statusCode()).isEqualTo(304);
        assertThat(same.asByteArray()).isEmpty();
        assertThat(same.header("ETag")).isEqualTo(etag);
        assertThat(same.header("X-Ring-Version")).isEqualTo(Long.toString(v));
        assertThat(api().header("If-None-Match", "W/" + etag + ", \"x\"").get("/ring").statusCode())
                .as("a weak tag in a list compares weakly").isEqualTo(304);

        Response old = api().header("If-None-Match", tag(v - 1, fingerprint())).get("/ring");
        assertThat(old.statusCode()).isEqualTo(200);
        assertThat(json(old).get("version").asLong()).isEqualTo(v);

        long next = putNode("B", 1, null);
        Response stale = api().header("If-None-Match", etag).get("/ring");
        assertThat(stale.statusCode()).isEqualTo(200);
        assertThat(stale.header("ETag")).isEqualTo(tag(next, json(stale).get("fingerprint").asString()));
    }

    @Test
    void ring_ifNoneMatchWithTheOldFormOrAnotherRingsTag_answers200() {
        long v = putAll("A:1");
        String fp = fingerprint();
        String otherRing = (fp.charAt(0) == '0' ? "1" : "0") + fp.substring(1, 16);
        for (String tag : List.of("\"" + v + "\"", Long.toString(v), "W/\"" + v + "\"",
                "\"" + v + "-" + otherRing + "\"", "\"" + v + "-" + fp.substring(0, 15) + "\"")) {
            Response r = api().header("If-None-Match", tag).get("/ring");
            assertThat(r.statusCode()).as("If-None-Match: %s names another ring or no tag of ours", tag)
                    .isEqualTo(200);
            assertThat(json(r).get("version").asLong()).isEqualTo(v);
        }
        assertThat(api().header("If-None-Match", "*").get("/ring").statusCode()).isEqualTo(304);
    }

    @Test
    void nodes_listsMembersAscendingById() {
        putAll("zeta:1", "Alpha:1", "beta:2:eu-1a", "_x:1");
        Response r = batch("[{\"op\":\"put\",\"id\":\"10.0.0.1:11211\",\"weight\":1}]");
        assertThat(r.statusCode()).isEqualTo(200);
        long v = json(r).get("version").asLong();
        JsonNode body = getJson("/nodes");
        assertThat(body.propertyNames()).containsExactlyInAnyOrder("version", "nodes");
        assertThat(body.get("version").asLong()).isEqualTo(v);
        List<String> ids = body.get("nodes").valueStream().map(n -> n.get("id").asString()).toList();
        // ordinal (byte-wise) order of the ASCII ids
        assertThat(ids).containsExactly("10.0.0.1:11211", "Alpha", "_x", "beta", "zeta");
        assertThat(body.get("nodes").get(3).get("zone").asString()).isEqualTo("eu-1a");
    }

    @Test
    void nodeById_answersTheNode_unknownIs404_malformedIs400() {
        long v = putAll("cache-1:2.5:eu-1a");
        JsonNode body = getJson("/nodes/cache-1");
        assertThat(body.propertyNames()).containsExactlyInAnyOrder("version", "node");
        assertThat(body.get("version").asLong()).isEqualTo(v);
        assertThat(body.get("node").get("id").asString()).isEqualTo("cache-1");
        assertThat(body.get("node").get("weight").asDouble()).isEqualTo(2.5);
        assertThat(body.get("node").get("zone").asString()).isEqualTo("eu-1a");

        Response unknown = api().get("/nodes/cache-2");
        assertProblem(unknown, 404, "id");
        assertThat(unknown.header("X-Ring-Version")).isEqualTo(Long.toString(v));
        assertProblem(raw().get("/nodes/bad%20id"), 400, "id");
        assertProblem(raw().get("/nodes/" + "x".repeat(201)), 400, "id");
    }

    @Test
    void settings_answersAllFourSettings() {
        long v = version();
        JsonNode body = getJson("/settings");
        assertThat(body.propertyNames()).containsExactlyInAnyOrder("version", "settings");
        assertThat(body.get("version").asLong()).isEqualTo(v);
        assertSettings(body.get("settings"), "md5", 128);
    }

    // ------------------------------------------------------------ PUT and DELETE /nodes/{id}

    @Test
    void putNode_201WhenNew_200WhenReplaced_eachANewVersion() {
        long v0 = version();

        Response created = adminJson("{\"weight\":1,\"zone\":\"eu-1a\"}").put("/nodes/cache-1");
        assertThat(created.statusCode()).isEqualTo(201);
        JsonNode body = json(created);
        assertThat(body.propertyNames()).containsExactlyInAnyOrder("version", "node");
        assertThat(body.get("version").asLong()).isEqualTo(v0 + 1);
        assertThat(body.get("node").get("id").asString()).isEqualTo("cache-1");
        assertThat(body.get("node").get("weight").asDouble()).isEqualTo(1.0);
        assertThat(body.get("node").get("zone").asString()).isEqualTo("eu-1a");
        assertThat(created.header("X-Ring-Version")).isEqualTo(Long.toString(v0 + 1));

        Response replaced = adminJson("{\"weight\":2,\"zone\":\"eu-1a\"}").put("/nodes/cache-1");
        assertThat(replaced.statusCode()).isEqualTo(200);
        assertThat(json(replaced).get("version").asLong()).isEqualTo(v0 + 2);
        assertThat(getJson("/nodes/cache-1").get("node").get("weight").asDouble()).isEqualTo(2.0);
    }

    @Test
    void putNode_sameWeightAndZoneAgain_200AndNoNewVersion() {
        putNode("cache-1", 1, "eu-1a");
        Snap before = snap();
        for (String body : List.of("{\"weight\":1,\"zone\":\"eu-1a\"}", "{\"weight\":1.0,\"zone\":\"eu-1a\"}",
                "{\"weight\":1e0,\"zone\":\"eu-1a\"}", "{\"id\":\"cache-1\",\"weight\":10e-1,\"zone\":\"eu-1a\"}")) {
            Response r = adminJson(body).put("/nodes/cache-1");
            assertThat(r.statusCode()).as(body).isEqualTo(200);
            assertThat(json(r).get("version").asLong()).as(body).isEqualTo(before.version());
            assertThat(r.header("X-Ring-Version")).isEqualTo(Long.toString(before.version()));
        }
        assertUnchanged(before);
    }

    @Test
    void putNode_absentZoneMeansNoZone() {
        long v = putNode("cache-1", 1, "eu-1a");
        Response r = adminJson("{\"weight\":1}").put("/nodes/cache-1");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(r).get("version").asLong()).as("dropping the zone is a change").isEqualTo(v + 1);
        assertThat(json(r).get("node").get("zone").isNull()).isTrue();
        assertThat(getJson("/nodes/cache-1").get("node").get("zone").isNull()).isTrue();
        // and again without a zone: nothing changes
        assertThat(json(adminJson("{\"weight\":1,\"zone\":null}").put("/nodes/cache-1")).get("version").asLong())
                .isEqualTo(v + 1);
    }

    @Test
    void putNode_zoneOnlyChange_makesAVersionButMovesNoKey() {
        putAll("A:1:z1", "B:1:z2");
        Snap before = snap();
        Response r = adminJson("{\"weight\":1,\"zone\":\"z3\"}").put("/nodes/A");
        assertThat(r.statusCode()).isEqualTo(200);
        Snap after = snap();
        assertThat(after.version()).isEqualTo(before.version() + 1);
        assertThat(after.fingerprint()).as("the fingerprint does not cover zones").isEqualTo(before.fingerprint());
        assertThat(getJson("/nodes/A").get("node").get("zone").asString()).isEqualTo("z3");
        assertThat(getJson("/diff?from=" + before.version()).get("movedCount").asLong()).isZero();
    }

    @Test
    void nodeIds_hostPortAndEveryAllowedCharacter_workInThePath() {
        for (String id : List.of("10.0.0.1:11211", "user@host", "a.b_c-d:e@f", "X", "0")) {
            Response put = adminJson("{\"weight\":1}").put("/nodes/" + id);
            assertThat(put.statusCode()).as(id).isEqualTo(201);
            assertThat(json(put).get("node").get("id").asString()).isEqualTo(id);
            assertThat(getJson("/nodes/" + id).get("node").get("id").asString()).isEqualTo(id);
            assertThat(admin().delete("/nodes/" + id).statusCode()).as(id).isEqualTo(200);
        }
        assertThat(getJson("/nodes").get("nodes")).isEmpty();
    }

    @Test
    void putNode_idInTheBodyMustMatchThePath() {
        Snap before = snap();
        assertProblem(adminJson("{\"id\":\"other\",\"weight\":1}").put("/nodes/cache-1"), 400, "id");
        assertUnchanged(before);
    }

    @Test
    void deleteNode_removesIt_unknownIs404() {
        long v = putAll("A:1", "B:1");
        Response r = admin().delete("/nodes/A");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(r).propertyNames()).containsExactly("version");
        assertThat(json(r).get("version").asLong()).isEqualTo(v + 1);
        assertThat(getJson("/nodes").get("nodes")).hasSize(1);
        assertProblem(api().get("/nodes/A"), 404, "id");

        Snap before = snap();
        Response again = admin().delete("/nodes/A");
        assertProblem(again, 404, "id");
        assertThat(again.header("X-Ring-Version")).isEqualTo(Long.toString(before.version()));
        assertProblem(admin().delete("/nodes/never"), 404, "id");
        assertProblem(raw().header("Authorization", "Bearer " + TOKEN).delete("/nodes/bad%20id"), 400, "id");
        assertUnchanged(before);
    }

    // ------------------------------------------------------------ POST /membership

    @Test
    void membership_aBatchMakesExactlyOneVersion() {
        long v = putAll("A:1", "B:1");
        Response r = batch("[{\"op\":\"put\",\"id\":\"C\",\"weight\":1,\"zone\":\"z\"},"
                + "{\"op\":\"put\",\"id\":\"D\",\"weight\":3},{\"op\":\"remove\",\"id\":\"A\"},"
                + "{\"op\":\"put\",\"id\":\"B\",\"weight\":2}]");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(r).propertyNames()).containsExactly("version");
        assertThat(json(r).get("version").asLong()).isEqualTo(v + 1);
        assertThat(version()).isEqualTo(v + 1);
        JsonNode nodes = getJson("/nodes").get("nodes");
        assertThat(nodes.valueStream().map(n -> n.get("id").asString())).containsExactly("B", "C", "D");
        assertThat(nodes.get(0).get("weight").asDouble()).isEqualTo(2.0);
        assertThat(getJson("/ring").get("fingerprint").asString()).isEqualTo(libraryRing().fingerprint());
    }

    @Test
    void membership_aBatchThatChangesNothing_makesNoVersion() {
        putAll("A:1", "B:2:z");
        Snap before = snap();
        Response r = batch("[{\"op\":\"put\",\"id\":\"A\",\"weight\":1.0},"
                + "{\"op\":\"put\",\"id\":\"B\",\"weight\":2,\"zone\":\"z\"}]");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(r).get("version").asLong()).isEqualTo(before.version());
        assertUnchanged(before);
    }

    @Test
    void membership_isAllOrNothing() {
        putAll("A:1", "B:1");
        Snap before = snap();

        // a bad second change
        assertProblem(batch("[{\"op\":\"put\",\"id\":\"C\",\"weight\":1},{\"op\":\"put\",\"id\":\"D\",\"weight\":0}]"),
                400, "changes[1].weight");
        assertUnchanged(before);
        // removing an absent id after a good change
        assertProblem(batch("[{\"op\":\"put\",\"id\":\"C\",\"weight\":1},{\"op\":\"remove\",\"id\":\"nope\"}]"),
                404, null);
        assertUnchanged(before);
        // an id twice
        assertProblem(batch("[{\"op\":\"put\",\"id\":\"C\",\"weight\":1},{\"op\":\"put\",\"id\":\"C\",\"weight\":2}]"),
                400, "changes[1].id");
        assertUnchanged(before);
        assertProblem(batch("[{\"op\":\"remove\",\"id\":\"A\"},{\"op\":\"put\",\"id\":\"A\",\"weight\":2}]"),
                400, "changes[1].id");
        assertUnchanged(before);
        // a bad op, a bad id, a bad zone, an unknown field, a remove with a weight
        assertProblem(batch("[{\"op\":\"put\",\"id\":\"C\",\"weight\":1},{\"op\":\"move\",\"id\":\"D\"}]"),
                400, "changes[1].op");
        assertProblem(batch("[{\"op\":\"put\",\"id\":\"C\",\"weight\":1},{\"op\":\"put\",\"id\":\"a b\",\"weight\":1}]"),
                400, "changes[1].id");
        assertProblem(batch("[{\"op\":\"put\",\"id\":\"C\",\"weight\":1,\"zone\":\"eu 1\"}]"), 400, "changes[0].zone");
        assertProblem(batch("[{\"op\":\"put\",\"id\":\"C\",\"weight\":1,\"wieght\":2}]"), 400, "changes[0].wieght");
        assertProblem(batch("[{\"op\":\"remove\",\"id\":\"A\",\"weight\":1}]"), 400, "changes[0].weight");
        assertProblem(batch("[{\"op\":\"put\",\"id\":\"C\"}]"), 400, "changes[0].weight");
        assertProblem(batch("[]"), 400, "changes");
        assertProblem(adminJson("{}").post("/membership"), 400, "changes");
        assertProblem(adminJson("{\"changes\":[],\"x\":1}").post("/membership"), 400, "x");
        assertUnchanged(before);
    }

    @Test
    void membership_takes1To10000Changes() {
        Snap before = snap();
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < 10_001; i++) {
            sb.append(i == 0 ? "" : ",").append("{\"op\":\"put\",\"id\":\"n").append(i).append("\",\"weight\":0.001}");
        }
        assertProblem(batch(sb.append("]").toString()), 400, "changes");
        assertUnchanged(before);
    }

    @Test
    void membership_past10000Nodes_isRefusedAndChangesNothing() {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < 10_000; i++) {
            sb.append(i == 0 ? "" : ",").append("{\"op\":\"put\",\"id\":\"n").append(i).append("\",\"weight\":0.001}");
        }
        assertThat(batch(sb.append("]").toString()).statusCode()).isEqualTo(200);
        Snap before = snap();
        assertProblem(adminJson("{\"weight\":1}").put("/nodes/one-too-many"), 400, null);
        assertProblem(batch("[{\"op\":\"put\",\"id\":\"x1\",\"weight\":1},{\"op\":\"remove\",\"id\":\"n1\"},"
                + "{\"op\":\"put\",\"id\":\"x2\",\"weight\":1}]"), 400, null);
        assertUnchanged(before);
        // replacing one is fine: still 10,000
        assertThat(batch("[{\"op\":\"put\",\"id\":\"x1\",\"weight\":1},{\"op\":\"remove\",\"id\":\"n1\"}]")
                .statusCode()).isEqualTo(200);
        reset();
    }

    @Test
    void membership_removingAnAbsentIdIs404() {
        putAll("A:1");
        Snap before = snap();
        JsonNode p = assertProblem(batch("[{\"op\":\"remove\",\"id\":\"B\"}]"), 404, null);
        assertThat(p.get("detail").asString()).contains("B");
        assertUnchanged(before);
    }

    @Test
    void membership_pastTheRingLimits_isRefusedAndChangesNothing() {
        putAll("A:1");
        Snap before = snap();
        // 4 x 10000 x 128 = 5,120,000 points > 4,000,000
        JsonNode p = assertProblem(batch("[{\"op\":\"put\",\"id\":\"h1\",\"weight\":10000},"
                + "{\"op\":\"put\",\"id\":\"h2\",\"weight\":10000},{\"op\":\"put\",\"id\":\"h3\",\"weight\":10000},"
                + "{\"op\":\"put\",\"id\":\"h4\",\"weight\":10000}]"), 400, null);
        assertThat(p.get("detail").asString()).isNotBlank();
        assertUnchanged(before);
    }

    // ------------------------------------------------------------ PUT /settings

    @Test
    void putSettings_absentFieldsKeepTheirValue() {
        putAll("A:1", "B:1");
        long v = version();
        Response r = adminJson("{\"vnodesPerWeight\":64}").put("/settings");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode body = json(r);
        assertThat(body.propertyNames()).containsExactlyInAnyOrder("version", "settings");
        assertThat(body.get("version").asLong()).isEqualTo(v + 1);
        assertSettings(body.get("settings"), "md5", 64);
        assertSettings(getJson("/settings").get("settings"), "md5", 64);
        assertThat(getJson("/ownership").get("nodes").get(0).get("points").asInt()).isLessThanOrEqualTo(64);

        Snap before = snap();
        Response none = adminJson("{}").put("/settings");
        assertThat(none.statusCode()).isEqualTo(200);
        assertThat(json(none).get("version").asLong()).isEqualTo(v + 1);
        Response same = adminJson("{\"hash\":\"md5\",\"vnodesPerWeight\":64,\"algorithm\":\"ring\"}").put("/settings");
        assertThat(same.statusCode()).isEqualTo(200);
        assertThat(json(same).get("version").asLong()).as("the same settings make no version").isEqualTo(v + 1);
        assertUnchanged(before);
    }

    @Test
    void putSettings_murmur3_makesANewVersionAndFingerprint() {
        putAll("A:1", "B:1", "C:1");
        Snap before = snap();
        Response r = adminJson("{\"hash\":\"murmur3\"}").put("/settings");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(r).get("version").asLong()).isEqualTo(before.version() + 1);
        assertSettings(json(r).get("settings"), "murmur3", 128);
        Snap after = snap();
        assertThat(after.version()).isEqualTo(before.version() + 1);
        assertThat(after.fingerprint()).isNotEqualTo(before.fingerprint()).isEqualTo(libraryRing().fingerprint());
        assertThat(after.nodes()).isEqualTo(before.nodes());
        // keys now hash with murmur3: docs/ring.md section 2, murmur3("hello") = 0x248bfa47
        assertThat(json(raw().get("/route/hello")).get("hash").asLong()).isEqualTo(0x248bfa47L);
    }

    @Test
    void putSettings_refusesWhatIsNotImplementedOrMalformed_andChangesNothing() {
        putAll("A:1", "B:1");
        Snap before = snap();
        assertProblem(adminJson("{\"hash\":\"Ketama\"}").put("/settings"), 400, "hash");
        assertProblem(adminJson("{\"algorithm\":\"Maglev\"}").put("/settings"), 400, "algorithm");
        assertProblem(adminJson("{\"hash\":\"crc32\"}").put("/settings"), 400, "hash");
        assertProblem(adminJson("{\"hash\":5}").put("/settings"), 400, "hash");
        assertProblem(adminJson("{\"algorithm\":\"jump\"}").put("/settings"), 400, "algorithm");
        for (String bad : List.of("0", "4097", "-1", "1.5", "\"128\"", "true", "99999999999")) {
            assertProblem(adminJson("{\"vnodesPerWeight\":" + bad + "}").put("/settings"), 400, "vnodesPerWeight");
        }
        assertProblem(adminJson("{\"maglevTableSize\":1000}").put("/settings"), 400, "maglevTableSize");
        assertProblem(adminJson("{\"maglevTableSize\":65536}").put("/settings"), 400, "maglevTableSize");
        assertProblem(adminJson("{\"hash\":\"murmur3\",\"vnodes\":64}").put("/settings"), 400, "vnodes");
        // a good field with a bad one: nothing applied
        assertProblem(adminJson("{\"hash\":\"murmur3\",\"vnodesPerWeight\":0}").put("/settings"), 400,
                "vnodesPerWeight");
        assertProblem(adminJson("[]").put("/settings"), 400, null);
        assertUnchanged(before);
    }

    @Test
    void putSettings_pastThePointLimit_isRefusedAndChangesNothing() {
        putAll("big:1000");
        Snap before = snap();
        // 1000 x 4096 = 4,096,000 points > 4,000,000
        assertProblem(adminJson("{\"vnodesPerWeight\":4096}").put("/settings"), 400, null);
        assertUnchanged(before);
    }

    // ------------------------------------------------------------ If-Match

    @Test
    void ifMatch_bareOrQuotedCurrentVersion_applies() {
        long v = putAll("A:1");
        Response bare = adminJson("{\"weight\":1}").header("If-Match", Long.toString(v)).put("/nodes/B");
        assertThat(bare.statusCode()).isEqualTo(201);
        Response quoted = adminJson("{\"weight\":1}").header("If-Match", "\"" + (v + 1) + "\"").put("/nodes/C");
        assertThat(quoted.statusCode()).isEqualTo(201);
        assertThat(admin().header("If-Match", "\"" + (v + 2) + "\"").delete("/nodes/C").statusCode()).isEqualTo(200);
        assertThat(batch("[{\"op\":\"remove\",\"id\":\"B\"}]").statusCode()).isEqualTo(200);
        assertThat(adminJson("{\"changes\":[{\"op\":\"put\",\"id\":\"D\",\"weight\":1}]}")
                .header("If-Match", Long.toString(v + 4)).post("/membership").statusCode()).isEqualTo(200);
        assertThat(adminJson("{\"vnodesPerWeight\":100}").header("If-Match", "\"" + (v + 5) + "\"")
                .put("/settings").statusCode()).isEqualTo(200);
        assertThat(version()).isEqualTo(v + 6);
    }

    @Test
    void ifMatch_staleVersion_is412OnEveryAdminCall_andChangesNothing() {
        long v = putAll("A:1", "B:1");
        putNode("C", 1, null);
        Snap before = snap();
        for (String tag : List.of(Long.toString(v), "\"" + v + "\"", Long.toString(v + 5))) {
            for (Function<RequestSpecification, Response> call : adminCalls()) {
                Response r = call.apply(admin().header("If-Match", tag));
                assertProblem(r, 412, "If-Match");
                assertThat(r.header("X-Ring-Version")).isEqualTo(Long.toString(before.version()));
            }
        }
        assertUnchanged(before);
    }

    @Test
    void ifMatch_malformed_is400OnEveryAdminCall_andChangesNothing() {
        putAll("A:1", "B:1", "C:1");
        Snap before = snap();
        for (String tag : List.of("abc", "-1", "\"x\"", "1.0", "\"")) {
            for (Function<RequestSpecification, Response> call : adminCalls()) {
                assertProblem(call.apply(admin().header("If-Match", tag)), 400, "If-Match");
            }
        }
        assertUnchanged(before);
    }

    // ------------------------------------------------------------ admin token

    @Test
    void adminCalls_withoutAValidBearerToken_are401WithWwwAuthenticate_andChangeNothing() {
        putAll("A:1", "B:1", "C:1");
        Snap before = snap();
        for (String auth : new String[] {null, "Basic YWRtaW46YWRtaW4=", "Bearer", "Bearer ", "Token " + TOKEN,
                "Bearer wrong-token-0123456789", "Bearer " + TOKEN + "x", "Bearer " + TOKEN.substring(1), TOKEN}) {
            for (Function<RequestSpecification, Response> call : adminCalls()) {
                RequestSpecification spec = api();
                if (auth != null) {
                    spec = spec.header("Authorization", auth);
                }
                Response r = call.apply(spec);
                assertProblem(r, 401, null);
                assertThat(r.header("WWW-Authenticate")).as("auth %s", auth).startsWith("Bearer");
                assertThat(r.asString()).doesNotContain(TOKEN);
            }
        }
        assertUnchanged(before);
    }

    /**
     * The movement guard is off by default (ringd.guard.max-moved-share 1): a change that moves the whole hash
     * space passes without force; force is read all the same, strictly.
     */
    @Test
    void theGuardIsOffByDefault_aChangeMovingTheWholeSpacePasses_andForceIsStrictAllTheSame() {
        long v = version();
        Response first = adminJson("{\"weight\":1}").put("/nodes/off-a");
        assertThat(first.statusCode()).as("the first node moves the whole space: %s", first.asString())
                .isEqualTo(201);
        assertThat(getJson("/diff?from=" + v).get("movedShare").asDouble()).isEqualTo(1.0);
        assertThat(adminJson("{\"hash\":\"sha256\"}").put("/settings").statusCode()).isEqualTo(200);
        assertThat(adminJson("{\"weight\":2}").queryParam("force", "true").put("/nodes/off-b").statusCode())
                .isEqualTo(201);
        assertThat(adminJson("{\"changes\":[{\"op\":\"remove\",\"id\":\"off-b\"}]}")
                .queryParam("force", "false").post("/membership").statusCode()).isEqualTo(200);
        Snap before = snap();
        JsonNode p = assertProblem(admin().queryParam("force", "yes").delete("/nodes/off-a"), 400, "force");
        assertThat(p.get("detail").asString()).isEqualTo("force must be true or false: yes");
        assertUnchanged(before);
        assertThat(admin().delete("/nodes/off-a").statusCode()).as("the last node leaves the space to none")
                .isEqualTo(200);
    }

    /** One call of each admin operation, each a real change if it were applied. */
    private List<Function<RequestSpecification, Response>> adminCalls() {
        return List.of(
                s -> s.contentType("application/json").body("{\"weight\":3}").put("/nodes/A"),
                s -> s.contentType("application/json").body("{\"weight\":1}").put("/nodes/new-node"),
                s -> s.delete("/nodes/B"),
                s -> s.contentType("application/json")
                        .body("{\"changes\":[{\"op\":\"remove\",\"id\":\"C\"}]}").post("/membership"),
                s -> s.contentType("application/json").body("{\"hash\":\"sha256\"}").put("/settings"));
    }

    static void assertSettings(JsonNode s, String hash, int vnodesPerWeight) {
        assertThat(s.propertyNames()).containsExactlyInAnyOrder("hash", "vnodesPerWeight", "algorithm",
                "maglevTableSize");
        assertThat(s.get("hash").asString()).isEqualTo(hash);
        assertThat(s.get("vnodesPerWeight").asInt()).isEqualTo(vnodesPerWeight);
        assertThat(s.get("algorithm").asString()).isEqualTo("ring");
        assertThat(s.get("maglevTableSize").asInt()).isEqualTo(65537);
    }
}
