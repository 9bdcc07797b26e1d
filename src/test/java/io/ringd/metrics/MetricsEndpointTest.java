package io.ringd.metrics;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;
import io.ringd.deploy.DeployAssets;
import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.state.RingService;

/** The Prometheus scrape against a real server: exact counts, no ghost series, gauges that match the API. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ringd.store=memory", "ringd.admin.token=metrics-test-admin-token", "ringd.data-dir=target/metrics-test-data",
        "spring.main.banner-mode=off"})
class MetricsEndpointTest {

    private static final String TOKEN = "Bearer metrics-test-admin-token";
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{.*\\})? (\\S+)$");

    @LocalServerPort
    int port;

    @Autowired
    RingService ring;

    @Autowired
    MeterRegistry registry;

    @BeforeEach
    void threeNodes() {
        List<Change> changes = new ArrayList<>();
        List<Node> wanted = List.of(new Node("m-a", 1, "z1"), new Node("m-b", 2, "z2"), Node.of("m-c", 0.5));
        ring.current().nodes().stream().filter(n -> wanted.stream().noneMatch(w -> w.id().equals(n.id())))
                .forEach(n -> changes.add(Change.remove(n.id())));
        wanted.forEach(n -> changes.add(Change.put(n)));
        ring.apply(changes, null);
    }

    /** Every sample of the scrape: series (name and labels as written) to value. */
    Map<String, Double> scrape() {
        String text = given().port(port).get("/actuator/prometheus").then().statusCode(200).extract().asString();
        Map<String, Double> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (!line.startsWith("#") && m.matches()) {
                out.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.parseDouble(m.group(3)));
            }
        }
        return out;
    }

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

    @Test
    void routes_areCountedExactlyPerNode_singleAndBatch_notForOldVersions() {
        HashRing r = ring.current().ring();
        Map<String, Double> before = scrape();
        Map<String, Integer> expected = new HashMap<>();
        for (int i = 0; i < 150; i++) {
            String key = "metric-key-" + i;
            given().port(port).get("/route/" + key).then().statusCode(200);
            expected.merge(r.route(key), 1, Integer::sum);
        }
        List<String> batch = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            batch.add("batch-key-" + i);
            expected.merge(r.route("batch-key-" + i), 1, Integer::sum);
        }
        given().port(port).contentType(ContentType.JSON).body(Map.of("keys", batch)).post("/route")
                .then().statusCode(200);
        // a lookup at an older version does not count
        given().port(port).queryParam("version", r.version() - 1).get("/route/old-version-key").then().statusCode(200);
        Map<String, Double> after = scrape();
        for (String node : List.of("m-a", "m-b", "m-c")) {
            double delta = value(after, "ringd_routes_total", "node=\"" + node + "\"")
                    - value(before, "ringd_routes_total", "node=\"" + node + "\"");
            assertThat(delta).as("routes to %s", node).isEqualTo((double) expected.getOrDefault(node, 0));
        }
    }

    @Test
    void removedNode_leavesNoSeries_andInfoSeriesFollowsTheRing() {
        String oldFingerprint = ring.current().fingerprint();
        given().port(port).header("Authorization", TOKEN).delete("/nodes/m-c").then().statusCode(200);
        Map<String, Double> s = scrape();
        assertThat(s.keySet()).noneMatch(k -> k.contains("node=\"m-c\""));
        assertThat(s.keySet()).anyMatch(k -> k.startsWith("ringd_routes_total{") && k.contains("node=\"m-a\""));
        assertThat(s.keySet().stream().filter(k -> k.startsWith("ringd_ring_info{"))).hasSize(1);
        assertThat(s.keySet()).noneMatch(k -> k.contains(oldFingerprint));
    }

    @Test
    void staleRequests_areCountedExactly_withTheirLag() {
        long v = ring.current().version();
        Map<String, Double> before = scrape();
        for (int lag = 1; lag <= 3; lag++) {
            given().port(port).header("X-Ring-Version", Long.toString(v - lag)).get("/nodes")
                    .then().statusCode(200).header("X-Ring-Stale", "true");
        }
        // current, newer and malformed versions are not stale
        for (String sent : List.of(Long.toString(v), Long.toString(v + 5), "abc", "-1")) {
            given().port(port).header("X-Ring-Version", sent).get("/nodes")
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
    void gauges_matchRingAndOwnership() {
        JsonPath ringJson = given().port(port).get("/ring").then().statusCode(200).extract().jsonPath();
        JsonPath own = given().port(port).get("/ownership").then().statusCode(200).extract().jsonPath()
                .using(new JsonPathConfig(JsonPathConfig.NumberReturnType.DOUBLE));
        Map<String, Double> s = scrape();
        assertThat(value(s, "ringd_ring_version")).isEqualTo((double) ringJson.getLong("version"));
        assertThat(value(s, "ringd_nodes")).isEqualTo((double) ringJson.getList("nodes").size());
        int points = 0;
        for (Map<String, Object> n : own.<Map<String, Object>>getList("nodes")) {
            String node = "node=\"" + n.get("id") + "\"";
            assertThat(value(s, "ringd_ownership_share", node))
                    .isCloseTo(((Number) n.get("share")).doubleValue(), within(1e-12));
            assertThat(value(s, "ringd_node_points", node)).isEqualTo(((Number) n.get("points")).doubleValue());
            assertThat(value(s, "ringd_node_weight", node)).isEqualTo(((Number) n.get("weight")).doubleValue());
            points += ((Number) n.get("points")).intValue();
        }
        assertThat(value(s, "ringd_points")).isEqualTo((double) points);
        assertThat(value(s, "ringd_ring_info", "fingerprint=\"" + ringJson.getString("fingerprint") + "\"",
                "hash=\"md5\"", "algorithm=\"ring\"")).isEqualTo(1.0);
    }

    @Test
    void membershipChanges_areCountedByOp() {
        Map<String, Double> before = scrape();
        given().port(port).header("Authorization", TOKEN).contentType(ContentType.JSON)
                .body("{\"weight\":3}").put("/nodes/m-d").then().statusCode(201);
        given().port(port).header("Authorization", TOKEN).contentType(ContentType.JSON)
                .body("{\"weight\":3}").put("/nodes/m-d").then().statusCode(200); // no-op: not counted
        given().port(port).header("Authorization", TOKEN).delete("/nodes/m-d").then().statusCode(200);
        given().port(port).header("Authorization", TOKEN).contentType(ContentType.JSON)
                .body("{\"changes\":[{\"op\":\"put\",\"id\":\"m-e\",\"weight\":1}]}").post("/membership")
                .then().statusCode(200);
        Map<String, Double> after = scrape();
        for (String[] op : new String[][] {{"put", "1"}, {"remove", "1"}, {"batch", "1"}, {"settings", "0"}}) {
            assertThat(value(after, "ringd_membership_changes_total", "op=\"" + op[0] + "\"")
                    - value(before, "ringd_membership_changes_total", "op=\"" + op[0] + "\""))
                    .as(op[0]).isEqualTo(Double.parseDouble(op[1]));
        }
    }

    @Test
    void lookups_registerNoMeters() {
        for (int i = 0; i < 20; i++) { // warm up: the HTTP timers of each endpoint exist after the first call
            given().port(port).get("/route/warm-" + i).then().statusCode(200);
            given().port(port).get("/route?key=warm-" + i).then().statusCode(200);
        }
        java.util.Set<Meter.Id> before = ids();
        for (int i = 0; i < 1000; i++) {
            given().port(port).get(i % 2 == 0 ? "/route/key-" + i : "/route?key=key-" + i).then().statusCode(200);
        }
        // The JVM's own meters appear in the background (a GC pause of a new kind, say): not the request path.
        java.util.Set<Meter.Id> added = ids();
        added.removeAll(before);
        assertThat(added).filteredOn(id -> !id.getName().startsWith("jvm.")).isEmpty();
        assertThat(before).anyMatch(id -> id.getName().equals("ringd.routes"))
                .anyMatch(id -> id.getName().equals("http.server.requests"));
    }

    private java.util.Set<Meter.Id> ids() {
        java.util.Set<Meter.Id> ids = new java.util.HashSet<>();
        registry.getMeters().forEach(m -> ids.add(m.getId()));
        return ids;
    }

    @Test
    void lookupLatency_hasAHistogram() {
        given().port(port).get("/route/histogram-key").then().statusCode(200);
        assertThat(scrape().keySet()).anyMatch(k -> k.startsWith("http_server_requests_seconds_bucket{")
                && k.contains("uri=\"/route/{key}\""));
    }

    @Test
    void everyMetricTheDashboardAndRulesRead_isInTheScrape() {
        given().port(port).get("/route/any").then().statusCode(200);
        given().port(port).header("X-Ring-Version", "0").get("/route/any").then().statusCode(200);
        Map<String, Double> s = scrape();
        assertThat(DeployAssets.queriedRingdMetrics()).isNotEmpty().allSatisfy(name -> assertThat(s.keySet())
                .as("the scrape has %s", name).anyMatch(k -> k.equals(name) || k.startsWith(name + "{")));
    }

    @Test
    void info_andProbes() {
        JsonPath info = given().port(port).get("/actuator/info").then().statusCode(200).extract().jsonPath();
        assertThat(info.getLong("ring.version")).isEqualTo(ring.current().version());
        assertThat(info.getString("ring.fingerprint")).isEqualTo(ring.current().fingerprint());
        assertThat(info.getString("ring.settings.hash")).isEqualTo("md5");
        assertThat(info.getInt("ring.settings.vnodesPerWeight")).isEqualTo(128);
        given().port(port).get("/actuator/health/liveness").then().statusCode(200);
        given().port(port).get("/actuator/health/readiness").then().statusCode(200);
    }
}
