package io.ringd.follow;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Followers on the file store with small limits and {@code ringd.load.source=followers}
 * (docs/ring.md section 23): a full ring refuses new ids with 503 and Retry-After until an
 * older one is silent, then the oldest silent goes first; a flood past the report rate is
 * 503 while lookups go on; waiters are bounded; a diverged follower is logged once; and the
 * latencies the followers report are the loads bounded routing compares, without any
 * change of membership.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "ringd.store=file",
        "ringd.data-dir=target/followers-file-store-test-data",
        "ringd.admin.token=" + FollowersFileStoreApiTest.TOKEN,
        "ringd.followers.max=4",
        "ringd.followers.ttl=2s",
        "ringd.followers.report-rate=40",
        "ringd.followers.max-waiters=2",
        "ringd.load.source=followers",
        "logging.level.io.ringd=WARN" })
@ExtendWith(OutputCaptureExtension.class)
class FollowersFileStoreApiTest {

    static final String TOKEN = "followers-file-store-admin-token-0123456789";
    static final JsonMapper JSON = JsonMapper.builder().build();
    static int rings;

    @LocalServerPort
    int port;
    String base;

    RequestSpecification api() {
        return RestAssured.given().port(port).urlEncodingEnabled(false);
    }

    @BeforeEach
    void ownRing() throws InterruptedException {
        Thread.sleep(1100); // a fresh second of the report budget (40 a second, burst 40)
        base = "/rings/ff-" + Long.toString(System.nanoTime(), 36) + "-" + (++rings);
        Response r = api().header("Authorization", "Bearer " + TOKEN).contentType("application/json")
                .body("{\"name\":\"" + base.substring(7) + "\"}").post("/rings");
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(201);
        StringBuilder changes = new StringBuilder();
        for (String n : List.of("n1", "n2", "n3", "n4", "n5")) {
            changes.append(changes.isEmpty() ? "" : ",").append("{\"op\":\"put\",\"id\":\"").append(n)
                    .append("\",\"weight\":1}");
        }
        r = api().header("Authorization", "Bearer " + TOKEN).contentType("application/json")
                .body("{\"changes\":[" + changes + "]}").post(base + "/membership");
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
    }

    @org.junit.jupiter.api.AfterEach
    void dropRing() {
        api().header("Authorization", "Bearer " + TOKEN).delete(base);
    }

    JsonNode get(String path) {
        Response r = api().get(base + path);
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
        return JSON.readTree(r.asString());
    }

    Response report(String id, String nodes) {
        JsonNode ring = get("/ring");
        return report(id, ring.get("version").asLong(), ring.get("fingerprint").asString(), nodes);
    }

    Response report(String id, long version, String fingerprint, String nodes) {
        return api().contentType("application/json").body("{\"version\":" + version + ",\"fingerprint\":\""
                + fingerprint + "\"" + (nodes == null ? "" : ",\"nodes\":" + nodes) + "}")
                .put(base + "/followers/" + id);
    }

    @Test
    void full_is503WithRetryAfter_untilTheOldestSilentGoes() throws Exception {
        for (int i = 0; i < 4; i++) {
            assertThat(report("f" + i, null).statusCode()).isEqualTo(204);
            Thread.sleep(100);
        }
        Response full = report("one-more", null);
        assertThat(full.statusCode()).isEqualTo(503);
        assertThat(full.contentType()).startsWith("application/problem+json");
        assertThat(full.header("Retry-After")).isEqualTo("1");
        assertThat(full.asString()).contains("ringd.followers.max");
        assertThat(report("f2", null).statusCode()).as("a known one still reports").isEqualTo(204);
        assertThat(get("/followers").get("followers").findValuesAsString("id")).doesNotContain("one-more");
        Thread.sleep(2100); // every one silent but f2, reported since
        assertThat(report("one-more", null).statusCode()).isEqualTo(204);
        List<String> ids = get("/followers").get("followers").findValuesAsString("id");
        assertThat(ids).contains("one-more", "f2").doesNotContain("f0");
        assertThat(get("/followers?state=silent").get("followers")).isNotEmpty();
    }

    @Test
    void aFlood_is503_andLookupsGoOn() throws Exception {
        JsonNode ring = get("/ring");
        var http = java.net.http.HttpClient.newHttpClient();
        HttpRequest one = HttpRequest.newBuilder(java.net.URI.create("http://localhost:" + port + base
                + "/followers/flood")).header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers
                .ofString("{\"version\":" + ring.get("version").asLong() + ",\"fingerprint\":\""
                        + ring.get("fingerprint").asString() + "\"}")).build();
        List<CompletableFuture<HttpResponse<String>>> flood = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            flood.add(http.sendAsync(one, HttpResponse.BodyHandlers.ofString()));
        }
        for (int i = 0; i < 20; i++) {
            assertThat(api().get(base + "/route/k" + i).statusCode()).isEqualTo(200);
        }
        int refused = 0;
        for (CompletableFuture<HttpResponse<String>> f : flood) {
            HttpResponse<String> r = f.get(30, TimeUnit.SECONDS);
            if (r.statusCode() == 503) {
                refused++;
                assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
                assertThat(r.body()).contains("report-rate");
            } else {
                assertThat(r.statusCode()).isEqualTo(204);
            }
        }
        assertThat(refused).as("40 a second with a burst of 40, of 300 sent at once").isGreaterThan(150);
        assertThat(get("/followers").get("followers").findValuesAsString("id")).containsExactly("flood");
    }

    @Test
    void waiters_areBounded() throws Exception {
        report("w", null);
        api().header("Authorization", "Bearer " + TOKEN).contentType("application/json").body("{\"weight\":1}")
                .put(base + "/nodes/n6");
        List<CompletableFuture<HttpResponse<String>>> waiting = new ArrayList<>();
        var http = java.net.http.HttpClient.newHttpClient();
        for (int i = 0; i < 2; i++) {
            waiting.add(http.sendAsync(HttpRequest.newBuilder(java.net.URI.create("http://localhost:" + port + base
                    + "/followers/converged?wait=PT20S")).build(), HttpResponse.BodyHandlers.ofString()));
        }
        Thread.sleep(500);
        Response third = api().get(base + "/followers/converged?wait=PT20S");
        assertThat(third.statusCode()).isEqualTo(503);
        assertThat(third.asString()).contains("ringd.followers.max-waiters");
        report("w", null); // now at the new version: both answered
        for (CompletableFuture<HttpResponse<String>> w : waiting) {
            assertThat(w.get(5, TimeUnit.SECONDS).body()).contains("\"converged\":true");
        }
    }

    @Test
    void aDivergedFollower_isLoggedOnce(CapturedOutput output) throws Exception {
        JsonNode ring = get("/ring");
        String wrong = "f".repeat(64);
        for (int i = 0; i < 3; i++) {
            report("wrong-hash", ring.get("version").asLong(), wrong, null);
        }
        Thread.sleep(1200); // a pass or two
        String needle = "Follower wrong-hash of ring " + base.substring(7) + " diverged";
        assertThat(output.getOut().split(java.util.regex.Pattern.quote(needle), -1)).hasSize(2);
    }

    @Test
    void followersLatencies_areTheLoads_slowNodeShedsKeys_membershipStays() throws Exception {
        JsonNode before = get("/ring");
        Map<String, String> owner = new HashMap<>();
        for (int i = 0; i < 200; i++) {
            owner.put("key" + i, get("/route/key" + i + "?bound=1.25").get("node").asString());
        }
        assertThat(owner).containsValue("n3");
        Runnable slowN3 = () -> {
            report("a", "{\"n1\":{\"latencyMs\":2},\"n2\":{\"latencyMs\":2},\"n3\":{\"latencyMs\":80},"
                    + "\"n4\":{\"latencyMs\":2},\"n5\":{\"latencyMs\":2}}");
            report("b", "{\"n3\":{\"latencyMs\":90},\"n1\":{\"latencyMs\":3}}");
            report("c", "{\"n3\":{\"latencyMs\":70},\"gone\":{\"latencyMs\":1}}");
        };
        slowN3.run();
        JsonNode loads = null;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (System.nanoTime() < end) {
            loads = get("/loads");
            // all three reports in the medians: a pass between a's report and b's gives n3 80 from a alone
            if (loads.get("nodes").get(2).get("load").asDouble() == 80
                    && loads.get("nodes").get(0).get("load").asDouble() == 2.5) {
                break;
            }
            Thread.sleep(100);
        }
        Map<String, Double> load = new HashMap<>();
        for (JsonNode n : loads.get("nodes")) {
            assertThat(n.get("source").asString()).isEqualTo("followers");
            load.put(n.get("id").asString(), n.get("load").asDouble());
        }
        assertThat(load).containsEntry("n3", 80.0).containsEntry("n1", 2.5).containsEntry("n2", 2.0)
                .containsEntry("n4", 2.0).containsEntry("n5", 2.0);
        assertThat(loads.get("mean").asDouble()).isCloseTo((80 + 2.5 + 2 + 2 + 2) / 5, org.assertj.core.data.Offset
                .offset(1e-9));
        int moved = 0;
        long reported = System.nanoTime() - TimeUnit.SECONDS.toNanos(1); // a report before the first lookup
        for (Map.Entry<String, String> e : owner.entrySet()) {
            // the followers go on reporting, by the clock rather than every so many lookups, so that none
            // turns silent (ttl 2 s) however slowly a loaded machine answers the lookups
            if (System.nanoTime() - reported > TimeUnit.MILLISECONDS.toNanos(700)) {
                slowN3.run();
                Thread.sleep(600); // a pass works the medians out again
                reported = System.nanoTime();
            }
            String now = get("/route/" + e.getKey() + "?bound=1.25").get("node").asString();
            assertThat(now).isNotEqualTo("n3");
            moved += now.equals(e.getValue()) ? 0 : 1;
        }
        assertThat(moved).isEqualTo((int) owner.values().stream().filter("n3"::equals).count());
        JsonNode after = get("/ring");
        assertThat(after.get("version").asLong()).isEqualTo(before.get("version").asLong());
        assertThat(after.get("fingerprint").asString()).isEqualTo(before.get("fingerprint").asString());
    }

    @Test
    void reports_onAFileStoreRing() {
        JsonNode ring = get("/ring");
        assertThat(report("file-1", null).statusCode()).isEqualTo(204);
        JsonNode f = get("/followers").get("followers").get(0);
        assertThat(f.get("state").asString()).isEqualTo("current");
        assertThat(f.get("version").asLong()).isEqualTo(ring.get("version").asLong());
        assertThat(get("/followers/converged?wait=PT0S").get("converged").asBoolean()).isTrue();
    }
}
