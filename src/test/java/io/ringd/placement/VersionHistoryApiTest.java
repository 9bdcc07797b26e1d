package io.ringd.placement;

import io.ringd.RealServerTest;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.ringd.ring.HashRing;
import tools.jackson.databind.JsonNode;

/**
 * {@code ?version=V} on {@code /route} and {@code /preference}: answers as
 * version V while it is kept (the tests run with
 * {@code ringd.history.versions=101}), 410 once it is not, 404 for versions
 * never made.
 */
class VersionHistoryApiTest extends RealServerTest {

    private static final List<String> KEYS = List.of("user:42", "user/42", "a b", "ü", "🙂", "k-1", "k-2", "k-3",
            "k-4", "k-5", "k-6", "k-7", "k-8", "k-9", "k-10", "k-11");

    @BeforeEach
    void emptyRing() {
        reset();
    }

    @Test
    void versionV_answersAsThatVersion_matchingTheLibraryRebuiltAtItsMembership() {
        Map<Long, HashRing> rings = new LinkedHashMap<>();
        putAll("A:1:z1", "B:1:z2", "C:2:z1");
        record(rings);
        putNode("D", 1, "z3");
        record(rings);
        admin().delete("/nodes/A").then().statusCode(200);
        record(rings);
        adminJson("{\"hash\":\"murmur3\"}").put("/settings").then().statusCode(200);
        record(rings);
        putAll("E:3", "B:0.5:z2");
        record(rings);
        adminJson("{\"hash\":\"sha256\",\"vnodesPerWeight\":20}").put("/settings").then().statusCode(200);
        record(rings);
        long current = version();

        for (Map.Entry<Long, HashRing> e : rings.entrySet()) {
            long v = e.getKey();
            HashRing lib = e.getValue();
            for (String key : KEYS) {
                HttpResponse<String> route = httpGet("/route/" + enc(key) + "?version=" + v);
                assertThat(route.statusCode()).isEqualTo(200);
                assertThat(route.headers().firstValue("X-Ring-Version")).hasValue(Long.toString(current));
                JsonNode r = json(route.body());
                assertThat(r.get("version").asLong()).isEqualTo(v);
                assertThat(r.get("node").asString()).as("%s at %d", key, v).isEqualTo(lib.route(key));
                assertThat(r.get("hash").asLong()).as("%s at %d", key, v).isEqualTo(lib.hash(key));
                assertThat(fastGet("/route?key=" + form(key) + "&version=" + v)).isEqualTo(r);

                HttpResponse<String> pref = httpGet("/preference/" + enc(key) + "?n=3&distinctZones=true&version=" + v);
                assertThat(pref.headers().firstValue("X-Ring-Version")).hasValue(Long.toString(current));
                JsonNode p = json(pref.body());
                assertThat(p.get("version").asLong()).isEqualTo(v);
                assertThat(strings(p.get("nodes"))).isEqualTo(lib.preference(key, 3, true));
                JsonNode plain = fastGet("/preference?key=" + form(key) + "&n=2&version=" + v);
                assertThat(strings(plain.get("nodes"))).isEqualTo(lib.preference(key, 2, false));
            }
        }
    }

    @Test
    void anOldVersionWithoutNodes_is409_theCurrentEmptyRing503_unknownVersion_is404() {
        reset();
        long empty = version();
        assertProblem(api().get("/route/k?version=" + empty), 503, null); // the current ring: the service's state
        long v = putAll("A:1");
        for (String path : List.of("/route/k?version=", "/route?key=k&version=", "/preference/k?version=")) {
            JsonNode p = assertProblem(api().get(path + empty), 409, "version"); // a fact of the past: not a 5xx
            assertThat(p.get("type").asString()).isEqualTo("urn:ringd:problem:version-without-nodes");
            assertThat(p.get("detail").asString()).contains("version " + empty + " had no nodes");
        }
        assertThat(json(api().get("/route/k?version=" + v)).get("node").asString()).isEqualTo("A");
        assertProblem(api().get("/route/k?version=" + (v + 1)), 404, "version");
        assertProblem(api().get("/route?key=k&version=" + (v + 1)), 404, "version");
        assertProblem(api().get("/preference/k?version=" + Long.MAX_VALUE), 404, "version");
        assertProblem(api().get("/route/k?version=-1"), 400, "version");
    }

    @Test
    void versionsOlderThanTheKeptHistory_are410_theOldestKeptStillAnswers() {
        putAll("A:1", "B:1");
        long v0 = version();
        // a settings change right after v0: the oldest kept version must still know it
        adminJson("{\"hash\":\"murmur3\"}").put("/settings").then().statusCode(200);
        HashRing oldestKept = libraryRing();
        JsonNode oldestNodes = getJson("/nodes").get("nodes");
        for (int i = 1; i <= 100; i++) {
            putNode("B", 1 + i / 100.0, null);
        }
        long current = version();
        assertThat(current).isEqualTo(v0 + 101);

        // history keeps 101 versions, the current one included: v0 + 1 .. v0 + 101
        for (String path : List.of("/route/k?version=" + v0, "/route?key=k&version=" + v0,
                "/preference/k?version=" + v0, "/preference?key=k&version=" + v0, "/route/k?version=0")) {
            Response r = api().get(path);
            JsonNode p = assertProblem(r, 410, "version");
            assertThat(r.header("X-Ring-Version")).isEqualTo(Long.toString(current));
            assertThat(p.get("type").asString()).isNotBlank();
        }
        assertProblem(api().get("/diff?from=" + v0), 410, "from");
        assertProblem(api().get("/diff?from=" + (v0 + 1) + "&to=" + v0), 410, "to");

        JsonNode kept = json(api().get("/route/k?version=" + (v0 + 1)));
        assertThat(kept.get("version").asLong()).isEqualTo(v0 + 1);
        assertThat(kept.get("hash").asLong()).as("murmur3 at v0 + 1").isEqualTo(oldestKept.hash("k"));
        assertThat(kept.get("node").asString()).isEqualTo(oldestKept.route("k"));
        for (String key : KEYS) {
            assertThat(strings(json(raw().get("/preference/" + enc(key) + "?version=" + (v0 + 1))).get("nodes")))
                    .isEqualTo(oldestKept.preference(key, 3, false));
        }
        assertThat(oldestNodes.get(1).get("weight").asDouble()).isEqualTo(1.0);
        JsonNode diff = getJson("/diff?from=" + (v0 + 1));
        assertThat(diff.get("to").asLong()).isEqualTo(current);
        for (JsonNode f : diff.get("flows")) {
            assertThat(f.get("to").asString()).as("B only grew").isEqualTo("B");
        }
    }

    private void record(Map<Long, HashRing> rings) {
        HashRing lib = libraryRing();
        rings.put(lib.version(), lib);
    }
}
