package io.ringd.rings;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.ringd.RealServerTest;
import io.ringd.ring.HashRing;
import io.ringd.watch.EventStream;
import tools.jackson.databind.JsonNode;

/**
 * Named rings over HTTP (docs/ring.md section 22): made, listed, served under
 * {@code /rings/{name}} with the answers of the unprefixed paths, isolated
 * from each other, deleted for good, and refused clearly when asked wrongly.
 */
class NamedRingsApiTest extends RealServerTest {

    private final List<String> made = new ArrayList<>();

    @BeforeEach
    void onlyDefault() {
        deleteNamedRings();
    }

    @AfterEach
    void deleteTheRingsMade() {
        for (String name : made) {
            admin().delete("/rings/" + name);
        }
    }

    private JsonNode make(String name, String settings) {
        Response r = adminJson("{\"name\":\"" + name + "\"" + (settings == null ? "" : ",\"settings\":" + settings)
                + "}").post("/rings");
        assertThat(r.statusCode()).as("POST /rings %s: %s", name, r.asString()).isEqualTo(201);
        made.add(name);
        return json(r);
    }

    /** POST /rings/{ring}/membership, all or nothing; answers the version. */
    private long fill(String ring, String changes) {
        Response r = adminJson("{\"changes\":" + changes + "}").post("/rings/" + ring + "/membership");
        assertThat(r.statusCode()).as("batch on %s: %s", ring, r.asString()).isEqualTo(200);
        assertThat(r.header("X-Ring-Name")).isEqualTo(ring);
        return json(r).get("version").asLong();
    }

    private static final String NODES = "[{\"op\":\"put\",\"id\":\"a\",\"weight\":1,\"zone\":\"z1\"},"
            + "{\"op\":\"put\",\"id\":\"b\",\"weight\":2,\"zone\":\"z2\"},"
            + "{\"op\":\"put\",\"id\":\"c\",\"weight\":1.5,\"zone\":\"z3\"}]";

    @Test
    void aRingIsMade_at0_durableAnswer_thenListed_ascending_withDefault() {
        Response r = adminJson("{\"name\":\"sessions\",\"settings\":{\"hash\":\"murmur3\",\"vnodesPerWeight\":64}}")
                .post("/rings");
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(201);
        made.add("sessions");
        assertThat(r.header("Location")).isEqualTo("/rings/sessions");
        assertThat(r.header("X-Ring-Name")).isEqualTo("sessions");
        assertThat(r.header("X-Ring-Version")).isEqualTo("0");
        JsonNode body = json(r);
        assertThat(body.get("version").asLong()).isZero();
        assertThat(body.get("nodes")).isEmpty();
        assertThat(body.get("settings").get("hash").asString()).isEqualTo("murmur3");
        assertThat(body.get("settings").get("vnodesPerWeight").asInt()).isEqualTo(64);
        // absent settings take the start-up defaults
        assertThat(body.get("settings").get("algorithm").asString()).isEqualTo("ring");
        assertThat(r.header("ETag")).isEqualTo("\"0-" + body.get("fingerprint").asString().substring(0, 16) + "\"");
        assertThat(getJson("/rings/sessions/ring")).isEqualTo(body);
        assertThat(getJson("/rings/sessions")).isEqualTo(body);

        make("analytics", null);
        JsonNode rings = getJson("/rings").get("rings");
        List<String> names = new ArrayList<>();
        rings.forEach(n -> names.add(n.get("name").asString()));
        assertThat(names).containsSubsequence("analytics", "default", "sessions").isSorted();
        JsonNode sessions = null;
        for (JsonNode n : rings) {
            if (n.get("name").asString().equals("sessions")) {
                sessions = n;
            }
        }
        assertThat(sessions.get("version").asLong()).isZero();
        assertThat(sessions.get("nodes").asInt()).isZero();
        assertThat(sessions.get("points").asInt()).isZero();
        assertThat(sessions.get("fingerprint").asString()).isEqualTo(body.get("fingerprint").asString());
        assertThat(sessions.get("committedAt").asString()).isEqualTo(body.get("committedAt").asString());
    }

    @Test
    void aNamedRing_answersEveryPathAsAnotherRingOfTheSameMembersDoes_andAsTheLibrary() {
        make("alpha", "{\"hash\":\"murmur3\"}");
        make("beta", "{\"hash\":\"murmur3\"}");
        assertThat(fill("alpha", NODES)).isEqualTo(1);
        assertThat(fill("beta", NODES)).isEqualTo(1);
        Response second = adminJson("{\"weight\":3}").put("/rings/alpha/nodes/d");
        assertThat(second.statusCode()).isEqualTo(201);
        assertThat(adminJson("{\"weight\":3}").put("/rings/beta/nodes/d").statusCode()).isEqualTo(201);

        JsonNode ring = getJson("/rings/alpha/ring");
        HashRing library = libraryRing(ring.get("settings"), ring.get("nodes"), 2);
        Random rnd = new Random(22);
        for (int i = 0; i < 200; i++) {
            String key = "user:" + rnd.nextInt(1_000_000);
            assertThat(fastGet("/rings/alpha/route/" + enc(key)).get("node").asString()).as(key)
                    .isEqualTo(library.route(key));
        }
        String[] paths = {"/ring", "/nodes", "/nodes/b", "/settings", "/ownership", "/route/user%2F42",
            "/route/user%2F42?explain=true", "/route/k?version=1", "/route?key=k", "/preference/k?n=3",
            "/preference/k?n=2&version=1", "/diff?from=1", "/diff?from=0&to=2&node=d", "/points",
            "/route/k?handoff=true"};
        for (String p : paths) {
            Response a = raw().get("/rings/alpha" + p);
            Response b = raw().get("/rings/beta" + p);
            assertThat(a.statusCode()).as("%s: %s", p, a.asString()).isEqualTo(200);
            assertThat(a.header("X-Ring-Name")).as(p).isEqualTo("alpha");
            assertThat(b.header("X-Ring-Name")).as(p).isEqualTo("beta");
            assertThat(a.header("X-Ring-Version")).as(p).isEqualTo("2");
            assertThat(withoutIncarnation(a.asString())).as(p).isEqualTo(withoutIncarnation(b.asString()));
        }
        // the unprefixed path of a kept version answers the ring default, never a named one
        assertThat(raw().get("/route/k").header("X-Ring-Name")).isEqualTo("default");

        Response dry = adminJson("{\"changes\":[{\"op\":\"remove\",\"id\":\"a\"}]}").post("/rings/alpha/diff");
        assertThat(dry.statusCode()).as(dry.asString()).isEqualTo(200);
        assertThat(getJson("/rings/alpha/ring").get("version").asLong()).as("a dry run changes nothing").isEqualTo(2);
        Response batchRoute = api().contentType("application/json").body("{\"keys\":[\"x\",\"y\"]}")
                .post("/rings/alpha/route");
        assertThat(batchRoute.statusCode()).as(batchRoute.asString()).isEqualTo(200);
        assertThat(json(batchRoute).get("routes").get(0).get("node").asString()).isEqualTo(library.route("x"));
        // loads are per ring: the 200 keys routed above count on alpha alone
        assertThat(getJson("/rings/beta/loads").get("mean").asDouble()).isLessThan(
                getJson("/rings/alpha/loads").get("mean").asDouble());
        assertThat(fastGet("/rings/alpha/route/k?bound=1.25").get("version").asLong()).isEqualTo(2);
        assertThat(adminJson("{\"load\":7.5}").put("/rings/alpha/nodes/a/load").statusCode()).isEqualTo(200);
        assertThat(getJson("/rings/alpha/loads").get("nodes").get(0).get("load").asDouble()).isEqualTo(7.5);
        assertThat(getJson("/rings/beta/loads").get("nodes").get(0).get("source").asString()).isEqualTo("decayed");
    }

    private static String withoutIncarnation(String body) {
        return body.replaceAll("\"incarnation\":\"[0-9a-f]+\"", "\"incarnation\":\"-\"")
                .replaceAll("\"(committedAt|movedAtTime)\":\"[^\"]+\"", "\"$1\":\"-\"");
    }

    @Test
    void ifMatchAndEtags_arePerRing() {
        make("gamma", null);
        fill("gamma", NODES);
        Response ring = api().get("/rings/gamma/ring");
        String etag = ring.header("ETag");
        assertThat(api().header("If-None-Match", etag).get("/rings/gamma/ring").statusCode()).isEqualTo(304);
        // the ring default's If-Match is about its own version, gamma's about gamma's
        Response stale = adminJson("{\"weight\":1}").header("If-Match", "0").put("/rings/gamma/nodes/e");
        assertProblem(stale, 412, "If-Match");
        Response ok = adminJson("{\"weight\":1}").header("If-Match", etag).put("/rings/gamma/nodes/e");
        assertThat(ok.statusCode()).as(ok.asString()).isEqualTo(201);
        assertThat(getJson("/rings/gamma/ring").get("version").asLong()).isEqualTo(2);
    }

    @Test
    void writesToOneRing_neverChangeAnothersVersionHistoryOrStream() throws Exception {
        make("left", null);
        make("right", null);
        long defaultVersion = version();
        fill("right", NODES);
        try (EventStream rightStream = EventStream.open(uri("/rings/right/ring/events"), "Last-Event-ID", "1");
                EventStream defaultStream = EventStream.open(uri("/ring/events"), "Last-Event-ID",
                        Long.toString(defaultVersion))) {
            assertThat(rightStream.status).isEqualTo(200);
            assertThat(rightStream.header("X-Ring-Name")).isEqualTo("right");
            for (int i = 0; i < 5; i++) {
                assertThat(fill("left", "[{\"op\":\"put\",\"id\":\"n" + i + "\",\"weight\":1}]")).isEqualTo(i + 1);
            }
            assertThat(adminJson("{\"weight\":1}").put("/rings/right/nodes/z").statusCode()).isEqualTo(201);
            EventStream.Event first = rightStream.nextEvent(Duration.ofSeconds(5));
            assertThat(first).isNotNull();
            assertThat(first.name()).isEqualTo("change");
            assertThat(first.id()).as("the first event on right's stream is right's own next version").isEqualTo("2");
            assertThat(json(first.data()).get("changes").toString()).contains("\"z\"").doesNotContain("n0");
            assertThat(defaultStream.nextEvent(Duration.ofMillis(500))).as("default's stream heard nothing")
                    .isNull();
        }
        assertThat(version()).isEqualTo(defaultVersion);
        assertThat(getJson("/rings/right/ring").get("version").asLong()).isEqualTo(2);
        assertProblem(api().get("/rings/right/diff?from=0&to=5"), 404, "to");
        assertThat(getJson("/rings/left/diff?from=0&to=5").get("to").asLong()).isEqualTo(5);
    }

    @Test
    void aWriteToOneRing_goesOnWhileAnotherRingRebuildsALargeMaglevTable() throws Exception {
        make("huge", null);
        make("small", null);
        StringBuilder nodes = new StringBuilder("[");
        for (int i = 0; i < 1000; i++) {
            nodes.append(i == 0 ? "" : ",").append("{\"op\":\"put\",\"id\":\"h").append(i).append("\",\"weight\":1}");
        }
        fill("huge", nodes.append(']').toString());
        fill("small", NODES);
        Thread rebuild = new Thread(() -> adminJson("{\"algorithm\":\"maglev\",\"maglevTableSize\":5000011}")
                .put("/rings/huge/settings"));
        rebuild.start();
        // lookups and writes of small are answered while huge's write (its table of 5,000,011 entries) runs:
        // the rings share no lock, so a write to small returns while huge's is still going
        int answered = 0;
        int writesWhileRebuilding = 0;
        while (rebuild.isAlive() && answered < 5000) {
            assertThat(fastGet("/rings/small/route/k" + answered).get("node").asString()).isNotEmpty();
            answered++;
            if (answered % 25 == 0) {
                fill("small", "[{\"op\":\"put\",\"id\":\"w" + answered + "\",\"weight\":1}]");
                if (rebuild.isAlive()) {
                    writesWhileRebuilding++;
                }
            }
        }
        rebuild.join(120_000);
        assertThat(getJson("/rings/huge/ring").get("settings").get("maglevTableSize").asInt()).isEqualTo(5000011);
        assertThat(writesWhileRebuilding).as("writes to small that returned while huge rebuilt").isPositive();
        assertThat(getJson("/rings/small/ring").get("version").asLong()).isEqualTo(1 + answered / 25);
    }

    @Test
    void deletingARing_endsItsStreams_forgetsItsHistory_andANewOneStartsAt0() throws Exception {
        JsonNode first = make("doomed", null);
        fill("doomed", NODES);
        try (EventStream stream = EventStream.open(uri("/rings/doomed/ring/events"))) {
            assertThat(stream.nextEvent(Duration.ofSeconds(5)).name()).isEqualTo("snapshot");
            Response d = admin().delete("/rings/doomed");
            assertThat(d.statusCode()).as(d.asString()).isEqualTo(204);
            made.remove("doomed");
            assertThat(stream.endsWithin(Duration.ofSeconds(5))).as("the stream ends").isTrue();
        }
        for (String p : new String[] {"/rings/doomed/ring", "/rings/doomed/route/k", "/rings/doomed/ring/events",
            "/rings/doomed"}) {
            JsonNode problem = assertProblem(api().get(p), 404, "ring");
            assertThat(problem.get("type").asString()).isEqualTo("urn:ringd:problem:ring-not-found");
        }
        assertProblem(adminJson("{\"weight\":1}").put("/rings/doomed/nodes/a"), 404, "ring");
        make("present", null);
        JsonNode unknownNode = assertProblem(admin().delete("/rings/present/nodes/nobody"), 404, "id");
        assertThat(unknownNode.get("instance").asString()).as("the path as sent").isEqualTo(
                "/rings/present/nodes/nobody");
        assertProblem(admin().delete("/rings/doomed"), 404, "ring");
        JsonNode again = make("doomed", null);
        assertThat(again.get("version").asLong()).isZero();
        assertThat(again.get("nodes")).isEmpty();
        assertThat(again.get("incarnation").asString()).isNotEqualTo(first.get("incarnation").asString());
        assertProblem(api().get("/rings/doomed/diff?from=0&to=1"), 404, "to");
    }

    @Test
    void badNamesUnknownRingsDuplicatesAndDefault_areClearProblems_andChangeNothing() {
        String before = getJson("/rings").toString();
        for (String bad : new String[] {"Sessions", "-x", "x-", "a_b", "a.b", "", "x".repeat(64), "ring/x"}) {
            Response r = adminJson("{\"name\":\"" + bad + "\"}").post("/rings");
            assertProblem(r, 400, "name");
        }
        assertProblem(adminJson("{}").post("/rings"), 400, "name");
        assertProblem(adminJson("{\"name\":\"okname\",\"settings\":{\"vnodesPerWeight\":0}}").post("/rings"), 400,
                "vnodesPerWeight");
        assertProblem(adminJson("{\"name\":\"okname\",\"settings\":{\"hash\":\"crc\"}}").post("/rings"), 400, "hash");
        assertProblem(adminJson("{\"name\":\"default\"}").post("/rings"), 409, "name");
        assertProblem(admin().delete("/rings/default"), 409, "name");
        assertProblem(api().get("/rings/nosuch/ring"), 404, "ring");
        assertProblem(api().get("/rings/Bad_Name/ring"), 400, "ring");
        assertProblem(api().get("/rings/nosuch"), 404, "ring");
        assertProblem(admin().delete("/rings/nosuch"), 404, "ring");
        assertThat(getJson("/rings").toString()).isEqualTo(before);

        make("dup", null);
        assertProblem(adminJson("{\"name\":\"dup\"}").post("/rings"), 409, "name");
        // a ring's prefix leads to its own paths only
        assertThat(api().get("/rings/dup/rings").statusCode()).isEqualTo(404);
        assertThat(api().get("/rings/dup/actuator/health").statusCode()).isEqualTo(404);
        assertThat(adminJson("{\"name\":\"nested\"}").post("/rings/dup/rings").statusCode()).isEqualTo(404);
        assertThat(api().get("/rings/nested/ring").statusCode()).isEqualTo(404);
    }

    @Test
    void pastTheMostRings_isAConflict_untilOneIsDeleted() {
        int existing = getJson("/rings").get("rings").size();
        int max = 100;
        for (int i = existing; i < max; i++) {
            make("bulk-" + i, null);
        }
        Response over = adminJson("{\"name\":\"one-too-many\"}").post("/rings");
        JsonNode problem = assertProblem(over, 409, "name");
        assertThat(problem.get("detail").asString()).contains("100").contains("ringd.rings.max");
        assertThat(getJson("/rings").get("rings").size()).isEqualTo(max);
        admin().delete("/rings/bulk-" + existing);
        made.remove("bulk-" + existing);
        make("one-too-many", null);
    }

    @Test
    void aRingToken_mayMakeTheAdminCallsOfItsRingOnly() {
        make("teams", null);
        Response own = api().header("Authorization", "Bearer " + TEAMS_TOKEN).contentType("application/json")
                .body("{\"weight\":1}").put("/rings/teams/nodes/a");
        assertThat(own.statusCode()).as(own.asString()).isEqualTo(201);
        make("others", null);
        long defaultVersion = version();
        Response onDefault = api().header("Authorization", "Bearer " + TEAMS_TOKEN).contentType("application/json")
                .body("{\"weight\":1}").put("/nodes/teams-token-node");
        assertProblem(onDefault, 403, "ring");
        Response onOther = api().header("Authorization", "Bearer " + TEAMS_TOKEN).contentType("application/json")
                .body("{\"weight\":1}").put("/rings/others/nodes/a");
        assertProblem(onOther, 403, "ring");
        Response create = api().header("Authorization", "Bearer " + TEAMS_TOKEN).contentType("application/json")
                .body("{\"name\":\"by-token\"}").post("/rings");
        assertProblem(create, 403, "Authorization");
        assertProblem(api().header("Authorization", "Bearer " + TEAMS_TOKEN).delete("/rings/teams"), 403,
                "Authorization");
        assertThat(version()).isEqualTo(defaultVersion);
        assertThat(getJson("/rings/others/ring").get("version").asLong()).isZero();
        assertThat(getJson("/rings/teams/ring").get("version").asLong()).isEqualTo(1);
        assertThat(api().get("/rings/by-token").statusCode()).isEqualTo(404);
        // a wrong token is still 401, and lookups need no token
        assertProblem(api().header("Authorization", "Bearer not-the-token-at-all-000").contentType("application/json")
                .body("{\"weight\":1}").put("/rings/teams/nodes/b"), 401, "Authorization");
    }

    @Test
    void everyRingMetric_carriesItsRing_andADeletedRingLeavesNoSeries() {
        make("metered", null);
        fill("metered", NODES);
        fastGet("/rings/metered/route/k");
        String scrape = api().get("/actuator/prometheus").asString();
        assertThat(scrape).containsPattern("ringd_ring_version\\{[^}]*ring=\"metered\"} 1.0")
                .containsPattern("ringd_ring_version\\{[^}]*ring=\"default\"}")
                .containsPattern("ringd_nodes\\{[^}]*ring=\"metered\"} 3.0")
                .containsPattern("ringd_store_writable\\{[^}]*ring=\"metered\"} 1.0")
                .containsPattern("ringd_routes_total\\{[^}]*node=\"[abc]\",ring=\"metered\"} 1.0");
        for (String line : scrape.split("\n")) {
            if (line.startsWith("ringd_ring_") || line.startsWith("ringd_nodes") || line.startsWith("ringd_points")
                    || line.startsWith("ringd_routes") || line.startsWith("ringd_ownership")
                    || line.startsWith("ringd_node_") || line.startsWith("ringd_membership")
                    || line.startsWith("ringd_stale") || line.startsWith("ringd_store_")) {
                assertThat(line).as("a ring metric names its ring").contains("ring=\"");
            }
        }
        admin().delete("/rings/metered");
        made.remove("metered");
        assertThat(api().get("/actuator/prometheus").asString()).doesNotContain("ring=\"metered\"");
    }
}
