package io.ringd.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.ringd.RealServerTest;
import io.ringd.ring.HashRing;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /route/{key}?bound=c} and {@code GET /route?key=&bound=c} (docs/ring.md
 * section 19): the first node of the key's preference order whose load is at
 * most c times the mean, the primary if none is, and how many were skipped.
 * Loads are set exactly with {@code PUT /nodes/{id}/load}, so every answer is
 * computed here from the library's preference list.
 */
class BoundedRouteApiTest extends RealServerTest {

    static final List<String> IDS = List.of("bl-a", "bl-b", "bl-c", "bl-d", "bl-e");

    /** A fresh ring of five new members (so their decayed counts start at 0) of unequal weights. */
    @BeforeEach
    void fiveNodes() {
        reset();
        putAll("bl-a:1", "bl-b:1", "bl-c:2", "bl-d:1", "bl-e:0.5");
    }

    void report(String id, double load) {
        Response r = adminJson("{\"load\":" + load + "}").put("/nodes/" + id + "/load");
        assertThat(r.statusCode()).as("PUT /nodes/%s/load: %s", id, r.asString()).isEqualTo(200);
    }

    /** The mean as the server sums it: over every member, in ascending id order. */
    static double mean(Map<String, Double> loads) {
        double sum = 0;
        for (double l : new TreeMap<>(loads).values()) {
            sum += l;
        }
        return sum / loads.size();
    }

    /** What /route?bound=c must answer: node and skipped, from the whole preference list. */
    record Expected(String node, int skipped) {
    }

    static Expected expected(HashRing lib, String key, double c, Map<String, Double> loads) {
        List<String> walk = lib.preference(key, lib.nodeCount());
        double limit = c * mean(loads);
        for (int i = 0; i < walk.size(); i++) {
            if (loads.get(walk.get(i)) <= limit) {
                return new Expected(walk.get(i), i);
            }
        }
        return new Expected(walk.get(0), walk.size());
    }

    // ------------------------------------------------------------ answers

    @Test
    void boundedRoute_skipsExactlyTheNodesOverTheirBound_reportedLoads() {
        HashRing lib = libraryRing();
        long v = lib.version();
        int skippedSomewhere = 0;
        for (long seed = 1; seed <= 3; seed++) {
            Random rnd = new Random(seed);
            Map<String, Double> loads = new TreeMap<>();
            for (String id : IDS) {
                double l = seed == 3 ? rnd.nextDouble() * 100 : rnd.nextInt(8); // ties and zeros, then fractions
                loads.put(id, l);
                report(id, l);
            }
            double mean = mean(loads);
            assertThat(getJson("/loads").get("mean").asDouble()).as("seed %d", seed).isEqualTo(mean);
            for (int k = 0; k < 40; k++) {
                String key = "bounded/" + seed + "/" + k;
                for (String c : List.of("1.1", "1.25", "1.5", "2", "3")) {
                    double bound = Double.parseDouble(c);
                    JsonNode body = k % 2 == 0 ? fastGet("/route/" + enc(key) + "?bound=" + c)
                            : fastGet("/route?key=" + form(key) + "&bound=" + c);
                    Expected e = expected(lib, key, bound, loads);
                    String what = "seed " + seed + ", " + key + ", bound " + c + ", loads " + loads;
                    assertThat(body.propertyNames()).as(what)
                            .containsExactlyInAnyOrder("key", "node", "hash", "version", "skipped");
                    assertThat(body.get("key").asString()).isEqualTo(key);
                    assertThat(body.get("hash").asLong()).isEqualTo(lib.hash(key));
                    assertThat(body.get("version").asLong()).isEqualTo(v);
                    assertThat(body.get("node").asString()).as(what).isEqualTo(e.node());
                    assertThat(body.get("skipped").asInt()).as(what).isEqualTo(e.skipped());
                    // the property itself: the answer is within its bound, or it is the primary and none is
                    String node = body.get("node").asString();
                    List<String> walk = lib.preference(key, lib.nodeCount());
                    if (loads.get(node) > bound * mean) {
                        assertThat(node).as(what).isEqualTo(walk.get(0));
                        assertThat(walk).as(what).allMatch(n -> loads.get(n) > bound * mean);
                    }
                    assertThat(walk.subList(0, body.get("skipped").asInt())).as(what)
                            .allMatch(n -> loads.get(n) > bound * mean);
                    skippedSomewhere += body.get("skipped").asInt();
                }
            }
        }
        assertThat(skippedSomewhere).as("some answers skipped nodes").isPositive();
    }

    @Test
    void everyLoadZero_thePrimaryAnswers_withNothingSkipped() {
        IDS.forEach(id -> report(id, 0));
        HashRing lib = libraryRing();
        for (int k = 0; k < 30; k++) {
            String key = "zero-" + k;
            JsonNode body = fastGet("/route/" + enc(key) + "?bound=1.01");
            assertThat(body.get("node").asString()).isEqualTo(lib.route(key));
            assertThat(body.get("skipped").asInt()).isZero();
        }
    }

    @Test
    void byDefault_theLoadIsTheDecayedCountOfRoutedKeys() {
        // New members, no reports: every load starts at 0. With five nodes and bound 1.1, one key
        // asked again and again walks its preference order: each answer adds one to the node that
        // answered, which is then over 1.1 * mean (j/5 after j answers) until every node has had
        // one; then the primary (1 <= 1.1 * 1), then the second (2 > 1.1 * 1.2 >= 1). The margins
        // are far wider than what the half-life of 10 s takes off in a few milliseconds.
        HashRing lib = libraryRing();
        String key = "decayed-key";
        List<String> walk = lib.preference(key, 5);
        long start = System.nanoTime(); // the server's clock too: it runs in this JVM
        int[] positions = {0, 1, 2, 3, 4, 0, 1};
        for (int i = 0; i < positions.length; i++) {
            JsonNode body = fastGet("/route/" + enc(key) + "?bound=1.1");
            assertThat(body.get("node").asString()).as("answer %d", i).isEqualTo(walk.get(positions[i]));
            assertThat(body.get("skipped").asInt()).as("answer %d", i).isEqualTo(positions[i]);
        }
        // plain lookups count too: two more for the primary
        fastGet("/route/" + enc(key));
        fastGet("/route?key=" + form(key));
        JsonNode loads = getJson("/loads");
        // every key counted 1 when routed and has decayed for at most the time since start
        double least = Math.pow(2, -(System.nanoTime() - start) / 10e9);
        assertThat(loads.get("nodes")).hasSize(5);
        double sum = 0;
        for (JsonNode n : loads.get("nodes")) {
            String id = n.get("id").asString();
            double want = id.equals(walk.get(0)) ? 4 : id.equals(walk.get(1)) ? 2 : 1;
            assertThat(n.get("source").asString()).isEqualTo("decayed");
            assertThat(n.get("load").asDouble()).as(id).isBetween(want * least, want * (1 + 1e-12));
            assertThat(n.get("decayed").asDouble()).isEqualTo(n.get("load").asDouble());
            sum += n.get("load").asDouble();
        }
        assertThat(loads.get("mean").asDouble()).isCloseTo(sum / 5, within(1e-9));
    }

    @Test
    void plainRoute_isUnaffected_noSkippedField() {
        HashRing lib = libraryRing();
        IDS.forEach(id -> report(id, 0));
        for (int k = 0; k < 20; k++) { // every primary heavily over its bound
            report(lib.route("plain-" + k), 1e6);
        }
        for (int k = 0; k < 20; k++) {
            String key = "plain-" + k;
            for (JsonNode body : List.of(fastGet("/route/" + enc(key)), fastGet("/route?key=" + form(key)))) {
                assertThat(body.propertyNames()).containsExactlyInAnyOrder("key", "node", "hash", "version");
                assertThat(body.get("node").asString()).isEqualTo(lib.route(key));
            }
        }
        Response batch = api().contentType("application/json").body("{\"keys\":[\"plain-1\",\"plain-2\"]}")
                .post("/route");
        assertThat(batch.statusCode()).isEqualTo(200);
        assertThat(json(batch).get("routes").get(0).propertyNames()).containsExactlyInAnyOrder("key", "node");
        assertThat(json(batch).get("routes").get(1).get("node").asString()).isEqualTo(lib.route("plain-2"));
    }

    // ------------------------------------------------------------ refusals

    @Test
    void boundOutOfRangeOrMalformed_is400NamingBound() {
        for (String bound : List.of("1", "1.0", "0", "0.5", "-1.5", "10.5", "11", "1e400", "abc", "", "NaN",
                "Infinity", "1.5d", "0x1p1", "%201.5", "1%2C5")) {
            assertProblem(httpGet("/route/k?bound=" + bound), 400, "bound");
            assertProblem(httpGet("/route?key=k&bound=" + bound), 400, "bound");
        }
        assertProblem(httpGet("/route/k?bound=1.5&bound=2"), 400, "bound"); // given twice
        // the edges that are in range
        assertThat(fastGet("/route/k?bound=10").has("skipped")).isTrue();
        assertThat(fastGet("/route/k?bound=1.000001").has("skipped")).isTrue();
    }

    @Test
    void boundWithAVersionOtherThanTheCurrent_is400NamingBound() {
        putNode("bl-f", 1, null); // so that the version before has nodes
        long v = version();
        long old = v - 1;
        JsonNode p = assertProblem(httpGet("/route/k?bound=1.5&version=" + old), 400, "bound");
        assertThat(p.get("detail").asString()).contains("current version");
        assertProblem(httpGet("/route?key=k&bound=1.5&version=" + old), 400, "bound");
        assertProblem(httpGet("/route/k?bound=1.5&version=" + (v + 5)), 400, "bound");
        assertProblem(httpGet("/route/k?bound=1.5&version=abc"), 400, "version");
        // the current version, asked for by number, is the current ring
        JsonNode body = fastGet("/route/k?bound=1.5&version=" + v);
        assertThat(body.get("version").asLong()).isEqualTo(v);
        assertThat(body.has("skipped")).isTrue();
        // without bound, the old version answers as before
        assertThat(fastGet("/route/k?version=" + old).get("version").asLong()).isEqualTo(old);
    }

    @Test
    void badKey_isStill400NamingKey_andAnEmptyRing503() {
        assertProblem(httpGet("/route?key=&bound=1.5"), 400, "key");
        reset();
        assertProblem(httpGet("/route/k?bound=1.5"), 503, null);
        assertProblem(httpGet("/route?key=k&bound=1.5"), 503, null);
    }
}
