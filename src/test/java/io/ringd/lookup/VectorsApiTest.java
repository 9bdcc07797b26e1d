package io.ringd.lookup;

import io.ringd.RealServerTest;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.restassured.response.Response;
import io.ringd.ring.Vectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The ring vectors ({@code src/test/resources/vectors/ring-*.json})
 * checked through the API: settings and nodes loaded over HTTP, then every
 * lookup, the ownership, the fingerprint and every diff answered by the server.
 */
class VectorsApiTest extends RealServerTest {

    static Stream<String> ringFiles() {
        return Vectors.RING_FILES.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ringFiles")
    void vector_throughTheApi(String file) {
        JsonNode vector = Vectors.load(file);
        long base = load(vector);

        // fingerprint, ownership and points
        assertThat(getJson("/ring").get("fingerprint").asString()).as("fingerprint").isEqualTo(
                vector.get("fingerprint").asString());
        assertOwnership(vector.get("ownership"), vector.get("pointCount").asLong());

        // every lookup, path form
        for (JsonNode l : vector.get("lookups")) {
            String key = l.get("key").asString();
            String path = enc(key);
            JsonNode route = fastGet("/route/" + path);
            assertThat(route.get("key").asString()).isEqualTo(key);
            assertThat(route.get("node").asString()).as("node of %s", key).isEqualTo(l.get("node").asString());
            assertThat(route.get("hash").asLong()).as("hash of %s", key).isEqualTo(l.get("hash").asLong());
            assertThat(route.get("version").asLong()).isEqualTo(base);
            assertThat(strings(fastGet("/preference/" + path).get("nodes"))).as("preference of %s", key)
                    .isEqualTo(strings(l.get("preference")));
            assertThat(strings(fastGet("/preference/" + path + "?n=3&distinctZones=true").get("nodes")))
                    .as("zone-aware preference of %s", key).isEqualTo(strings(l.get("preferenceDistinctZones")));
        }

        // the same lookups in one POST /route, in order
        ArrayNode keys = JSON.createArrayNode();
        vector.get("lookups").forEach(l -> keys.add(l.get("key").asString()));
        ObjectNode batchBody = JSON.createObjectNode();
        batchBody.set("keys", keys);
        JsonNode routes = json(api().contentType("application/json").body(batchBody.toString()).post("/route"))
                .get("routes");
        for (int i = 0; i < keys.size(); i++) {
            assertThat(routes.get(i).get("node").asString()).isEqualTo(vector.get("lookups").get(i).get("node").asString());
        }

        // every diff: dry run, then applied, then undone
        for (JsonNode d : vector.get("diffs")) {
            String what = file + ": " + d.get("change").asString();
            ObjectNode changes = JSON.createObjectNode();
            changes.set("changes", d.get("changes"));
            int listed = d.get("firstRanges").size();

            Response dry = api().contentType("application/json").body(changes.toString()).post("/diff?maxRanges=" + listed);
            assertThat(dry.statusCode()).as("%s: %s", what, dry.asString()).isEqualTo(200);
            assertDiff(what, json(dry), d, listed);
            assertThat(version()).isEqualTo(base);

            Response applied = adminJson(changes.toString()).post("/membership");
            assertThat(applied.statusCode()).as(what).isEqualTo(200);
            long after = json(applied).get("version").asLong();
            assertThat(after).isEqualTo(base + 1);
            assertThat(getJson("/ring").get("fingerprint").asString()).as(what)
                    .isEqualTo(d.get("after").get("fingerprint").asString());
            assertOwnership(d.get("after").get("ownership"), d.get("after").get("pointCount").asLong());
            assertDiff(what, getJson("/diff?from=" + base + "&maxRanges=" + listed), d, listed);

            Response undone = batch(inverse(vector.get("nodes"), d.get("changes")).toString());
            assertThat(undone.statusCode()).as(what).isEqualTo(200);
            base = json(undone).get("version").asLong();
            assertThat(getJson("/ring").get("fingerprint").asString()).as("undone " + what)
                    .isEqualTo(vector.get("fingerprint").asString());
        }
    }

    /** Settings and nodes of {@code vector}, on an empty ring: one PUT /settings, one POST /membership. */
    private long load(JsonNode vector) {
        reset();
        JsonNode s = vector.get("settings");
        Response settings = adminJson("{\"hash\":\"" + s.get("hash").asString() + "\",\"vnodesPerWeight\":"
                + s.get("vnodesPerWeight").asInt() + "}").put("/settings");
        assertThat(settings.statusCode()).as(settings.asString()).isEqualTo(200);
        ArrayNode changes = JSON.createArrayNode();
        for (JsonNode n : vector.get("nodes")) {
            ObjectNode c = changes.addObject().put("op", "put");
            n.properties().forEach(e -> c.set(e.getKey(), e.getValue()));
        }
        Response r = batch(changes.toString());
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
        return json(r).get("version").asLong();
    }

    private void assertOwnership(JsonNode expected, long pointCount) {
        Map<String, Long> want = new HashMap<>();
        expected.properties().forEach(e -> want.put(e.getKey(), e.getValue().asLong()));
        Map<String, Long> got = new LinkedHashMap<>();
        long points = 0;
        for (JsonNode n : getJson("/ownership").get("nodes")) {
            long count = n.get("count").asLong();
            if (count > 0 || want.containsKey(n.get("id").asString())) {
                got.put(n.get("id").asString(), count);
            }
            points += n.get("points").asLong();
        }
        assertThat(got).as("ownership").isEqualTo(want);
        assertThat(points).as("points after collisions").isEqualTo(pointCount);
    }

    private static void assertDiff(String what, JsonNode got, JsonNode want, int listed) {
        assertThat(got.get("movedCount").asLong()).as(what).isEqualTo(want.get("movedCount").asLong());
        assertThat(got.get("rangeCount").asInt()).as(what).isEqualTo(want.get("rangeCount").asInt());
        assertThat(got.get("flows")).as(what).hasSize(want.get("flows").size());
        for (int i = 0; i < want.get("flows").size(); i++) {
            JsonNode g = got.get("flows").get(i);
            JsonNode w = want.get("flows").get(i);
            for (String f : List.of("from", "to", "count")) {
                assertThat(g.get(f)).as("%s flow %d %s", what, i, f).isEqualTo(w.get(f));
            }
        }
        assertThat(got.get("ranges")).as(what).hasSize(listed);
        for (int i = 0; i < listed; i++) {
            assertThat(got.get("ranges").get(i)).as("%s range %d", what, i).isEqualTo(want.get("firstRanges").get(i));
        }
        assertThat(got.get("rangesTruncated").asBoolean()).isEqualTo(want.get("rangeCount").asInt() > listed);
    }

    /** The batch that undoes {@code changes} applied to {@code baseNodes}. */
    private static ArrayNode inverse(JsonNode baseNodes, JsonNode changes) {
        Map<String, JsonNode> byId = new HashMap<>();
        baseNodes.forEach(n -> byId.put(n.get("id").asString(), n));
        ArrayNode out = JSON.createArrayNode();
        for (JsonNode c : changes) {
            String id = c.get("id").asString();
            JsonNode old = byId.get(id);
            if (old == null) {
                out.addObject().put("op", "remove").put("id", id);
            } else {
                ObjectNode put = out.addObject().put("op", "put");
                old.properties().forEach(e -> put.set(e.getKey(), e.getValue()));
            }
        }
        return out;
    }
}
