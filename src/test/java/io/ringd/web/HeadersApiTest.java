package io.ringd.web;

import io.ringd.RealServerTest;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.restassured.specification.SpecificationQuerier;

/** {@code X-Ring-Version} on every ring answer, and {@code X-Ring-Stale} for clients behind (docs/ring.md section 17). */
class HeadersApiTest extends RealServerTest {

    private long v;

    @BeforeEach
    void ringOfThree() {
        reset();
        putAll("A:1", "B:1");
        v = putNode("C", 1, null); // v - 1 has nodes too
    }

    @Test
    void ringVersion_onEverySuccessfulReadAndLookup() {
        for (Map.Entry<String, Supplier<Response>> call : reads(api()).entrySet()) {
            Response r = call.getValue().get();
            assertThat(r.statusCode()).as(call.getKey()).isEqualTo(200);
            assertThat(r.header("X-Ring-Version")).as(call.getKey()).isEqualTo(Long.toString(v));
        }
    }

    @Test
    void ringVersion_onAdminAnswers_isTheVersionTheyMade() {
        Response put = adminJson("{\"weight\":2}").put("/nodes/D");
        assertThat(put.header("X-Ring-Version")).isEqualTo(Long.toString(v + 1));
        Response delete = admin().delete("/nodes/D");
        assertThat(delete.header("X-Ring-Version")).isEqualTo(Long.toString(v + 2));
        Response batch = batch("[{\"op\":\"put\",\"id\":\"E\",\"weight\":1}]");
        assertThat(batch.header("X-Ring-Version")).isEqualTo(Long.toString(v + 3));
        Response settings = adminJson("{\"vnodesPerWeight\":100}").put("/settings");
        assertThat(settings.header("X-Ring-Version")).isEqualTo(Long.toString(v + 4));
        Response unchanged = adminJson("{\"vnodesPerWeight\":100}").put("/settings");
        assertThat(unchanged.header("X-Ring-Version")).isEqualTo(Long.toString(v + 4));
    }

    @Test
    void ringVersion_onErrorsFromTheRingApi() {
        Map<String, Response> errors = new LinkedHashMap<>();
        errors.put("404 unknown node", api().get("/nodes/nope"));
        errors.put("404 unknown version", api().get("/route/k?version=" + (v + 10)));
        errors.put("400 bad n", api().get("/preference/k?n=0"));
        errors.put("400 bad version", api().get("/route/k?version=x"));
        errors.put("400 missing from", api().get("/diff"));
        errors.put("400 long key", api().get("/route?key=" + "x".repeat(4097)));
        errors.put("400 bad body", adminJson("{\"weight\":\"1\"}").put("/nodes/A"));
        errors.put("401", api().contentType("application/json").body("{\"weight\":1}").put("/nodes/A"));
        errors.put("404 delete", admin().delete("/nodes/nope"));
        errors.put("412", adminJson("{\"weight\":5}").header("If-Match", Long.toString(v - 1)).put("/nodes/A"));
        errors.put("400 settings", adminJson("{\"hash\":\"crc32\"}").put("/settings"));
        errors.put("404 batch", batch("[{\"op\":\"remove\",\"id\":\"nope\"}]"));
        errors.put("405", api().delete("/ring"));
        errors.put("415", admin().contentType("text/plain").body("weight=1").put("/nodes/A"));
        for (Map.Entry<String, Response> e : errors.entrySet()) {
            assertThat(e.getValue().statusCode()).as(e.getKey()).isGreaterThanOrEqualTo(400);
            assertThat(e.getValue().header("X-Ring-Version")).as(e.getKey()).isEqualTo(Long.toString(v));
        }
        assertThat(version()).isEqualTo(v);
    }

    @Test
    void ringVersion_onProblemsRefusedBeforeTheControllers() {
        // a raw ';' in a lookup path and a body announced over 4 MiB are answered by a filter:
        // still answers of the ring API, so they carry X-Ring-Version too (docs/ring.md section 17)
        Answer semicolon = Answer.of(httpGet("/route/a;b"));
        assertProblem(semicolon, 400, "key");
        Answer tooLarge = rawHttp("POST /route HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 50000000",
                "{}".getBytes());
        assertProblem(tooLarge, 413, null);
        assertThat(semicolon.header("X-Ring-Version")).as("X-Ring-Version on the raw ';' answer")
                .isEqualTo(Long.toString(v));
        assertThat(tooLarge.header("X-Ring-Version")).as("X-Ring-Version on the 413 answer")
                .isEqualTo(Long.toString(v));
    }

    @Test
    void ringVersion_on503OfTheEmptyRing() {
        reset();
        long now = version();
        Response r = api().get("/route/k");
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.header("X-Ring-Version")).isEqualTo(Long.toString(now));
    }

    @Test
    void stale_whenTheClientSendsAnOlderVersion() {
        for (Map.Entry<String, Supplier<Response>> call : reads(api().header("X-Ring-Version", Long.toString(v - 1)))
                .entrySet()) {
            Response r = call.getValue().get();
            assertThat(r.header("X-Ring-Stale")).as(call.getKey()).isEqualTo("true");
            assertThat(r.header("X-Ring-Version")).as(call.getKey()).isEqualTo(Long.toString(v));
        }
        assertThat(api().header("X-Ring-Version", "0").get("/route/k").header("X-Ring-Stale")).isEqualTo("true");
    }

    @Test
    void notStale_whenTheClientVersionIsEqualNewerOrMalformed() {
        for (String sent : List.of(Long.toString(v), Long.toString(v + 1), "99999999999999", "abc", "-1", "",
                "1.5", " ", "0x1", "\"" + (v - 1) + "\"", "9".repeat(40))) {
            for (Map.Entry<String, Supplier<Response>> call : reads(api().header("X-Ring-Version", sent))
                    .entrySet()) {
                Response r = call.getValue().get();
                assertThat(r.statusCode()).as("%s with %s", call.getKey(), sent).isEqualTo(200);
                assertThat(r.header("X-Ring-Stale")).as("%s with '%s'", call.getKey(), sent).isNull();
            }
        }
        assertThat(api().get("/route/k").header("X-Ring-Stale")).isNull();
    }

    @Test
    void stale_onAdminCallsAndErrorsToo() {
        Response r = adminJson("{\"weight\":2}").header("X-Ring-Version", Long.toString(v - 1)).put("/nodes/D");
        assertThat(r.statusCode()).isEqualTo(201);
        assertThat(r.header("X-Ring-Stale")).isEqualTo("true");
        Response err = api().header("X-Ring-Version", Long.toString(v - 1)).get("/nodes/nope");
        assertThat(err.statusCode()).isEqualTo(404);
        assertThat(err.header("X-Ring-Stale")).isEqualTo("true");
    }

    @Test
    void staleRequests_areCountedInTheMetrics() {
        double before = staleCount();
        api().header("X-Ring-Version", Long.toString(v - 1)).get("/route/k").then().statusCode(200);
        api().header("X-Ring-Version", Long.toString(v - 1)).get("/ownership").then().statusCode(200);
        api().header("X-Ring-Version", Long.toString(v)).get("/route/k").then().statusCode(200);
        api().header("X-Ring-Version", "abc").get("/route/k").then().statusCode(200);
        assertThat(staleCount()).isEqualTo(before + 2);
    }

    @Test
    void clientsAhead_areCountedInTheMetrics_andTheAnswerIgnoresThem() {
        double ahead = counter("ringd_clients_ahead_total");
        double stale = staleCount();
        Response r = api().header("X-Ring-Version", Long.toString(v + 5)).get("/route/k");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.header("X-Ring-Stale")).isNull();
        assertThat(r.header("X-Ring-Version")).isEqualTo(Long.toString(v));
        api().header("X-Ring-Version", Long.toString(v + 1)).get("/ring").then().statusCode(200);
        api().header("X-Ring-Version", Long.toString(v)).get("/ring").then().statusCode(200);
        api().header("X-Ring-Version", "99999999999999999999").get("/ring").then().statusCode(200);
        assertThat(counter("ringd_clients_ahead_total")).isEqualTo(ahead + 2);
        assertThat(staleCount()).isEqualTo(stale);
    }

    private double staleCount() {
        return counter("ringd_stale_requests_total");
    }

    private double counter(String name) {
        String text = api().get("/actuator/prometheus").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("(?m)^" + name + "(\\{[^}]*\\})? ([0-9.eE+]+)$").matcher(text);
        assertThat(m.find()).as("%s in\n%s", name, text).isTrue();
        return Double.parseDouble(m.group(2));
    }

    /** Every read of the ring API, each sent with the headers of {@code base}. */
    private Map<String, Supplier<Response>> reads(RequestSpecification base) {
        Map<String, Supplier<Response>> m = new LinkedHashMap<>();
        m.put("GET /route/{key}", () -> spec(base).get("/route/k"));
        m.put("GET /route?key=", () -> spec(base).get("/route?key=k"));
        m.put("GET /route/{key}?version=", () -> spec(base).get("/route/k?version=" + (v - 1)));
        m.put("GET /preference/{key}", () -> spec(base).get("/preference/k"));
        m.put("GET /preference?key=", () -> spec(base).get("/preference?key=k&n=2"));
        m.put("POST /route", () -> spec(base).contentType("application/json").body("{\"keys\":[\"k\"]}").post("/route"));
        m.put("GET /ownership", () -> spec(base).get("/ownership"));
        m.put("GET /diff", () -> spec(base).get("/diff?from=" + (v - 1)));
        m.put("POST /diff", () -> spec(base).contentType("application/json")
                .body("{\"changes\":[{\"op\":\"remove\",\"id\":\"A\"}]}").post("/diff"));
        m.put("GET /ring", () -> spec(base).get("/ring"));
        m.put("GET /nodes", () -> spec(base).get("/nodes"));
        m.put("GET /nodes/{id}", () -> spec(base).get("/nodes/A"));
        m.put("GET /settings", () -> spec(base).get("/settings"));
        return m;
    }

    private RequestSpecification spec(RequestSpecification base) {
        // rest-assured specifications are one-shot: copy the headers onto a fresh one
        RequestSpecification fresh = api();
        SpecificationQuerier.query(base).getHeaders().forEach(h -> fresh.header(h.getName(), h.getValue()));
        return fresh;
    }
}
