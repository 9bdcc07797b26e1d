package io.ringd.follow;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.restassured.response.Response;
import io.ringd.RealServerTest;
import tools.jackson.databind.JsonNode;

/**
 * {@code PUT /followers/{id}}, {@code GET /followers} and the long-polling {@code GET
 * /followers/converged} against a real server (docs/ring.md section 23). Each test follows a
 * ring of its own, so the followers of one do not count in another.
 */
@ExtendWith(OutputCaptureExtension.class)
class FollowersApiTest extends RealServerTest {

    static final AtomicInteger RINGS = new AtomicInteger();
    static final String WRONG = "0123456789abcdef".repeat(4);

    String ring;
    String base;

    @BeforeEach
    void ownRing() {
        ring = "fl-" + RINGS.incrementAndGet();
        Response r = adminJson("{\"name\":\"" + ring + "\"}").post("/rings");
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(201);
        base = "/rings/" + ring;
        putAllInto(ring, "fa:1", "fb:1", "fc:1");
    }

    @AfterEach
    void dropRing() {
        admin().delete("/rings/" + ring);
    }

    JsonNode ringNow() {
        return getJson(base + "/ring");
    }

    Response report(String rawId, long version, String fingerprint) {
        return api().contentType("application/json").body("{\"version\":" + version + ",\"fingerprint\":\""
                + fingerprint + "\"}").urlEncodingEnabled(false).put(base + "/followers/" + rawId);
    }

    Response reportCurrent(String rawId) {
        JsonNode r = ringNow();
        return report(rawId, r.get("version").asLong(), r.get("fingerprint").asString());
    }

    JsonNode followers(String query) {
        return getJson(base + "/followers" + query);
    }

    JsonNode follower(String id) {
        for (JsonNode f : followers("?limit=10000").get("followers")) {
            if (f.get("id").asString().equals(id)) {
                return f;
            }
        }
        return null;
    }

    long commit() {
        return putAllInto(ring, "fx-" + System.nanoTime() + ":1");
    }

    @Test
    void report_isListed_current_thenBehindAfterACommit() {
        Response r = reportCurrent("web-1.example:4711:3f9a2c");
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(204);
        assertThat(r.header("X-Ring-Name")).isEqualTo(ring);
        Response list = api().get(base + "/followers");
        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(list.header("X-Ring-Name")).isEqualTo(ring);
        JsonNode body = json(list);
        assertThat(body.propertyNames()).containsExactly("version", "followers", "summary");
        JsonNode f = body.get("followers").get(0);
        assertThat(f.propertyNames()).containsExactly("id", "version", "state", "lagVersions", "reportedAt",
                "appliedSeconds");
        assertThat(f.get("id").asString()).isEqualTo("web-1.example:4711:3f9a2c");
        assertThat(f.get("state").asString()).isEqualTo("current");
        assertThat(f.get("lagVersions").asLong()).isZero();
        assertThat(Instant.parse(f.get("reportedAt").asString())).isBetween(Instant.now().minusSeconds(10),
                Instant.now().plusSeconds(1));
        assertThat(f.get("appliedSeconds").asDouble()).isBetween(0.0, 30.0);
        assertThat(body.get("summary").toString()).isEqualTo("{\"current\":1,\"behind\":0,\"diverged\":0,\"silent\":0}");
        long v = commit();
        f = follower("web-1.example:4711:3f9a2c");
        assertThat(f.get("state").asString()).isEqualTo("behind");
        assertThat(f.get("lagVersions").asLong()).isEqualTo(1);
        assertThat(followers("").get("version").asLong()).isEqualTo(v);
    }

    @Test
    void wrongFingerprint_orVersionNeverMade_isDiverged() {
        long v = ringNow().get("version").asLong();
        assertThat(report("other-hash", v, WRONG).statusCode()).isEqualTo(204);
        assertThat(report("from-the-future", v + 100, ringNow().get("fingerprint").asString()).statusCode())
                .isEqualTo(204);
        assertThat(reportCurrent("fine").statusCode()).isEqualTo(204);
        JsonNode d = followers("?state=diverged");
        assertThat(d.get("followers").findValuesAsString("id")).containsExactly("from-the-future", "other-hash");
        assertThat(d.get("summary").get("diverged").asInt()).isEqualTo(2);
        assertThat(d.get("summary").get("current").asInt()).isEqualTo(1);
    }

    @Test
    void anIdWithASlash_travelsEncoded() {
        assertThat(reportCurrent("pods%2Fweb-7").statusCode()).isEqualTo(204);
        assertThat(follower("pods/web-7")).isNotNull();
    }

    @Test
    void badReports_are400_namingTheField_andRecordNothing() {
        long v = ringNow().get("version").asLong();
        String fp = ringNow().get("fingerprint").asString();
        assertProblem(report("has%20space", v, fp), 400, "id");
        assertProblem(report("x".repeat(201), v, fp), 400, "id");
        assertProblem(report("caps", v, fp.toUpperCase()), 400, "fingerprint");
        assertProblem(report("short", v, fp.substring(1)), 400, "fingerprint");
        assertProblem(report("neg", -1, fp), 400, "version");
        assertProblem(api().contentType("application/json").body("{\"fingerprint\":\"" + fp + "\"}")
                .put(base + "/followers/nover"), 400, "version");
        assertProblem(api().contentType("application/json").body("{\"version\":" + v + ",\"fingerprint\":\"" + fp
                + "\",\"nodes\":{\"fa\":{\"latencyMs\":-1}}}").put(base + "/followers/lat"), 400,
                "nodes.fa.latencyMs");
        assertProblem(api().contentType("application/json").body("{\"version\":" + v + ",\"fingerprint\":\"" + fp
                + "\",\"nodes\":{\"fa\":{}}}").put(base + "/followers/lat"), 400, "nodes.fa.latencyMs");
        assertThat(followers("").get("followers")).isEmpty();
    }

    @Test
    void list_filtersByState_andLimits_summaryCountsAll() {
        for (int i = 0; i < 5; i++) {
            reportCurrent("f" + i);
        }
        report("zz", ringNow().get("version").asLong(), WRONG);
        JsonNode two = followers("?limit=2");
        assertThat(two.get("followers").findValuesAsString("id")).containsExactly("f0", "f1");
        assertThat(two.get("summary").get("current").asInt()).isEqualTo(5);
        assertThat(followers("?state=current&limit=10000").get("followers")).hasSize(5);
        assertProblem(api().get(base + "/followers?state=lost"), 400, "state");
        assertProblem(api().get(base + "/followers?limit=0"), 400, "limit");
        assertProblem(api().get(base + "/followers?limit=10001"), 400, "limit");
    }

    @Test
    void converged_withNoFollowers_isTrueAtOnce() {
        JsonNode c = getJson(base + "/followers/converged");
        assertThat(c.toString()).isEqualTo("{\"version\":" + ringNow().get("version").asLong()
                + ",\"share\":1.0,\"converged\":true,\"followers\":0,\"atOrPast\":0,\"diverged\":0}");
    }

    @Test
    void converged_waits_andAnswersAsSoonAsTheShareIsReached() throws Exception {
        reportCurrent("a");
        reportCurrent("b");
        long v = commit();
        long t0 = System.nanoTime();
        CompletableFuture<HttpResponse<String>> waiting = HTTP.sendAsync(HttpRequest.newBuilder(uri(base
                + "/followers/converged?version=" + v + "&wait=PT30S")).build(), HttpResponse.BodyHandlers.ofString());
        Thread.sleep(300);
        assertThat(waiting).isNotDone();
        reportCurrent("a");
        Thread.sleep(200);
        assertThat(waiting).as("one of two is not enough for share 1.0").isNotDone();
        reportCurrent("b");
        HttpResponse<String> r = waiting.get(5, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("X-Ring-Name")).hasValue(ring);
        assertThat(r.body()).isEqualTo("{\"version\":" + v + ",\"share\":1.0,\"converged\":true,\"followers\":2,"
                + "\"atOrPast\":2,\"diverged\":0}");
    }

    @Test
    void converged_whenTheWaitRunsOut_isFalse_andAShareIsAShare() {
        reportCurrent("a");
        reportCurrent("b");
        long v = commit();
        reportCurrent("a");
        long t0 = System.nanoTime();
        JsonNode c = getJson(base + "/followers/converged?wait=PT0.5S");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(450));
        assertThat(c.toString()).isEqualTo("{\"version\":" + v + ",\"share\":1.0,\"converged\":false,"
                + "\"followers\":2,\"atOrPast\":1,\"diverged\":0}");
        assertThat(getJson(base + "/followers/converged?share=0.5&wait=PT0S").get("converged").asBoolean()).isTrue();
        assertThat(getJson(base + "/followers/converged?version=" + (v - 1) + "&wait=PT0S").get("converged")
                .asBoolean()).as("both are past the version before").isTrue();
    }

    @Test
    void converged_badParameters_are400() {
        for (String[] bad : List.of(new String[] {"share=0", "share"}, new String[] {"share=1.5", "share"},
                new String[] {"share=x", "share"}, new String[] {"wait=PT61S", "wait"},
                new String[] {"wait=10", "wait"}, new String[] {"wait=-PT1S", "wait"},
                new String[] {"version=-1", "version"}, new String[] {"version=x", "version"})) {
            assertProblem(api().get(base + "/followers/converged?" + bad[0]), 400, bad[1]);
        }
    }

    @Test
    void followers_arePerRing() {
        reportCurrent("only-here");
        assertThat(getJson("/followers").get("followers").findValuesAsString("id")).doesNotContain("only-here");
    }

    /** The value of the sample of {@code name} whose labels include each of {@code labels}, or null. */
    static Double sample(String text, String name, String... labels) {
        for (String line : text.split("\n")) {
            if (!line.startsWith(name + "{")) {
                continue;
            }
            String head = line.substring(0, line.lastIndexOf(' '));
            boolean all = true;
            for (String l : labels) {
                all &= head.contains(l);
            }
            if (all) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return null;
    }

    @Test
    void metrics_countEachState_perRing() throws Exception {
        reportCurrent("m1");
        report("m2", ringNow().get("version").asLong(), WRONG);
        String r = "ring=\"" + ring + "\"";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        String text = "";
        while (System.nanoTime() < deadline
                && !Double.valueOf(1).equals(sample(text, "ringd_followers", r, "state=\"diverged\""))) {
            Thread.sleep(100);
            text = api().get("/actuator/prometheus").asString();
        }
        assertThat(sample(text, "ringd_followers", r, "state=\"diverged\"")).isEqualTo(1.0);
        assertThat(sample(text, "ringd_followers", r, "state=\"current\"")).isEqualTo(1.0);
        assertThat(sample(text, "ringd_followers", r, "state=\"silent\"")).isEqualTo(0.0);
        assertThat(sample(text, "ringd_followers_converged_share", r)).isEqualTo(0.5);
        assertThat(sample(text, "ringd_follower_apply_seconds_count", r)).isEqualTo(2.0);
    }
    /**
     * A script that gives up on its wait (Ctrl-C, a timeout of its own) closes the connection; the
     * answer written later to nobody is not a failure of the server: nothing is logged as an error,
     * and the next wait is answered.
     */
    @Test
    void converged_aWaiterThatHangsUp_isNoError(CapturedOutput output) throws Exception {
        reportCurrent("a");
        long v = commit();
        int before = output.getAll().length();
        for (int i = 0; i < 3; i++) {
            try (Socket s = new Socket("localhost", port)) {
                if (i % 2 == 0) {
                    s.setSoLinger(true, 0); // a reset, as a killed process leaves it; else a close
                }
                s.getOutputStream().write(("GET " + base + "/followers/converged?version=" + v + "&wait=PT0.3S "
                        + "HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                s.getOutputStream().flush();
                Thread.sleep(100);
            }
        }
        Thread.sleep(800); // the waits run out and are answered into closed connections
        JsonNode c = getJson(base + "/followers/converged?version=" + v + "&wait=PT0S");
        assertThat(c.get("converged").asBoolean()).isFalse();
        String logged = output.getAll().substring(before);
        assertThat(logged).doesNotContain(" ERROR ").doesNotContain("Failure answered");
    }
}
