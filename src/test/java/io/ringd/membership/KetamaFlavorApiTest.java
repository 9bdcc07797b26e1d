package io.ringd.membership;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.ringd.RealServerTest;
import io.ringd.client.RingClient;
import io.ringd.ring.HashRing;
import io.ringd.ring.RingDiff;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ketamaFlavor} and a node's {@code hashKey} over the wire (docs/ring.md sections 3, 14
 * and 17): settings, nodes, batches, dry runs, diffs, explain labels, the vectors through the API,
 * refusals that change nothing, and a following client that builds the same ring.
 */
class KetamaFlavorApiTest extends RealServerTest {

    @BeforeEach
    void emptyRing() {
        reset();
    }

    // ------------------------------------------------------------ the setting

    @Test
    void flavor_isShownWithHashKetama_andLeftOutOtherwise() {
        assertThat(getJson("/settings").get("settings").has("ketamaFlavor")).isFalse();
        Response r = adminJson("{\"hash\":\"ketama\"}").put("/settings");
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
        assertThat(json(r).get("settings").get("ketamaFlavor").asString()).as("libketama unless named")
                .isEqualTo("libketama");
        r = adminJson("{\"ketamaFlavor\":\"libmemcached\"}").put("/settings");
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
        assertThat(getJson("/settings").get("settings").toString()).isEqualTo(
                "{\"hash\":\"ketama\",\"vnodesPerWeight\":128,\"algorithm\":\"ring\",\"maglevTableSize\":65537,"
                        + "\"ketamaFlavor\":\"libmemcached\"}");
        assertThat(getJson("/ring").get("settings").get("ketamaFlavor").asString()).isEqualTo("libmemcached");
        // leaving ketama drops the flavor; coming back without naming one is libketama's count
        adminJson("{\"hash\":\"md5\"}").put("/settings").then().statusCode(200);
        assertThat(getJson("/settings").get("settings").has("ketamaFlavor")).isFalse();
        adminJson("{\"hash\":\"ketama\"}").put("/settings").then().statusCode(200);
        assertThat(getJson("/settings").get("settings").get("ketamaFlavor").asString()).isEqualTo("libketama");
    }

    @Test
    void flavorChange_isOneVersion_withTheLibrarysExactDiff() {
        adminJson("{\"hash\":\"ketama\",\"ketamaFlavor\":\"libketama\"}").put("/settings").then().statusCode(200);
        putServers("10.0.2.1:11211=1", "10.0.2.2:11211=1", "10.0.2.3:11211=1", "10.0.2.4:11211=1",
                "10.0.2.5:11211=27", "10.0.2.6:11211=29");
        HashRing before = libraryRing();
        Response r = adminJson("{\"ketamaFlavor\":\"libmemcached\"}").put("/settings");
        assertThat(json(r).get("version").asLong()).isEqualTo(before.version() + 1);
        HashRing after = libraryRing();
        assertThat(after.fingerprint()).isEqualTo(fingerprint()).isNotEqualTo(before.fingerprint());
        RingDiff expected = HashRing.diff(before, after);
        JsonNode diff = getJson("/diff?from=" + before.version() + "&maxRanges=0");
        assertThat(diff.get("movedCount").asLong()).isPositive().isEqualTo(expected.movedCount());
        assertThat(diff.get("flowCount").asInt()).isEqualTo(expected.flowCount());
        // the same flavor again changes nothing
        r = adminJson("{\"ketamaFlavor\":\"libmemcached\"}").put("/settings");
        assertThat(json(r).get("version").asLong()).isEqualTo(after.version());
    }

    @Test
    void badFlavors_are400NamingKetamaFlavor_andChangeNothing() {
        Snap before = snap();
        assertProblem(adminJson("{\"hash\":\"md5\",\"ketamaFlavor\":\"libmemcached\"}").put("/settings"), 400,
                "ketamaFlavor");
        assertProblem(adminJson("{\"ketamaFlavor\":\"hashring\"}").put("/settings"), 400, "ketamaFlavor");
        assertProblem(adminJson("{\"hash\":\"ketama\",\"ketamaFlavor\":\"spymemcached\"}").put("/settings"), 400,
                "ketamaFlavor");
        assertProblem(adminJson("{\"hash\":\"ketama\",\"ketamaFlavor\":7}").put("/settings"), 400, "ketamaFlavor");
        assertUnchanged(before);
    }

    // ------------------------------------------------------------ hashKey

    @Test
    void hashKey_isCarriedByNodesAndRing_andLeftOutWhereAbsent() {
        Response r = adminJson("{\"weight\":1,\"hashKey\":\"localhost/127.0.0.1:11211\"}").put("/nodes/cache-1");
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(201);
        assertThat(json(r).get("node").get("hashKey").asString()).isEqualTo("localhost/127.0.0.1:11211");
        putNode("cache-2", 1, null);
        assertThat(getJson("/nodes/cache-1").get("node").toString())
                .isEqualTo("{\"id\":\"cache-1\",\"weight\":1.0,\"zone\":null,\"hashKey\":\"localhost/127.0.0.1:11211\"}");
        assertThat(getJson("/nodes/cache-2").get("node").has("hashKey")).isFalse();
        assertThat(getJson("/ring").get("nodes").get(0).get("hashKey").asString())
                .isEqualTo("localhost/127.0.0.1:11211");
        assertThat(libraryRing().fingerprint()).isEqualTo(fingerprint());
        // a put without hashKey places the node by its id again: a change
        long v = version();
        assertThat(putNode("cache-1", 1, null)).isEqualTo(v + 1);
        assertThat(getJson("/nodes/cache-1").get("node").has("hashKey")).isFalse();
    }

    @Test
    void hashKeyVector_throughTheApi_matchesPointsFingerprintAndRoutes() {
        JsonNode vector = null;
        for (JsonNode c : io.ringd.ring.Vectors.load("ketama-flavors.json").get("cases")) {
            if (c.get("name").asString().equals("hashKey with libmemcached")) {
                vector = c;
            }
        }
        assertThat(vector).isNotNull();
        adminJson(vector.get("settings").toString()).put("/settings").then().statusCode(200);
        ArrayNode changes = JSON.createArrayNode();
        for (JsonNode n : vector.get("nodes")) {
            ((ObjectNode) changes.addObject().put("op", "put")).setAll((ObjectNode) n);
        }
        assertThat(batch(changes.toString()).statusCode()).isEqualTo(200);
        assertThat(fingerprint()).isEqualTo(vector.get("fingerprint").asString());
        ArrayNode keys = JSON.createArrayNode();
        vector.get("lookups").forEach(l -> keys.add(l.get("key").asString()));
        ObjectNode body = JSON.createObjectNode();
        body.set("keys", keys);
        JsonNode routes = json(api().contentType("application/json").body(body.toString()).post("/route"))
                .get("routes");
        for (int i = 0; i < keys.size(); i++) {
            assertThat(routes.get(i).get("node").asString()).as("route(%s)", keys.get(i))
                    .isEqualTo(vector.get("lookups").get(i).get("node").asString());
        }
        JsonNode points = getJson("/ownership").get("nodes");
        vector.get("points").properties().forEach(e -> {
            JsonNode share = null;
            for (JsonNode p : points) {
                if (p.get("id").asString().equals(e.getKey())) {
                    share = p;
                }
            }
            assertThat(share).as(e.getKey()).isNotNull();
            assertThat(share.get("points").asInt()).as(e.getKey()).isEqualTo(e.getValue().asInt());
        });
    }

    @Test
    void rename_keepingThePlacementString_movesOnlyTheName_inADryRunAndForReal() {
        adminJson("{\"hash\":\"ketama\",\"ketamaFlavor\":\"libmemcached\"}").put("/settings").then().statusCode(200);
        putServers("10.0.0.7:11211=1", "10.0.0.8:11211=2");
        long owned = 0;
        for (JsonNode n : getJson("/ownership").get("nodes")) {
            if (n.get("id").asString().equals("10.0.0.7:11211")) {
                owned = n.get("count").asLong();
            }
        }
        String rename = "{\"changes\":[{\"op\":\"remove\",\"id\":\"10.0.0.7:11211\"},"
                + "{\"op\":\"put\",\"id\":\"cache-7\",\"weight\":1,\"hashKey\":\"10.0.0.7:11211\"}]}";
        Snap before = snap();
        JsonNode dry = json(adminJson(rename).post("/diff"));
        assertThat(dry.get("movedCount").asLong()).isEqualTo(owned);
        assertThat(dry.get("flows").get(0).get("from").asString()).isEqualTo("10.0.0.7:11211");
        assertThat(dry.get("flows").get(0).get("to").asString()).isEqualTo("cache-7");
        assertThat(dry.get("flowCount").asInt()).isEqualTo(1);
        assertUnchanged(before);
        Response r = adminJson(rename).post("/membership");
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
        JsonNode diff = getJson("/diff?from=" + before.version() + "&node=10.0.0.8:11211");
        assertThat(diff.get("movedCount").asLong()).as("the other node keeps every value").isZero();
    }

    @Test
    void hashKeyChange_dryRunAndDiff_areTheLibrarysExactDiff() {
        putAll("a:1", "b:2", "c:1");
        HashRing before = libraryRing();
        String change = "{\"changes\":[{\"op\":\"put\",\"id\":\"b\",\"weight\":2,\"hashKey\":\"b-moved/ключ\"}]}";
        JsonNode dry = json(adminJson(change).post("/diff?maxRanges=100000"));
        assertThat(adminJson(change).post("/membership").statusCode()).isEqualTo(200);
        HashRing after = libraryRing();
        RingDiff expected = HashRing.diff(before, after);
        JsonNode diff = getJson("/diff?from=" + before.version() + "&maxRanges=100000");
        for (JsonNode d : List.of(dry, diff)) {
            assertThat(d.get("movedCount").asLong()).isPositive().isEqualTo(expected.movedCount());
            assertThat(d.get("rangeCount").asInt()).isEqualTo(expected.rangeCount());
            assertThat(d.get("flowCount").asInt()).isEqualTo(expected.flowCount());
        }
        JsonNode explain = getJson("/route?key=user:1&explain=true");
        String vnode = explain.get("explain").get("vnode").asString();
        assertThat(vnode).as("the label is the hashed string")
                .startsWith(explain.get("node").asString().equals("b") ? "b-moved/ключ#" : explain.get("node")
                        .asString() + "#");
    }

    @Test
    void hashKeyRefusals_are400NamingTheField_andChangeNothing() {
        putAll("x:1");
        adminJson("{\"weight\":1,\"hashKey\":\"shared\"}").put("/nodes/y").then().statusCode(201);
        Snap before = snap();
        assertProblem(adminJson("{\"weight\":1,\"hashKey\":\"shared\"}").put("/nodes/z"), 400, "hashKey");
        assertProblem(adminJson("{\"weight\":1,\"hashKey\":\"x\"}").put("/nodes/w"), 400, "hashKey");
        assertProblem(adminJson("{\"weight\":1,\"hashKey\":\"\"}").put("/nodes/z"), 400, "hashKey");
        assertProblem(adminJson("{\"weight\":1,\"hashKey\":\"" + "k".repeat(4097) + "\"}").put("/nodes/z"), 400,
                "hashKey");
        assertProblem(adminJson("{\"weight\":1,\"hashKey\":42}").put("/nodes/z"), 400, "hashKey");
        assertProblem(batch("[{\"op\":\"put\",\"id\":\"z\",\"weight\":1,\"hashKey\":\"\"}]"), 400,
                "changes[0].hashKey");
        assertProblem(batch("[{\"op\":\"remove\",\"id\":\"x\",\"hashKey\":\"x\"}]"), 400, "changes[0].hashKey");
        assertProblem(batch("[{\"op\":\"put\",\"id\":\"p\",\"weight\":1,\"hashKey\":\"same\"},"
                + "{\"op\":\"put\",\"id\":\"q\",\"weight\":1,\"hashKey\":\"same\"}]"), 400, "hashKey");
        assertProblem(adminJson("{\"changes\":[{\"op\":\"put\",\"id\":\"z\",\"weight\":1,\"hashKey\":\"shared\"}]}")
                .post("/diff"), 400, "hashKey");
        assertUnchanged(before);
        // the longest accepted: 4096 bytes, here 1,024 four-byte characters
        Response r = adminJson("{\"weight\":1,\"hashKey\":\"" + "\uD83D\uDE00".repeat(1024) + "\"}").put("/nodes/z");
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(201);
    }

    // ------------------------------------------------------------ the stream and the client

    @Test
    void client_followsFlavorAndHashKeyChanges_toTheServersFingerprint() throws Exception {
        try (RingClient client = RingClient.builder("http://127.0.0.1:" + port).metrics(false).build()) {
            assertThat(client.awaitVersion(version(), Duration.ofSeconds(20))).isTrue();
            adminJson("{\"hash\":\"ketama\",\"ketamaFlavor\":\"hashring\"}").put("/settings").then().statusCode(200);
            putServers("10.0.2.1:11211=1", "10.0.2.5:11211=19", "10.0.2.6:11211=25");
            adminJson("{\"weight\":1,\"hashKey\":\"localhost/10.0.2.7:11211\"}").put("/nodes/cache-7")
                    .then().statusCode(201);
            adminJson("{\"ketamaFlavor\":\"libmemcached\"}").put("/settings").then().statusCode(200);
            adminJson("{\"weight\":2,\"hashKey\":\"/10.0.2.7:11211\"}").put("/nodes/cache-7").then().statusCode(200);
            long last = version();
            assertThat(client.awaitVersion(last, Duration.ofSeconds(20))).isTrue();
            assertThat(client.ring().fingerprint()).isEqualTo(fingerprint());
            assertThat(client.ring().config().ketamaFlavorName()).isEqualTo("libmemcached");
            assertThat(client.ring().node("cache-7").orElseThrow().hashKey()).isEqualTo("/10.0.2.7:11211");
            assertThat(client.reloads()).as("followed every change").isZero();
            for (int i = 0; i < 200; i++) {
                assertThat(client.route("user:" + i)).isEqualTo(getJson("/route?key=user:" + i).get("node").asString());
            }
        }
    }

    /** Puts every node as one batch: {@code "10.0.2.1:11211=1"} (id=weight), ids with colons. */
    private void putServers(String... specs) {
        ArrayNode changes = JSON.createArrayNode();
        for (String spec : specs) {
            int eq = spec.lastIndexOf('=');
            changes.addObject().put("op", "put").put("id", spec.substring(0, eq))
                    .put("weight", Double.parseDouble(spec.substring(eq + 1)));
        }
        Response r = batch(changes.toString());
        assertThat(r.statusCode()).as("batch: %s", r.asString()).isEqualTo(200);
    }
}
