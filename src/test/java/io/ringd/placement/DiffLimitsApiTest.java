package io.ringd.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.restassured.response.Response;
import io.ringd.RealServerTest;
import io.ringd.ring.HashRing;
import io.ringd.ring.RingConfig;
import io.ringd.ring.RingDiff;
import io.ringd.state.ExpensiveReads;
import tools.jackson.databind.JsonNode;

/**
 * {@code /diff} answers are bounded: {@code maxFlows} (default 1000) of
 * {@code flowCount} flows in the flow order, {@code ?node=} only the flows
 * and ranges from or to a node, and an expensive read past the gate's
 * permits is 503 {@code busy} with {@code Retry-After}.
 */
class DiffLimitsApiTest extends RealServerTest {

    @Autowired
    ExpensiveReads reads;

    @BeforeEach
    void emptyRing() {
        reset();
    }

    /** 60 nodes of 128 points, then a hash change: flows between nearly every pair of nodes. */
    private long[] aHashChange() {
        String[] specs = new String[60];
        for (int i = 0; i < specs.length; i++) {
            specs[i] = "f" + i + ":1";
        }
        long v1 = putAll(specs);
        Response s = adminJson("{\"hash\":\"murmur3\"}").put("/settings");
        assertThat(s.statusCode()).as(s.asString()).isEqualTo(200);
        return new long[] {v1, json(s).get("version").asLong()};
    }

    private RingDiff libraryDiff(long from, long to, String node) {
        HashRing a = ringOf(from, "md5");
        HashRing b = ringOf(to, "murmur3");
        return HashRing.diff(a, b, Integer.MAX_VALUE, Integer.MAX_VALUE, node);
    }

    private HashRing ringOf(long version, String hash) {
        List<io.ringd.ring.Node> members = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            members.add(io.ringd.ring.Node.of("f" + i, 1));
        }
        return HashRing.of(RingConfig.of(hash, 128), version, members);
    }

    @Test
    void diff_listsTheFirstMaxFlows_1000ByDefault_andCountsThemAll() {
        long[] v = aHashChange();
        RingDiff lib = libraryDiff(v[0], v[1], null);
        assertThat(lib.flowCount()).isGreaterThan(1000);

        JsonNode d = getJson("/diff?from=" + v[0] + "&to=" + v[1]);
        PlacementApiTest.assertDiffShape(d);
        assertThat(d.get("flowCount").asInt()).isEqualTo(lib.flowCount());
        assertThat(d.get("flows")).hasSize(1000);
        assertThat(d.get("flowsTruncated").asBoolean()).isTrue();
        assertFlows(d.get("flows"), lib.flows().subList(0, 1000));
        assertThat(d.get("movedCount").asLong()).isEqualTo(lib.movedCount());

        for (int max : new int[] {0, 1, 7, lib.flowCount(), 100_000}) {
            JsonNode some = getJson("/diff?from=" + v[0] + "&to=" + v[1] + "&maxFlows=" + max + "&maxRanges=3");
            assertThat(some.get("flowCount").asInt()).as("maxFlows %d", max).isEqualTo(lib.flowCount());
            assertFlows(some.get("flows"), lib.flows().subList(0, Math.min(max, lib.flowCount())));
            assertThat(some.get("flowsTruncated").asBoolean()).isEqualTo(lib.flowCount() > max);
            assertThat(some.get("ranges")).hasSize(3);
            assertThat(some.get("rangeCount").asInt()).isEqualTo(lib.rangeCount());
        }
    }

    @Test
    void diff_ofANode_keepsOnlyItsFlowsAndRanges_andCountsOnlyThose() {
        long[] v = aHashChange();
        for (String node : List.of("f0", "f17", "f59")) {
            RingDiff lib = libraryDiff(v[0], v[1], node);
            JsonNode d = getJson("/diff?from=" + v[0] + "&to=" + v[1] + "&node=" + node + "&maxRanges=100000");
            PlacementApiTest.assertDiffShape(d);
            assertThat(d.get("flowCount").asInt()).isEqualTo(lib.flowCount()).isPositive();
            assertFlows(d.get("flows"), lib.flows());
            for (JsonNode f : d.get("flows")) {
                assertThat(node.equals(f.get("from").asString()) || node.equals(f.get("to").asString()))
                        .as("flow %s of %s", f, node).isTrue();
            }
            long sum = 0;
            for (JsonNode f : d.get("flows")) {
                sum += f.get("count").asLong();
            }
            assertThat(d.get("movedCount").asLong()).isEqualTo(sum).isEqualTo(lib.movedCount());
            assertThat(d.get("movedShare").asDouble()).isCloseTo(sum / (double) SPACE, within(1e-15));
            assertThat(d.get("rangeCount").asInt()).isEqualTo(lib.rangeCount()).isEqualTo(d.get("ranges").size());
            long rangeSum = 0;
            for (JsonNode r : d.get("ranges")) {
                assertThat(node.equals(r.get("from").asString()) || node.equals(r.get("to").asString())).isTrue();
                rangeSum += r.get("end").asLong() - r.get("start").asLong() + 1;
            }
            assertThat(rangeSum).isEqualTo(sum);
            assertThat(d.get("flowsTruncated").asBoolean()).isFalse();
            assertThat(d.get("rangesTruncated").asBoolean()).isFalse();
        }
    }

    @Test
    void postDiff_takesMaxFlowsAndNode() {
        putAll("a:1", "b:1", "c:2");
        long v = version();
        Response r = api().contentType("application/json")
                .body("{\"changes\":[{\"op\":\"put\",\"id\":\"d\",\"weight\":1},{\"op\":\"remove\",\"id\":\"a\"}]}")
                .post("/diff?maxFlows=1&node=d");
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
        JsonNode d = json(r);
        PlacementApiTest.assertDiffShape(d);
        assertThat(d.get("from").asLong()).isEqualTo(v);
        assertThat(d.get("to").isNull()).isTrue();
        assertThat(d.get("flowCount").asInt()).isGreaterThan(1); // a -> d, b -> d, c -> d
        assertThat(d.get("flows")).hasSize(1);
        assertThat(d.get("flows").get(0).get("to").asString()).isEqualTo("d");
        assertThat(d.get("flowsTruncated").asBoolean()).isTrue();
        assertThat(version()).isEqualTo(v);
    }

    @Test
    void badMaxFlowsAndNodes_areRefusedNamingThem() {
        long v = putAll("a:1", "b:1");
        for (String bad : List.of("-1", "100001", "1.5", "0x10", "abc", "99999999999")) {
            assertProblem(httpGet("/diff?from=" + v + "&maxFlows=" + bad), 400, "maxFlows");
            assertProblem(api().contentType("application/json")
                    .body("{\"changes\":[{\"op\":\"remove\",\"id\":\"a\"}]}").post("/diff?maxFlows=" + bad), 400,
                    "maxFlows");
        }
        JsonNode p = assertProblem(httpGet("/diff?from=" + v + "&node=nobody"), 404, "node");
        assertThat(p.get("type").asString()).isEqualTo("urn:ringd:problem:node-not-found");
        assertProblem(api().contentType("application/json")
                .body("{\"changes\":[{\"op\":\"remove\",\"id\":\"a\"}]}").post("/diff?node=nobody"), 404, "node");
        assertProblem(httpGet("/diff?from=" + v + "&node=a%20b"), 400, "node");
        assertProblem(httpGet("/diff?from=" + v + "&node="), 400, "node");
        // a node of the new side only, or of the old side only, is a member of the diff
        assertThat(api().contentType("application/json")
                .body("{\"changes\":[{\"op\":\"put\",\"id\":\"new\",\"weight\":1}]}").post("/diff?node=new")
                .statusCode()).isEqualTo(200);
        long v2 = batch("[{\"op\":\"remove\",\"id\":\"a\"}]").then().extract().jsonPath().getLong("version");
        JsonNode gone = getJson("/diff?from=" + v + "&to=" + v2 + "&node=a");
        assertThat(gone.get("flowCount").asInt()).isEqualTo(1);
        assertThat(gone.get("flows").get(0).get("from").asString()).isEqualTo("a");
    }

    @Test
    void expensiveReads_pastThePermits_are503Busy_withRetryAfter_andLookupsGoOn() throws Exception {
        long v1 = putAll("a:1", "b:1");
        long v2 = putNode("c", 1, null);
        putNode("d", 1, null);
        int permits = reads.permits();
        CountDownLatch holding = new CountDownLatch(permits);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(permits);
        try {
            for (int i = 0; i < permits; i++) {
                pool.submit(() -> reads.run("hold", () -> {
                    holding.countDown();
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return null;
                }));
            }
            assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
            List<Answer> busy = List.of(
                    Answer.of(httpGet("/diff?from=" + v1 + "&to=" + v2 + "&node=a")),
                    Answer.of(httpGet("/route/k?version=" + v1)),
                    Answer.of(httpGet("/preference/k?version=" + v2)),
                    Answer.of(api().contentType("application/json")
                            .body("{\"changes\":[{\"op\":\"remove\",\"id\":\"a\"}]}").post("/diff")));
            for (Answer a : busy) {
                JsonNode p = assertProblem(a, 503, null);
                assertThat(p.get("type").asString()).isEqualTo("urn:ringd:problem:busy");
                assertThat(a.header("Retry-After")).as(a.body()).isEqualTo("1");
                assertThat(a.header("Cache-Control")).isEqualTo("no-store");
            }
            // the current version is never gated
            assertThat(httpGet("/route/k").statusCode()).isEqualTo(200);
            assertThat(httpGet("/route/k?explain=true").statusCode()).isEqualTo(200);
            assertThat(httpGet("/route/k?version=" + version()).statusCode()).isEqualTo(200);
        } finally {
            release.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(httpGet("/diff?from=" + v1 + "&to=" + v2 + "&node=a").statusCode()).isEqualTo(200);
        assertThat(httpGet("/route/k?version=" + v1).statusCode()).isEqualTo(200);
    }

    @Test
    void aDiffAskedAgain_isNotComputedAgain() {
        long[] v = aHashChange();
        long before = reads.runs();
        JsonNode first = getJson("/diff?from=" + v[0] + "&to=" + v[1] + "&maxFlows=5");
        long computed = reads.runs() - before;
        assertThat(computed).as("a rebuild of version %d and the diff", v[0]).isBetween(1L, 2L);
        for (int max : new int[] {5, 50, 0, 100_000}) {
            JsonNode again = getJson("/diff?from=" + v[0] + "&to=" + v[1] + "&maxFlows=" + max + "&maxRanges=" + max);
            assertThat(again.get("flowCount")).isEqualTo(first.get("flowCount"));
        }
        assertThat(reads.runs() - before).as("every limit answered from the one computation").isEqualTo(computed);
    }

    private static void assertFlows(JsonNode flows, List<RingDiff.Flow> want) {
        assertThat(flows).hasSize(want.size());
        for (int i = 0; i < want.size(); i++) {
            JsonNode f = flows.get(i);
            RingDiff.Flow w = want.get(i);
            assertThat(f.propertyNames()).containsExactly("from", "to", "count", "share");
            assertThat(f.get("from").asString()).as("flow %d", i).isEqualTo(w.from());
            assertThat(f.get("to").asString()).as("flow %d", i).isEqualTo(w.to());
            assertThat(f.get("count").asLong()).as("flow %d", i).isEqualTo(w.count());
        }
    }
}
