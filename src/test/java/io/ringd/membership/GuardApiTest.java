package io.ringd.membership;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.ringd.RealServerTest;
import io.ringd.watch.EventStream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The movement guard against a real server with {@code ringd.guard.max-moved-share=0.3} (docs/ring.md
 * section 17): every membership and settings write, of the ring default and of a named ring, that would
 * move more than 0.3 of the hash space is 409 {@code moved-share-exceeded} with the share {@code /diff}
 * reports for the same change, and changes nothing (version, history, stream); {@code ?force=true} makes it;
 * {@code force} takes only {@code true} or {@code false}; a write under the guard passes as ever.
 */
@TestPropertySource(properties = "ringd.guard.max-moved-share=" + GuardApiTest.MAX)
class GuardApiTest extends RealServerTest {

    static final String MAX = "0.3";
    static final double LIMIT = Double.parseDouble(MAX);
    static final String TYPE = "urn:ringd:problem:moved-share-exceeded";
    static final String RING = "guarded";

    @BeforeEach
    void threeNodes() {
        deleteNamedRings();
        resetForced("");
        forced("{\"changes\":" + changesOf("g-a:1", "g-b:1", "g-c:1") + "}").post("/membership")
                .then().statusCode(200);
    }

    @AfterEach
    void cleanUp() {
        deleteNamedRings();
    }

    /** An admin request with ?force=true and a JSON body. */
    private RequestSpecification forced(String body) {
        return adminJson(body).queryParam("force", "true");
    }

    /** Back to an empty md5/128 ring under {@code prefix} ("" or "/rings/name"), past the guard. */
    private void resetForced(String prefix) {
        forced("{\"hash\":\"md5\",\"vnodesPerWeight\":128,\"algorithm\":\"ring\",\"maglevTableSize\":65537}")
                .put(prefix + "/settings").then().statusCode(200);
        JsonNode nodes = getJson(prefix + "/nodes").get("nodes");
        if (!nodes.isEmpty()) {
            ArrayNode changes = JSON.createArrayNode();
            nodes.forEach(n -> changes.addObject().put("op", "remove").put("id", n.get("id").asString()));
            ObjectNode body = JSON.createObjectNode();
            body.set("changes", changes);
            forced(body.toString()).post(prefix + "/membership").then().statusCode(200);
        }
    }

    /** What {@code POST /diff} says the batch would move from the current version. */
    private JsonNode dryRun(String prefix, String changes) {
        Response r = adminJson("{\"changes\":" + changes + "}").post(prefix + "/diff");
        assertThat(r.statusCode()).as("POST %s/diff: %s", prefix, r.asString()).isEqualTo(200);
        return json(r);
    }

    /** What {@code GET /diff} says moved between two versions. */
    private JsonNode diff(String prefix, long from, long to) {
        return getJson(prefix + "/diff?from=" + from + "&to=" + to + "&maxRanges=0&maxFlows=0");
    }

    /** Checks a guard refusal: 409, the type, field force, the shares, a detail that says what to do. */
    private JsonNode assertRefused(Response r, double movedShare, long movedCount) {
        JsonNode p = assertProblem(r, 409, "force");
        assertThat(p.get("type").asString()).isEqualTo(TYPE);
        assertThat(p.get("movedShare").asDouble()).isEqualTo(movedShare);
        assertThat(p.get("movedCount").asLong()).isEqualTo(movedCount);
        assertThat(p.get("maxMovedShare").asDouble()).isEqualTo(LIMIT);
        assertThat(p.get("detail").asString()).contains(Double.toString(movedShare), Long.toString(movedCount),
                "ringd.guard.max-moved-share", "(" + MAX + ")", "?force=true", "nothing was changed");
        assertThat(r.header("Cache-Control")).isEqualTo("no-store");
        return p;
    }

    private double refusals(String ring) {
        String text = api().get("/actuator/prometheus").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("(?m)^ringd_guard_refusals_total\\{[^}]*ring=\"" + ring + "\"[^}]*\\} (\\S+)$")
                .matcher(text);
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }

    @Test
    void aNodeUnderTheGuard_passes_oneOverIt_is409WithTheShareOfTheDiff_andForcePasses() {
        double refusedBefore = refusals("default");
        JsonNode small = dryRun("", "[{\"op\":\"put\",\"id\":\"g-d\",\"weight\":1}]");
        assertThat(small.get("movedShare").asDouble()).as("a fourth node of weight 1").isLessThan(LIMIT);
        long v = version();
        Response put = adminJson("{\"weight\":1}").put("/nodes/g-d");
        assertThat(put.statusCode()).as(put.asString()).isEqualTo(201);
        assertThat(diff("", v, v + 1).get("movedShare").asDouble()).isEqualTo(small.get("movedShare").asDouble());

        JsonNode large = dryRun("", "[{\"op\":\"put\",\"id\":\"g-e\",\"weight\":3}]");
        double share = large.get("movedShare").asDouble();
        assertThat(share).as("a fifth node of weight 3").isGreaterThan(LIMIT);
        Snap before = snap();
        assertRefused(adminJson("{\"weight\":3}").put("/nodes/g-e"), share, large.get("movedCount").asLong());
        assertRefused(adminJson("{\"weight\":3}").queryParam("force", "false").put("/nodes/g-e"), share,
                large.get("movedCount").asLong());
        assertUnchanged(before);
        assertThat(api().get("/diff?from=" + (before.version() + 1)).statusCode()).as("no version made")
                .isEqualTo(404);
        assertThat(refusals("default")).isEqualTo(refusedBefore + 2);

        Response forced = adminJson("{\"weight\":3}").queryParam("force", "TRUE").put("/nodes/g-e");
        assertThat(forced.statusCode()).as(forced.asString()).isEqualTo(201);
        assertThat(json(forced).get("version").asLong()).isEqualTo(before.version() + 1);
        assertThat(diff("", before.version(), before.version() + 1).get("movedShare").asDouble()).isEqualTo(share);

        // and out again: the removal moves what the addition moved
        Snap withE = snap();
        Response remove = admin().delete("/nodes/g-e");
        JsonNode p = assertProblem(remove, 409, "force");
        assertThat(p.get("movedShare").asDouble()).isEqualTo(share);
        assertUnchanged(withE);
        assertThat(admin().queryParam("force", "true").delete("/nodes/g-e").statusCode()).isEqualTo(200);
        assertThat(refusals("default")).isEqualTo(refusedBefore + 3);
    }

    @Test
    void aRefusal_makesNoEventAndNoHistory_theForcedWriteIsTheNextVersion() throws Exception {
        long v = version();
        try (EventStream s = EventStream.open(uri("/ring/events"))) {
            assertThat(s.status).isEqualTo(200);
            EventStream.Event snapshot = s.nextEvent(Duration.ofSeconds(10));
            assertThat(snapshot.name()).isEqualTo("snapshot");
            assertThat(snapshot.id()).isEqualTo(Long.toString(v));

            String removeTwo = "[{\"op\":\"remove\",\"id\":\"g-a\"},{\"op\":\"remove\",\"id\":\"g-b\"}]";
            JsonNode preview = dryRun("", removeTwo);
            assertRefused(batch(removeTwo), preview.get("movedShare").asDouble(),
                    preview.get("movedCount").asLong());
            assertRefused(adminJson("{\"hash\":\"murmur3\"}").put("/settings"), settingsShare("murmur3"),
                    settingsCount("murmur3"));
            assertThat(version()).isEqualTo(v);

            Response forced = forced("{\"changes\":" + removeTwo + "}").post("/membership");
            assertThat(forced.statusCode()).as(forced.asString()).isEqualTo(200);
            EventStream.Event next = s.nextEvent(Duration.ofSeconds(10));
            assertThat(next.name()).isEqualTo("change");
            assertThat(next.id()).as("the refused writes made no version and sent no event")
                    .isEqualTo(Long.toString(v + 1));
            assertThat(json(next.data()).get("changes")).hasSize(2);
        }
    }

    /** The share a settings write would move: the library's diff of the ring as served and as it would be. */
    private double settingsShare(String hash) {
        return libraryDiff(hash).movedShare();
    }

    private long settingsCount(String hash) {
        return libraryDiff(hash).movedCount();
    }

    private io.ringd.ring.RingDiff libraryDiff(String hash) {
        JsonNode ring = getJson("/ring");
        ObjectNode settings = (ObjectNode) ring.get("settings").deepCopy();
        settings.put("hash", hash);
        io.ringd.ring.HashRing now = libraryRing(ring.get("settings"), ring.get("nodes"), 0);
        io.ringd.ring.HashRing then = libraryRing(settings, ring.get("nodes"), 1);
        return io.ringd.ring.HashRing.diff(now, then, 0, 0, null);
    }

    @Test
    void aSettingsWriteOverTheGuard_isRefused_andForcedMovesWhatTheDiffSays() {
        for (String body : new String[] {"{\"hash\":\"sha256\"}", "{\"vnodesPerWeight\":16}",
                "{\"algorithm\":\"maglev\"}"}) {
            Snap before = snap();
            Response refused = adminJson(body).put("/settings");
            JsonNode p = assertProblem(refused, 409, "force");
            double share = p.get("movedShare").asDouble();
            assertThat(share).as(body).isGreaterThan(LIMIT);
            assertUnchanged(before);
            Response forced = forced(body).put("/settings");
            assertThat(forced.statusCode()).as(forced.asString()).isEqualTo(200);
            JsonNode moved = diff("", before.version(), before.version() + 1);
            assertThat(moved.get("movedShare").asDouble()).as(body).isEqualTo(share);
            assertThat(moved.get("movedCount").asLong()).as(body).isEqualTo(p.get("movedCount").asLong());
            resetForced("");
            forced("{\"changes\":" + changesOf("g-a:1", "g-b:1", "g-c:1") + "}").post("/membership")
                    .then().statusCode(200);
        }
        // the same settings again move nothing, and are never refused
        Response same = adminJson("{\"hash\":\"md5\"}").put("/settings");
        assertThat(same.statusCode()).as(same.asString()).isEqualTo(200);
    }

    @Test
    void aNamedRing_isGuardedAlike_andCountedUnderItsName() {
        Response made = adminJson("{\"name\":\"" + RING + "\"}").post("/rings");
        assertThat(made.statusCode()).as(made.asString()).isEqualTo(201);
        String prefix = "/rings/" + RING;
        String five = changesOf("n-a:1", "n-b:1", "n-c:1", "n-e:1", "n-f:1").toString();
        Response first = adminJson("{\"changes\":" + five + "}").post(prefix + "/membership");
        JsonNode p = assertRefused(first, 1.0, 1L << 32);
        assertThat(p.get("detail").asString()).as("a new ring's first nodes take the whole space from none")
                .contains("1.0 of the hash space");
        assertThat(first.header("X-Ring-Name")).isEqualTo(RING);
        assertThat(refusals(RING)).isEqualTo(1);
        assertThat(forced("{\"changes\":" + five + "}").post(prefix + "/membership").statusCode())
                .isEqualTo(200);

        long defaultVersion = version();
        JsonNode preview = dryRun(prefix, "[{\"op\":\"remove\",\"id\":\"n-a\"},{\"op\":\"put\",\"id\":\"n-d\","
                + "\"weight\":2}]");
        Response refused = adminJson("{\"changes\":[{\"op\":\"remove\",\"id\":\"n-a\"},{\"op\":\"put\","
                + "\"id\":\"n-d\",\"weight\":2}]}").post(prefix + "/membership");
        assertRefused(refused, preview.get("movedShare").asDouble(), preview.get("movedCount").asLong());
        assertThat(getJson(prefix + "/ring").get("version").asLong()).isEqualTo(1);
        assertThat(refusals(RING)).isEqualTo(2);
        assertThat(dryRun(prefix, "[{\"op\":\"remove\",\"id\":\"n-a\"}]").get("movedShare").asDouble())
                .as("one node of five").isLessThan(LIMIT);
        assertThat(admin().delete(prefix + "/nodes/n-a").statusCode()).as("under the guard").isEqualTo(200);
        assertThat(getJson(prefix + "/ring").get("version").asLong()).isEqualTo(2);
        assertThat(version()).as("the ring default untouched").isEqualTo(defaultVersion);
    }

    @Test
    void force_takesTrueOrFalseOnly_andBadInputIsRefusedBeforeTheGuard() {
        Snap before = snap();
        for (String bad : new String[] {"yes", "1", "on", "bogus"}) {
            JsonNode p = assertProblem(adminJson("{\"weight\":3}").queryParam("force", bad).put("/nodes/g-e"), 400,
                    "force");
            assertThat(p.get("detail").asString()).contains("true or false");
            assertProblem(admin().queryParam("force", bad).delete("/nodes/g-a"), 400, "force");
            assertProblem(adminJson("{\"changes\":" + changesOf("g-e:3") + "}").queryParam("force", bad)
                    .post("/membership"), 400, "force");
            assertProblem(adminJson("{\"hash\":\"sha256\"}").queryParam("force", bad).put("/settings"), 400,
                    "force");
        }
        // a body at fault is named as ever, not hidden behind the guard
        assertProblem(adminJson("{\"weight\":0}").put("/nodes/g-e"), 400, "weight");
        assertProblem(adminJson("{\"hash\":\"crc32\"}").put("/settings"), 400, "hash");
        assertProblem(admin().delete("/nodes/g-zz"), 404, "id");
        // If-Match is checked first: a stale write is 412 whatever it would move
        assertProblem(adminJson("{\"weight\":3}").header("If-Match", "0").put("/nodes/g-e"), 412, "If-Match");
        // and the admin token before anything
        assertThat(api().contentType("application/json").body("{\"weight\":3}").queryParam("force", "bogus")
                .put("/nodes/g-e").statusCode()).isEqualTo(401);
        assertUnchanged(before);
    }

    @Test
    void aPlansSteps_areNeverRefused_evenOverTheGuard() throws Exception {
        // the first node of an empty ring moves everything: a step over any budget, and over the guard
        Response made = adminJson("{\"name\":\"" + RING + "\"}").post("/rings");
        assertThat(made.statusCode()).as(made.asString()).isEqualTo(201);
        String prefix = "/rings/" + RING;
        assertThat(assertProblem(adminJson("{\"weight\":1}").put(prefix + "/nodes/p-a"), 409, "force")
                .get("movedShare").asDouble()).isEqualTo(1.0);
        Response plan = adminJson("{\"changes\":" + changesOf("p-a:1", "p-b:1", "p-c:1") + ",\"maxMovedShare\":0.2}")
                .post(prefix + "/plans");
        assertThat(plan.statusCode()).as(plan.asString()).isEqualTo(201);
        JsonNode p = json(plan);
        assertThat(p.get("steps").get(0).get("overBudget").asBoolean()).isTrue();
        assertThat(p.get("movedShare").asDouble()).as("the direct change is over the guard").isGreaterThan(LIMIT);
        String id = p.get("id").asString();
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        JsonNode now = getJson(prefix + "/plans/" + id);
        while (!now.get("state").asString().equals("done") && System.nanoTime() < end) {
            Thread.sleep(20);
            now = getJson(prefix + "/plans/" + id);
        }
        assertThat(now.get("state").asString()).as("%s", now).isEqualTo("done");
        assertThat(getJson(prefix + "/nodes").get("nodes")).hasSize(3);
    }
}
