package io.ringd.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.restassured.http.ContentType;
import io.ringd.RealServerTest;
import io.ringd.deploy.DeployAssets;
import io.ringd.ring.HashRing;
import io.ringd.state.RingService;
import io.ringd.state.Rings;
import tools.jackson.databind.JsonNode;

/**
 * The ring's metrics as Prometheus shows them at /actuator/prometheus, against the shared real
 * server: exact counts, no ghost series, gauges that match the API. The ring and the meter
 * registry are shared with the other real-server tests, so every count is a difference between
 * two scrapes taken in the same test, and every version is relative to the one the test read.
 */
class MetricsApiTest extends RealServerTest {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{.*\\})? (\\S+)$");
    private static final List<String> THREE = List.of("m-a", "m-b", "m-c");

    RingService ring;

    @Autowired
    void rings(Rings rings) {
        ring = rings.defaultRing().service();
    }

    @Autowired
    MeterRegistry registry;

    /** An md5/128 ring of exactly m-a (1, z1), m-b (2, z2) and m-c (0.5, no zone). */
    @BeforeEach
    void threeNodes() {
        reset();
        putAll("m-a:1:z1", "m-b:2:z2", "m-c:0.5");
    }

    // ------------------------------------------------------------ the scrape

    /** Every sample of the scrape: series (name and labels as written) to value. */
    Map<String, Double> scrape() {
        String text = api().get("/actuator/prometheus").then().statusCode(200).extract().asString();
        Map<String, Double> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (!line.startsWith("#") && m.matches()) {
                out.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.parseDouble(m.group(3)));
            }
        }
        return out;
    }

    /** The value of the one series of {@code name} whose labels contain every one of {@code labels}. */
    static double value(Map<String, Double> scrape, String name, String... labels) {
        double found = 0;
        int hits = 0;
        for (Map.Entry<String, Double> e : scrape.entrySet()) {
            if (!e.getKey().startsWith(name + "{") && !e.getKey().equals(name)) {
                continue;
            }
            boolean all = true;
            for (String l : labels) {
                all &= e.getKey().contains(l);
            }
            if (all) {
                found = e.getValue();
                hits++;
            }
        }
        assertThat(hits).as("series %s %s in the scrape", name, List.of(labels)).isEqualTo(1);
        return found;
    }

    private static String node(String id) {
        return "node=\"" + id + "\"";
    }

    /** The sum of every ringd_routes_total series, whatever its node. */
    private static double allRoutes(Map<String, Double> scrape) {
        return scrape.entrySet().stream().filter(e -> e.getKey().startsWith("ringd_routes_total{"))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    // ------------------------------------------------------------ counters

    @Test
    void routes_areCountedExactlyPerNode_singleAndBatch_onlyAtTheCurrentVersion() {
        long old = version();
        putNode("m-d", 1, null); // a new version; every member of the old one is still a member
        long current = version();
        assertThat(current).isEqualTo(old + 1);
        HashRing r = ring.current().ring();
        assertThat(r.version()).isEqualTo(current);
        List<String> nodes = List.of("m-a", "m-b", "m-c", "m-d");
        Map<String, Integer> expected = new HashMap<>();
        int lookups = 0;

        Map<String, Double> before = scrape();
        for (int i = 0; i < 150; i++) {
            String key = "metric-key-" + i;
            String answered = fastGet("/route/" + key).get("node").asString();
            assertThat(answered).isEqualTo(r.route(key));
            expected.merge(r.route(key), 1, Integer::sum);
            lookups++;
        }
        for (int i = 0; i < 40; i++) { // the query form
            String key = "query-key-" + i;
            fastGet("/route?key=" + key);
            expected.merge(r.route(key), 1, Integer::sum);
            lookups++;
        }
        for (int i = 0; i < 40; i++) { // the current version, asked for by number: counted
            String key = "current-key-" + i;
            long at = fastGet("/route/" + key + "?version=" + current).get("version").asLong();
            assertThat(at).isEqualTo(current);
            expected.merge(r.route(key), 1, Integer::sum);
            lookups++;
        }
        List<String> batch = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            batch.add("batch-key-" + i);
            expected.merge(r.route("batch-key-" + i), 1, Integer::sum);
            lookups++;
        }
        api().contentType(ContentType.JSON).body(Map.of("keys", batch)).post("/route").then().statusCode(200);
        Map<String, Double> mid = scrape();
        assertThat(expected.keySet()).as("the keys reach more than one node").hasSizeGreaterThan(1);
        for (String n : nodes) {
            double delta = value(mid, "ringd_routes_total", node(n)) - value(before, "ringd_routes_total", node(n));
            assertThat(delta).as("routes to %s", n).isEqualTo((double) expected.getOrDefault(n, 0));
        }
        assertThat(allRoutes(mid) - allRoutes(before)).as("routes to any node").isEqualTo((double) lookups);

        // lookups at an older version (path and query form) are not counted, for any node
        for (int i = 0; i < 40; i++) {
            long at = fastGet("/route/old-key-" + i + "?version=" + old).get("version").asLong();
            assertThat(at).isEqualTo(old);
            fastGet("/route?key=old-query-key-" + i + "&version=" + old);
        }
        Map<String, Double> after = scrape();
        for (String n : nodes) {
            assertThat(value(after, "ringd_routes_total", node(n))).as("older versions are not counted: %s", n)
                    .isEqualTo(value(mid, "ringd_routes_total", node(n)));
        }
        assertThat(allRoutes(after)).as("older versions are not counted").isEqualTo(allRoutes(mid));
    }

    @Test
    void staleRequests_areCountedExactly_withTheirLag() {
        // three more versions, so that v - 3 is a version even on a server that has just started
        putNode("m-d", 1, null);
        putNode("m-d", 2, null);
        admin().delete("/nodes/m-d").then().statusCode(200);
        long v = ring.current().version();
        assertThat(v).isGreaterThanOrEqualTo(4);
        Map<String, Double> before = scrape();
        for (int lag = 1; lag <= 3; lag++) {
            api().header("X-Ring-Version", Long.toString(v - lag)).get("/nodes")
                    .then().statusCode(200).header("X-Ring-Stale", "true");
        }
        // current, newer and malformed versions are not stale
        for (String sent : List.of(Long.toString(v), Long.toString(v + 5), "abc", "-1")) {
            api().header("X-Ring-Version", sent).get("/nodes")
                    .then().statusCode(200).header("X-Ring-Stale", (String) null);
        }
        Map<String, Double> after = scrape();
        assertThat(value(after, "ringd_stale_requests_total") - value(before, "ringd_stale_requests_total"))
                .isEqualTo(3.0);
        assertThat(value(after, "ringd_client_version_lag_count") - value(before, "ringd_client_version_lag_count"))
                .isEqualTo(3.0);
        assertThat(value(after, "ringd_client_version_lag_sum") - value(before, "ringd_client_version_lag_sum"))
                .isEqualTo(6.0);
    }

    @Test
    void membershipChanges_areCountedByOp_onlyWhenTheyMakeAVersion() {
        long v0 = version();
        Map<String, Double> t0 = scrape();
        adminJson("{\"weight\":3}").put("/nodes/m-d").then().statusCode(201);
        adminJson("{\"weight\":3}").put("/nodes/m-d").then().statusCode(200); // no new version: not counted
        admin().delete("/nodes/m-d").then().statusCode(200);
        batch("[{\"op\":\"put\",\"id\":\"m-e\",\"weight\":1}]").then().statusCode(200);
        assertThat(version()).as("put, remove and batch each made one version").isEqualTo(v0 + 3);
        Map<String, Double> t1 = scrape();
        assertChanges(t0, t1, Map.of("put", 1, "remove", 1, "batch", 1, "settings", 0));

        adminJson("{\"vnodesPerWeight\":64}").put("/settings").then().statusCode(200);
        adminJson("{\"vnodesPerWeight\":64}").put("/settings").then().statusCode(200); // no new version
        batch("[{\"op\":\"remove\",\"id\":\"nope\"}]").then().statusCode(404); // refused: no version
        assertThat(version()).as("only the first settings change made a version").isEqualTo(v0 + 4);
        Map<String, Double> t2 = scrape();
        assertChanges(t1, t2, Map.of("put", 0, "remove", 0, "batch", 0, "settings", 1));
        assertChanges(t0, t2, Map.of("put", 1, "remove", 1, "batch", 1, "settings", 1));
    }

    private static void assertChanges(Map<String, Double> from, Map<String, Double> to, Map<String, Integer> byOp) {
        byOp.forEach((op, n) -> {
            String label = "op=\"" + op + "\"";
            assertThat(value(to, "ringd_membership_changes_total", label)
                    - value(from, "ringd_membership_changes_total", label)).as(op).isEqualTo((double) n);
        });
    }

    // ------------------------------------------------------------ gauges and series

    @Test
    void gauges_matchRingAndOwnership() {
        JsonNode ringJson = getJson("/ring");
        JsonNode own = getJson("/ownership");
        Map<String, Double> s = scrape();
        assertThat(value(s, "ringd_ring_version")).isEqualTo((double) ringJson.get("version").asLong());
        assertThat(value(s, "ringd_ring_version")).isEqualTo((double) version());
        assertThat(value(s, "ringd_nodes")).isEqualTo((double) ringJson.get("nodes").size()).isEqualTo(3.0);
        assertThat(own.get("nodes")).hasSize(3);
        long points = 0;
        Set<String> seen = new HashSet<>();
        for (JsonNode n : own.get("nodes")) {
            String id = n.get("id").asString();
            seen.add(id);
            assertThat(value(s, "ringd_ownership_share", node(id)))
                    .isCloseTo(n.get("share").asDouble(), within(1e-12));
            assertThat(value(s, "ringd_node_points", node(id))).isEqualTo(n.get("points").asDouble());
            assertThat(value(s, "ringd_node_weight", node(id))).isEqualTo(n.get("weight").asDouble());
            points += n.get("points").asLong();
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(THREE);
        assertThat(value(s, "ringd_points")).isEqualTo((double) points);
        // the weights as they were put
        assertThat(value(s, "ringd_node_weight", node("m-a"))).isEqualTo(1.0);
        assertThat(value(s, "ringd_node_weight", node("m-b"))).isEqualTo(2.0);
        assertThat(value(s, "ringd_node_weight", node("m-c"))).isEqualTo(0.5);
        assertThat(value(s, "ringd_ring_info", "fingerprint=\"" + ringJson.get("fingerprint").asString() + "\"",
                "hash=\"md5\"", "algorithm=\"ring\"")).isEqualTo(1.0);
        assertThat(ringJson.get("fingerprint").asString()).isEqualTo(fingerprint());
    }

    @Test
    void removedNode_leavesNoSeries_andInfoSeriesFollowsTheRing() {
        String oldFingerprint = ring.current().fingerprint();
        Map<String, Double> before = scrape();
        for (String name : List.of("ringd_routes_total", "ringd_ownership_share", "ringd_node_points",
                "ringd_node_weight", "ringd_node_load")) {
            value(before, name, node("m-c")); // exactly one series while m-c is a member
        }
        assertThat(value(before, "ringd_ring_info", "fingerprint=\"" + oldFingerprint + "\"")).isEqualTo(1.0);

        admin().delete("/nodes/m-c").then().statusCode(200);
        Map<String, Double> s = scrape();
        assertThat(s.keySet()).as("a node that left has no series").noneMatch(k -> k.contains("node=\"m-c\""));
        assertThat(s.keySet()).anyMatch(k -> k.startsWith("ringd_routes_total{") && k.contains("node=\"m-a\""));
        assertThat(value(s, "ringd_nodes")).isEqualTo(2.0);
        assertThat(s.keySet().stream().filter(k -> k.startsWith("ringd_ring_info{"))).hasSize(1);
        assertThat(s.keySet()).noneMatch(k -> k.contains(oldFingerprint));
        assertThat(fingerprint()).isNotEqualTo(oldFingerprint);
        assertThat(value(s, "ringd_ring_info", "fingerprint=\"" + fingerprint() + "\"")).isEqualTo(1.0);
    }

    // ------------------------------------------------------------ bounded loads

    private void report(String id, double load) {
        adminJson("{\"load\":" + load + "}").put("/nodes/" + id + "/load").then().statusCode(200);
    }

    @Test
    void boundedRoutes_countAnswersSkipsAndTheAnsweringNode_exactly() {
        // reported loads: m-a heavy, m-b empty, m-c in between; mean (9 + 0 + 3) / 3 = 4
        Map<String, Double> loads = new TreeMap<>(Map.of("m-a", 9.0, "m-b", 0.0, "m-c", 3.0));
        loads.forEach(this::report);
        double mean = (9.0 + 0.0 + 3.0) / 3;
        HashRing r = ring.current().ring();
        Map<String, Integer> answered = new HashMap<>();
        int bounded = 0;
        int skips = 0;
        int plain = 0;

        Map<String, Double> before = scrape();
        for (int i = 0; i < 90; i++) {
            String key = "bounded-metric-" + i;
            double c = i % 3 == 0 ? 1.5 : 2.5; // limit 6: m-a over; limit 10: nobody over
            List<String> walk = r.preference(key, 3);
            int expected = 0;
            while (loads.get(walk.get(expected)) > c * mean) {
                expected++;
            }
            JsonNode body = json(api().queryParam("bound", c).get("/route/" + key).then().statusCode(200)
                    .extract().response());
            assertThat(body.get("node").asString()).isEqualTo(walk.get(expected));
            assertThat(body.get("skipped").asInt()).isEqualTo(expected);
            answered.merge(walk.get(expected), 1, Integer::sum);
            bounded++;
            skips += expected;
            if (i % 10 == 0) { // plain lookups between: routes count them, the bounded meters do not
                api().get("/route/" + key).then().statusCode(200);
                answered.merge(r.route(key), 1, Integer::sum);
                plain++;
            }
        }
        Map<String, Double> after = scrape();
        assertThat(skips).as("some answers skipped m-a").isPositive();
        assertThat(value(after, "ringd_bounded_routes_total") - value(before, "ringd_bounded_routes_total"))
                .isEqualTo((double) bounded);
        assertThat(value(after, "ringd_bounded_skips_total") - value(before, "ringd_bounded_skips_total"))
                .isEqualTo((double) skips);
        for (String n : THREE) {
            assertThat(value(after, "ringd_routes_total", node(n)) - value(before, "ringd_routes_total", node(n)))
                    .as("routes answered by %s", n).isEqualTo((double) answered.getOrDefault(n, 0));
        }
        assertThat(allRoutes(after) - allRoutes(before)).isEqualTo((double) (bounded + plain));
    }

    @Test
    void boundedRoutes_refusedOrAtAnotherVersion_countNothing() {
        long v = version();
        Map<String, Double> before = scrape();
        api().get("/route/k?bound=1").then().statusCode(400);
        api().get("/route/k?bound=1.5&version=" + (v - 1)).then().statusCode(400);
        Map<String, Double> after = scrape();
        assertThat(value(after, "ringd_bounded_routes_total")).isEqualTo(value(before, "ringd_bounded_routes_total"));
        assertThat(value(after, "ringd_bounded_skips_total")).isEqualTo(value(before, "ringd_bounded_skips_total"));
        assertThat(allRoutes(after)).isEqualTo(allRoutes(before));
    }

    @Test
    void nodeLoad_isTheReportedLoad_orTheDecayedCount() {
        report("m-a", 12.5);
        report("m-c", 0.25);
        Map<String, Double> s = scrape();
        assertThat(value(s, "ringd_node_load", node("m-a"))).isEqualTo(12.5);
        assertThat(value(s, "ringd_node_load", node("m-c"))).isEqualTo(0.25);
        assertThat(value(s, "ringd_node_load", node("m-b"))).as("a new member, nothing routed").isZero();
        admin().delete("/nodes/m-a/load").then().statusCode(200);
        String key = keyRoutedTo(ring.current().ring(), "m-b");
        long start = System.nanoTime(); // the server's clock too: it runs in this JVM
        api().get("/route/" + key).then().statusCode(200); // one key for m-b: it counts 1, then decays
        s = scrape();
        double least = Math.pow(2, -(System.nanoTime() - start) / 10e9); // the default half-life, 10 s
        assertThat(value(s, "ringd_node_load", node("m-a"))).isZero();
        assertThat(value(s, "ringd_node_load", node("m-b"))).isBetween(least, 1 + 1e-12);
        JsonNode loads = getJson("/loads");
        for (JsonNode n : loads.get("nodes")) {
            if (!n.get("source").asString().equals("decayed") || n.get("id").asString().equals("m-b")) {
                continue;
            }
            assertThat(value(s, "ringd_node_load", node(n.get("id").asString()))).isEqualTo(n.get("load").asDouble());
        }
    }

    private static String keyRoutedTo(HashRing r, String node) {
        for (int i = 0;; i++) {
            if (r.route("to-" + node + "-" + i).equals(node)) {
                return "to-" + node + "-" + i;
            }
        }
    }

    // ------------------------------------------------------------ the request path

    @Test
    void lookups_registerNoMeters() {
        for (int i = 0; i < 20; i++) { // warm up: the HTTP timers of each endpoint exist after the first call
            api().get("/route/warm-" + i).then().statusCode(200);
            api().get("/route?key=warm-" + i).then().statusCode(200);
            api().get("/route/warm-" + i + "?bound=1.25").then().statusCode(200);
            api().get("/loads").then().statusCode(200);
        }
        Set<Meter.Id> before = ids();
        for (int i = 0; i < 100; i++) { // each of the 6 forms (path or query, with or without a bound) 16 times
            String bound = i % 3 == 0 ? "&bound=1.25" : "";
            fastGet(i % 2 == 0 ? "/route/key-" + i + bound.replace('&', '?') : "/route?key=key-" + i + bound);
        }
        api().get("/loads").then().statusCode(200);
        // The JVM's own meters appear in the background (a GC pause of a new kind, say): not the request path.
        Set<Meter.Id> added = ids();
        added.removeAll(before);
        assertThat(added).filteredOn(id -> !id.getName().startsWith("jvm.")).isEmpty();
        assertThat(before).anyMatch(id -> id.getName().equals("ringd.routes"))
                .anyMatch(id -> id.getName().equals("http.server.requests"));
    }

    private Set<Meter.Id> ids() {
        Set<Meter.Id> ids = new HashSet<>();
        registry.getMeters().forEach(m -> ids.add(m.getId()));
        return ids;
    }

    @Test
    void lookupLatency_hasAHistogram() {
        api().get("/route/histogram-key").then().statusCode(200);
        assertThat(scrape().keySet()).anyMatch(k -> k.startsWith("http_server_requests_seconds_bucket{")
                && k.contains("uri=\"/route/{key}\""));
    }

    @Test
    void everyMetricTheDashboardAndRulesRead_isInTheScrape() {
        api().get("/route/any").then().statusCode(200);
        api().header("X-Ring-Version", "0").get("/route/any").then().statusCode(200).header("X-Ring-Stale", "true");
        Map<String, Double> s = scrape();
        assertThat(DeployAssets.queriedRingdMetrics()).isNotEmpty().allSatisfy(name -> assertThat(s.keySet())
                .as("the scrape has %s", name).anyMatch(k -> k.equals(name) || k.startsWith(name + "{")));
        // what the dashboard filters by ring="$ring" and the alerts group by ring carries the tag ring
        // (docs/ring.md section 22); the change streams' and the admin token's are the instance's
        assertThat(DeployAssets.queriedRingdMetrics()).filteredOn(name -> !DeployAssets.instanceWide(name))
                .isNotEmpty().allSatisfy(name -> assertThat(s.keySet()).as("the scrape has %s{ring=\"default\"}", name)
                        .anyMatch(k -> k.startsWith(name + "{") && k.contains("ring=\"default\"")));
        assertThat(DeployAssets.queriedRingdMetrics()).filteredOn(DeployAssets::instanceWide).allSatisfy(name ->
                assertThat(s.keySet()).filteredOn(k -> k.equals(name) || k.startsWith(name + "{"))
                        .as("%s is the instance's", name).noneMatch(k -> k.contains("ring=")));
    }

    @Test
    void info_andProbes() {
        JsonNode info = getJson("/actuator/info").get("ring");
        assertThat(info.get("version").asLong()).isEqualTo(ring.current().version());
        assertThat(info.get("fingerprint").asString()).isEqualTo(ring.current().fingerprint());
        assertThat(info.get("settings").get("hash").asString()).isEqualTo("md5");
        assertThat(info.get("settings").get("vnodesPerWeight").asInt()).isEqualTo(128);
        api().get("/actuator/health/liveness").then().statusCode(200);
        api().get("/actuator/health/readiness").then().statusCode(200);
    }
}
