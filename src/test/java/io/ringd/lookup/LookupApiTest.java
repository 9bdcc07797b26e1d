package io.ringd.lookup;

import io.ringd.RealServerTest;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.ringd.ring.HashRing;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code /route} and {@code /preference}: the rows of docs/ring.md section 17 that answer where keys live. */
class LookupApiTest extends RealServerTest {

    @BeforeEach
    void emptyRing() {
        reset();
    }

    @Test
    void route_answersKeyNodeHashAndVersion() {
        long v = putAll("A:1", "B:1", "C:2");
        HashRing lib = libraryRing();

        Response r = raw().get("/route/user%3A42");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.contentType()).startsWith("application/json");
        assertThat(r.header("X-Ring-Version")).isEqualTo(Long.toString(v));
        JsonNode body = json(r);
        assertThat(body.propertyNames()).containsExactlyInAnyOrder("key", "node", "hash", "version");
        assertThat(body.get("key").asString()).isEqualTo("user:42");
        assertThat(body.get("hash").asLong()).isEqualTo(1457184536L); // docs/ring.md section 2: md5("user:42")
        assertThat(body.get("node").asString()).isEqualTo(lib.route("user:42"));
        assertThat(body.get("version").asLong()).isEqualTo(v);
    }

    @Test
    void routeQuery_givesTheSameAnswerAsThePath() {
        putAll("A:1", "B:1", "C:2");
        for (String key : List.of("user:42", "user/42", "a b", "ü", "x")) {
            JsonNode path = json(httpGet("/route/" + enc(key)).body());
            JsonNode query = json(httpGet("/route?key=" + form(key)).body());
            assertThat(query).as(key).isEqualTo(path);
            assertThat(path.get("key").asString()).isEqualTo(key);
        }
    }

    @Test
    void route_agreesWithTheLibraryForManyKeys() {
        putAll("A:1", "B:2", "C:0.5", "D:3");
        HashRing lib = libraryRing();
        for (int i = 0; i < 50; i++) {
            String key = "k-" + i;
            JsonNode body = fastGet("/route/" + enc(key));
            assertThat(body.get("node").asString()).as(key).isEqualTo(lib.route(key));
            assertThat(body.get("hash").asLong()).as(key).isEqualTo(lib.hash(key));
        }
    }

    @Test
    void preference_defaultsToThreeDistinctNodesStartingWithTheRoute() {
        long v = putAll("A:1", "B:1", "C:1", "D:1", "E:1");
        HashRing lib = libraryRing();
        for (String key : List.of("user:42", "k1", "k2", "k3")) {
            Response r = raw().get("/preference/" + enc(key));
            assertThat(r.statusCode()).isEqualTo(200);
            JsonNode body = json(r);
            assertThat(body.propertyNames()).containsExactlyInAnyOrder("key", "nodes", "version");
            List<String> nodes = strings(body.get("nodes"));
            assertThat(nodes).hasSize(3).doesNotHaveDuplicates();
            assertThat(nodes.get(0)).isEqualTo(json(raw().get("/route/" + enc(key))).get("node").asString());
            assertThat(nodes).isEqualTo(lib.preference(key, 3, false));
            assertThat(body.get("key").asString()).isEqualTo(key);
            assertThat(body.get("version").asLong()).isEqualTo(v);
        }
    }

    @Test
    void preference_nFrom1To10000_capsAtTheNodesThatOwnPoints() {
        putAll("A:1", "B:1", "C:1", "D:1", "E:1");
        assertThat(strings(json(raw().get("/preference/k?n=1")).get("nodes"))).hasSize(1);
        assertThat(strings(json(raw().get("/preference/k?n=5")).get("nodes"))).hasSize(5);
        assertThat(strings(json(raw().get("/preference/k?n=10000")).get("nodes")))
                .containsExactlyInAnyOrder("A", "B", "C", "D", "E");
        assertProblem(raw().get("/preference/k?n=0"), 400, "n");
        assertProblem(raw().get("/preference/k?n=10001"), 400, "n");
        assertProblem(raw().get("/preference/k?n=-1"), 400, "n");
        assertProblem(raw().get("/preference/k?n=three"), 400, "n");
        assertProblem(raw().get("/preference?key=k&n=0"), 400, "n");
    }

    @Test
    void preference_distinctZones_takesEachZoneOnceBeforeRepeatingOne() {
        putAll("a1:1:z1", "a2:1:z1", "a3:1:z1", "b1:1:z2", "b2:1:z2", "c1:1:z3", "solo:1");
        HashRing lib = libraryRing();
        Map<String, String> zoneOf = Map.of("a1", "z1", "a2", "z1", "a3", "z1", "b1", "z2", "b2", "z2", "c1", "z3",
                "solo", "solo");
        int differs = 0;
        for (int i = 0; i < 40; i++) {
            String key = "key-" + i;
            List<String> zoned = strings(fastGet("/preference/" + key + "?n=4&distinctZones=true").get("nodes"));
            List<String> plain = strings(fastGet("/preference/" + key + "?n=4&distinctZones=false").get("nodes"));
            assertThat(zoned).as(key).isEqualTo(lib.preference(key, 4, true));
            assertThat(plain).as(key).isEqualTo(lib.preference(key, 4, false));
            assertThat(zoned.get(0)).isEqualTo(plain.get(0));
            // four zones (z1, z2, z3 and the zoneless node's own): four nodes of four zones
            assertThat(zoned.stream().map(zoneOf::get).collect(Collectors.toSet())).as(key).hasSize(4);
            if (!zoned.equals(plain)) {
                differs++;
            }
            List<String> query = strings(fastGet("/preference?key=" + key + "&n=4&distinctZones=true").get("nodes"));
            assertThat(query).isEqualTo(zoned);
        }
        assertThat(differs).as("zone awareness changes some lists").isPositive();
        assertProblem(raw().get("/preference/k?distinctZones=maybe"), 400, "distinctZones");
    }

    @Test
    void routeBatch_answersInRequestOrderAtOneVersion() {
        long v = putAll("A:1", "B:1", "C:2");
        HashRing lib = libraryRing();
        List<String> keys = new ArrayList<>(List.of("z", "a", "user/42", "ü", "🙂 smile", "a;b", "..", "z"));
        for (int i = 0; i < 100; i++) {
            keys.add("batch-" + (100 - i));
        }
        ArrayNode array = JSON.createArrayNode();
        keys.forEach(array::add);
        ObjectNode body = JSON.createObjectNode();
        body.set("keys", array);

        Response r = api().contentType("application/json").body(body.toString()).post("/route");

        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode answer = json(r);
        assertThat(answer.propertyNames()).containsExactlyInAnyOrder("version", "routes");
        assertThat(answer.get("version").asLong()).isEqualTo(v);
        JsonNode routes = answer.get("routes");
        assertThat(routes).hasSize(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            assertThat(routes.get(i).get("key").asString()).isEqualTo(keys.get(i));
            assertThat(routes.get(i).get("node").asString()).isEqualTo(lib.route(keys.get(i)));
        }
    }

    @Test
    void routeBatch_takes1To10000Keys() {
        putAll("A:1", "B:1");
        assertThat(api().contentType("application/json").body(keysBody(10_000)).post("/route").statusCode())
                .isEqualTo(200);
        assertThat(json(api().contentType("application/json").body(keysBody(1)).post("/route")).get("routes"))
                .hasSize(1);
        assertProblem(api().contentType("application/json").body(keysBody(10_001)).post("/route"), 400, "keys");
        assertProblem(api().contentType("application/json").body("{\"keys\":[]}").post("/route"), 400, "keys");
        assertProblem(api().contentType("application/json").body("{}").post("/route"), 400, "keys");
        assertProblem(api().contentType("application/json").body("{\"keys\":\"a\"}").post("/route"), 400, "keys");
        assertProblem(api().contentType("application/json").body("{\"keys\":[\"a\",1]}").post("/route"), 400,
                "keys[1]");
        assertProblem(api().contentType("application/json").body("{\"keys\":[\"a\",\"\"]}").post("/route"), 400,
                "keys[1]");
        assertProblem(api().contentType("application/json").body("{\"keys\":[\"" + "x".repeat(4097) + "\"]}")
                .post("/route"), 400, "keys[0]");
        assertProblem(api().contentType("application/json").body("{\"keys\":[\"\\ud800\"]}").post("/route"), 400,
                "keys[0]");
        assertProblem(api().contentType("application/json").body("{\"keys\":[\"a\"],\"n\":1}").post("/route"), 400,
                "n");
    }

    @Test
    void emptyRing_answers503ForEveryLookup() {
        for (Response r : List.of(raw().get("/route/k"), raw().get("/route?key=k"), raw().get("/preference/k"),
                raw().get("/preference?key=k&n=2"),
                api().contentType("application/json").body("{\"keys\":[\"k\"]}").post("/route"))) {
            JsonNode p = assertProblem(r, 503, null);
            assertThat(p.get("type").asString()).contains("no-nodes");
            assertThat(r.header("X-Ring-Version")).isNotNull();
        }
    }

    private static String keysBody(int n) {
        StringBuilder sb = new StringBuilder("{\"keys\":[");
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ",").append("\"key-").append(i).append('"');
        }
        return sb.append("]}").toString();
    }
}
