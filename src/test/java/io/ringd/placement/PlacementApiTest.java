package io.ringd.placement;

import io.ringd.RealServerTest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.ringd.ring.HashRing;
import io.ringd.ring.Ownership;
import tools.jackson.databind.JsonNode;

/** {@code /ownership}, {@code GET /diff} and {@code POST /diff}. */
class PlacementApiTest extends RealServerTest {

    private static final String DIFF_FIELDS_JSON = "from,to,movedCount,movedShare,flowCount,flows,flowsTruncated,rangeCount,ranges,rangesTruncated";

    @BeforeEach
    void emptyRing() {
        reset();
    }

    // ------------------------------------------------------------ /ownership

    @Test
    void ownership_countsSumTo2pow32_idsAscend_sharesAreCountOver2pow32() {
        long v = putAll("m:1", "b:2:eu-1a", "Z:0.5", "a:3", "c:1");
        JsonNode body = getJson("/ownership");
        assertThat(body.propertyNames()).containsExactlyInAnyOrder("version", "nodes");
        assertThat(body.get("version").asLong()).isEqualTo(v);

        Ownership lib = libraryRing().ownership();
        JsonNode nodes = body.get("nodes");
        assertThat(nodes).hasSize(5);
        long sum = 0;
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            JsonNode n = nodes.get(i);
            assertThat(n.propertyNames()).containsExactlyInAnyOrder("id", "weight", "zone", "points", "count", "share");
            Ownership.Share expected = lib.shares().get(i);
            assertThat(n.get("id").asString()).isEqualTo(expected.node().id());
            assertThat(n.get("count").asLong()).isEqualTo(expected.count());
            assertThat(n.get("points").asInt()).isEqualTo(expected.points());
            assertThat(n.get("weight").asDouble()).isEqualTo(expected.node().weight());
            assertThat(n.get("share").asDouble()).isCloseTo(n.get("count").asLong() / (double) SPACE, within(1e-15));
            sum += n.get("count").asLong();
            ids.add(n.get("id").asString());
        }
        assertThat(sum).isEqualTo(SPACE);
        assertThat(ids).containsExactly("Z", "a", "b", "c", "m");
        assertThat(nodes.get(2).get("zone").asString()).isEqualTo("eu-1a");
        assertThat(nodes.get(0).get("zone").isNull()).isTrue();
    }

    @Test
    void ownership_ofTheEmptyRing_isAnEmptyList() {
        JsonNode body = getJson("/ownership");
        assertThat(body.get("nodes").isArray()).isTrue();
        assertThat(body.get("nodes")).isEmpty();
    }

    // ------------------------------------------------------------ GET /diff

    @Test
    void diff_toDefaultsToTheCurrentVersion_andIsExact() {
        long v1 = putAll("A:1", "B:1", "C:1");
        long v2 = putNode("X", 1, null);

        JsonNode d = getJson("/diff?from=" + v1);
        assertDiffShape(d);
        assertThat(d.get("from").asLong()).isEqualTo(v1);
        assertThat(d.get("to").asLong()).isEqualTo(v2);
        assertThat(getJson("/diff?from=" + v1 + "&to=" + v2)).isEqualTo(d);

        long moved = d.get("movedCount").asLong();
        assertThat(moved).isPositive().isLessThan(SPACE);
        assertThat(d.get("movedShare").asDouble()).isCloseTo(moved / (double) SPACE, within(1e-15));
        // adding X: everything that moves, moves to X (docs/ring.md section 12, guarantee 1), and as much as X owns now
        long flowSum = 0;
        for (JsonNode f : d.get("flows")) {
            assertThat(f.propertyNames()).containsExactlyInAnyOrder("from", "to", "count", "share");
            assertThat(f.get("to").asString()).isEqualTo("X");
            assertThat(f.get("share").asDouble()).isCloseTo(f.get("count").asLong() / (double) SPACE, within(1e-15));
            flowSum += f.get("count").asLong();
        }
        assertThat(flowSum).isEqualTo(moved);
        assertFlowsSorted(d.get("flows"));
        assertThat(moved).isEqualTo(ownedBy("X"));
        assertRangesExact(d, moved);
        assertThat(d.get("rangesTruncated").asBoolean()).isFalse();

        HashRing before = libraryRing(getJson("/settings").get("settings"), nodesAt("A:1", "B:1", "C:1"), v1);
        assertThat(moved).isEqualTo(HashRing.diff(before, libraryRing()).movedCount());
    }

    @Test
    void diff_removingANode_movesExactlyWhatItOwned() {
        long v1 = putAll("A:1", "B:2", "C:1");
        long ownedByB = ownedBy("B");
        admin().delete("/nodes/B").then().statusCode(200);
        JsonNode d = getJson("/diff?from=" + v1);
        assertThat(d.get("movedCount").asLong()).isEqualTo(ownedByB);
        for (JsonNode f : d.get("flows")) {
            assertThat(f.get("from").asString()).isEqualTo("B");
        }
        for (JsonNode r : d.get("ranges")) {
            assertThat(r.get("from").asString()).isEqualTo("B");
        }
        // and back: the reverse diff moves the same values the other way
        JsonNode back = getJson("/diff?from=" + (v1 + 1) + "&to=" + v1);
        assertThat(back.get("movedCount").asLong()).isEqualTo(ownedByB);
        assertThat(back.get("flows").get(0).get("to").asString()).isEqualTo("B");
    }

    @Test
    void diff_fromTheEmptyRing_movesTheWholeSpaceFromNull() {
        long v0 = version();
        long v1 = putAll("A:1");
        JsonNode d = getJson("/diff?from=" + v0 + "&to=" + v1);
        assertThat(d.get("movedCount").asLong()).isEqualTo(SPACE);
        assertThat(d.get("movedShare").asDouble()).isEqualTo(1.0);
        assertThat(d.get("flows")).hasSize(1);
        assertThat(d.get("flows").get(0).get("from").isNull()).isTrue();
        assertThat(d.get("flows").get(0).get("to").asString()).isEqualTo("A");
        assertThat(d.get("rangeCount").asInt()).isEqualTo(1);
        JsonNode range = d.get("ranges").get(0);
        assertThat(range.get("start").asLong()).isZero();
        assertThat(range.get("end").asLong()).isEqualTo(SPACE - 1);
        assertThat(range.get("from").isNull()).isTrue();

        JsonNode back = getJson("/diff?from=" + v1 + "&to=" + v0);
        assertThat(back.get("movedCount").asLong()).isEqualTo(SPACE);
        assertThat(back.get("flows").get(0).get("to").isNull()).isTrue();
    }

    @Test
    void diff_sameVersion_movesNothing() {
        long v = putAll("A:1", "B:1");
        JsonNode d = getJson("/diff?from=" + v + "&to=" + v);
        assertThat(d.get("movedCount").asLong()).isZero();
        assertThat(d.get("flows")).isEmpty();
        assertThat(d.get("rangeCount").asInt()).isZero();
        assertThat(d.get("ranges")).isEmpty();
        assertThat(d.get("rangesTruncated").asBoolean()).isFalse();
    }

    @Test
    void diff_maxRanges_limitsTheListedRangesOnly() {
        long v1 = putAll("A:1", "B:1", "C:1");
        putNode("D", 2, null);
        JsonNode all = getJson("/diff?from=" + v1 + "&maxRanges=100000");
        int count = all.get("rangeCount").asInt();
        assertThat(count).isGreaterThan(3);
        assertThat(all.get("ranges")).hasSize(count);
        assertThat(all.get("rangesTruncated").asBoolean()).isFalse();

        JsonNode none = getJson("/diff?from=" + v1 + "&maxRanges=0");
        assertThat(none.get("ranges")).isEmpty();
        assertThat(none.get("rangeCount").asInt()).isEqualTo(count);
        assertThat(none.get("rangesTruncated").asBoolean()).isTrue();
        assertThat(none.get("movedCount")).isEqualTo(all.get("movedCount"));
        assertThat(none.get("flows")).isEqualTo(all.get("flows"));

        JsonNode three = getJson("/diff?from=" + v1 + "&maxRanges=3");
        assertThat(three.get("ranges")).hasSize(3);
        assertThat(three.get("rangesTruncated").asBoolean()).isTrue();
        for (int i = 0; i < 3; i++) {
            assertThat(three.get("ranges").get(i)).isEqualTo(all.get("ranges").get(i));
        }
        JsonNode exact = getJson("/diff?from=" + v1 + "&maxRanges=" + count);
        assertThat(exact.get("rangesTruncated").asBoolean()).isFalse();

        assertProblem(api().get("/diff?from=" + v1 + "&maxRanges=100001"), 400, "maxRanges");
        assertProblem(api().get("/diff?from=" + v1 + "&maxRanges=-1"), 400, "maxRanges");
        assertProblem(api().get("/diff?from=" + v1 + "&maxRanges=lots"), 400, "maxRanges");
    }

    @Test
    void diff_listsAtMost1000RangesByDefault() {
        long v1 = putAll("A:20", "B:20");
        putNode("C", 20, null);
        JsonNode d = getJson("/diff?from=" + v1);
        int count = d.get("rangeCount").asInt();
        assertThat(count).as("enough ranges for the default to bite").isGreaterThan(1000);
        assertThat(d.get("ranges")).hasSize(1000);
        assertThat(d.get("rangesTruncated").asBoolean()).isTrue();
        assertThat(getJson("/diff?from=" + v1 + "&maxRanges=100000").get("ranges")).hasSize(count);
        JsonNode dry = json(api().contentType("application/json")
                .body("{\"changes\":[{\"op\":\"put\",\"id\":\"D\",\"weight\":20}]}").post("/diff"));
        assertThat(dry.get("ranges").size()).isEqualTo(Math.min(1000, dry.get("rangeCount").asInt()));
    }

    @Test
    void diff_badOrUnknownVersions() {
        long v = putAll("A:1");
        assertProblem(api().get("/diff"), 400, "from");
        assertProblem(api().get("/diff?from=abc"), 400, "from");
        assertProblem(api().get("/diff?from=-1"), 400, "from");
        assertProblem(api().get("/diff?from=" + v + "&to=x"), 400, "to");
        assertProblem(api().get("/diff?from=" + (v + 1)), 404, "from");
        assertProblem(api().get("/diff?from=" + v + "&to=" + (v + 1000)), 404, "to");
        assertProblem(api().get("/diff?from=99999999999999"), 404, "from");
    }

    // ------------------------------------------------------------ POST /diff

    @Test
    void postDiff_isADryRun_toIsNull_andTheRingStaysAsItWas() {
        putAll("A:1", "B:1", "C:1");
        Snap before = snap();
        String changes = "[{\"op\":\"put\",\"id\":\"D\",\"weight\":1},{\"op\":\"remove\",\"id\":\"A\"}]";

        Response r = adminJson("{\"changes\":" + changes + "}").post("/diff");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.header("X-Ring-Version")).isEqualTo(Long.toString(before.version()));
        JsonNode d = json(r);
        assertDiffShape(d);
        assertThat(d.get("from").asLong()).isEqualTo(before.version());
        assertThat(d.has("to")).as("'to' is present, as null").isTrue();
        assertThat(d.get("to").isNull()).isTrue();
        for (JsonNode f : d.get("flows")) {
            assertThat(f.get("from").asString().equals("A") || f.get("to").asString().equals("D")).isTrue();
        }
        assertRangesExact(d, d.get("movedCount").asLong());
        assertUnchanged(before);

        // and it is what applying the batch then moves
        assertThat(batch(changes).statusCode()).isEqualTo(200);
        JsonNode applied = getJson("/diff?from=" + before.version());
        assertThat(applied.get("to").asLong()).isEqualTo(before.version() + 1);
        for (String field : DIFF_FIELDS_JSON.split(",")) {
            if (!field.equals("to")) {
                assertThat(applied.get(field)).as(field).isEqualTo(d.get(field));
            }
        }
    }

    @Test
    void postDiff_needsNoAdminToken_andTakesMaxRanges() {
        putAll("A:1", "B:1");
        Snap before = snap();
        Response r = api().contentType("application/json")
                .body("{\"changes\":[{\"op\":\"put\",\"id\":\"C\",\"weight\":1}]}").post("/diff?maxRanges=0");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(r).get("ranges")).isEmpty();
        assertThat(json(r).get("rangesTruncated").asBoolean()).isTrue();
        assertProblem(api().contentType("application/json")
                .body("{\"changes\":[{\"op\":\"put\",\"id\":\"C\",\"weight\":1}]}").post("/diff?maxRanges=100001"),
                400, "maxRanges");
        assertUnchanged(before);
    }

    @Test
    void postDiff_refusesWhatMembershipRefuses() {
        putAll("A:1", "B:1");
        Snap before = snap();
        assertProblem(adminJson("{\"changes\":[{\"op\":\"remove\",\"id\":\"nope\"}]}").post("/diff"), 404, null);
        assertProblem(adminJson("{\"changes\":[{\"op\":\"remove\",\"id\":\"A\"},{\"op\":\"remove\",\"id\":\"A\"}]}")
                .post("/diff"), 400, "changes[1].id");
        assertProblem(adminJson("{\"changes\":[{\"op\":\"put\",\"id\":\"C\",\"weight\":-1}]}").post("/diff"), 400,
                "changes[0].weight");
        assertProblem(adminJson("{\"changes\":[]}").post("/diff"), 400, "changes");
        assertProblem(adminJson("{\"changes\":[{\"op\":\"put\",\"id\":\"C\",\"weight\":1}]").post("/diff"), 400,
                "body");
        assertUnchanged(before);
    }

    @Test
    void postDiff_onTheEmptyRing_movesEverythingToTheNewNodes() {
        long v = version();
        JsonNode d = json(adminJson("{\"changes\":[{\"op\":\"put\",\"id\":\"A\",\"weight\":1}]}").post("/diff"));
        assertThat(d.get("from").asLong()).isEqualTo(v);
        assertThat(d.get("movedCount").asLong()).isEqualTo(SPACE);
        assertThat(d.get("flows").get(0).get("from").isNull()).isTrue();
        assertThat(version()).isEqualTo(v);
    }

    // ------------------------------------------------------------ helpers

    private long ownedBy(String id) {
        for (JsonNode n : getJson("/ownership").get("nodes")) {
            if (n.get("id").asString().equals(id)) {
                return n.get("count").asLong();
            }
        }
        throw new AssertionError("no ownership for " + id);
    }

    private static JsonNode nodesAt(String... specs) {
        var a = JSON.createArrayNode();
        for (String s : specs) {
            String[] p = s.split(":");
            a.addObject().put("id", p[0]).put("weight", Double.parseDouble(p[1])).putNull("zone");
        }
        return a;
    }

    static void assertDiffShape(JsonNode d) {
        assertThat(d.propertyNames()).containsExactly(DIFF_FIELDS_JSON.split(","));
    }

    static void assertFlowsSorted(JsonNode flows) {
        for (int i = 1; i < flows.size(); i++) {
            assertThat(flows.get(i - 1).get("count").asLong()).isGreaterThanOrEqualTo(flows.get(i).get("count").asLong());
        }
    }

    /** Ranges inclusive, sorted, disjoint, never wrapping, merged, summing to the moved count. */
    static void assertRangesExact(JsonNode d, long moved) {
        JsonNode ranges = d.get("ranges");
        assertThat(ranges).hasSize(d.get("rangeCount").asInt());
        long sum = 0;
        long lastEnd = -1;
        JsonNode last = null;
        for (JsonNode r : ranges) {
            assertThat(r.propertyNames()).containsExactlyInAnyOrder("start", "end", "from", "to");
            long start = r.get("start").asLong();
            long end = r.get("end").asLong();
            assertThat(start).isGreaterThan(lastEnd).isLessThanOrEqualTo(end);
            assertThat(end).isLessThan(SPACE);
            if (last != null && start == lastEnd + 1) {
                assertThat(last.get("from").equals(r.get("from")) && last.get("to").equals(r.get("to")))
                        .as("adjacent ranges with the same owners are merged").isFalse();
            }
            sum += end - start + 1;
            lastEnd = end;
            last = r;
        }
        assertThat(sum).isEqualTo(moved);
    }
}
