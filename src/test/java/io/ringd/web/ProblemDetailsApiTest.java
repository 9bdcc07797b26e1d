package io.ringd.web;

import io.ringd.RealServerTest;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import tools.jackson.databind.JsonNode;

/**
 * Errors as RFC 9457 problem details (docs/ring.md section 18): the status, the
 * type, title, status, detail and field, nothing of Java in the body, and a
 * refused change leaving the ring exactly as it was.
 */
class ProblemDetailsApiTest extends RealServerTest {

    private static final int MIB4 = 4 * 1024 * 1024;

    private Snap before;

    @BeforeEach
    void ringOfThree() {
        reset();
        putAll("A:1", "B:1", "C:1:eu-1a");
        before = snap();
    }

    // ------------------------------------------------------------ 400

    @Test
    void badNodeBodies_are400NamingTheField_andChangeNothing() {
        String[][] cases = {
                {"{", "body"},
                {"", "body"},
                {"{\"weight\":1,}", "body"},
                {"{\"weight\":1", "body"},
                {"{\"weight\":\"1\"}", "weight"},
                {"{\"weight\":\"NaN\"}", "weight"},
                {"{\"weight\":\"Infinity\"}", "weight"},
                {"{\"weight\":true}", "weight"},
                {"{\"weight\":[1]}", "weight"},
                {"{\"weight\":0}", "weight"},
                {"{\"weight\":0.0}", "weight"},
                {"{\"weight\":-0.0}", "weight"},
                {"{\"weight\":-1}", "weight"},
                {"{\"weight\":1e-400}", "weight"},
                {"{\"weight\":10000.001}", "weight"},
                {"{\"weight\":1e400}", "weight"},
                {"{\"weight\":-1e400}", "weight"},
                {"{\"weight\":null}", "weight"},
                {"{}", "weight"},
                {"{\"zone\":\"eu-1a\"}", "weight"},
                {"{\"weight\":1,\"colour\":\"red\"}", "colour"},
                {"{\"weight\":1,\"Weight\":1}", "Weight"},
                {"{\"weight\":1,\"zone\":\"\"}", "zone"},
                {"{\"weight\":1,\"zone\":\"eu 1a\"}", "zone"},
                {"{\"weight\":1,\"zone\":\"eu/1a\"}", "zone"},
                {"{\"weight\":1,\"zone\":\"" + "z".repeat(201) + "\"}", "zone"},
                {"{\"weight\":1,\"zone\":5}", "zone"},
                {"{\"weight\":1,\"id\":5}", "id"},
        };
        for (String[] c : cases) {
            Response r = adminJson(c[0]).put("/nodes/A");
            assertProblem(r, 400, c[1]);
            assertThat(r.header("X-Ring-Version")).as(c[0]).isEqualTo(Long.toString(before.version()));
            Response created = adminJson(c[0]).put("/nodes/new-node");
            assertProblem(created, 400, c[1]);
        }
        for (String body : List.of("[1]", "\"weight\"", "1", "null", "[]")) {
            assertProblem(adminJson(body).put("/nodes/A"), 400, null);
        }
        assertUnchanged(before);
    }

    @Test
    void badNodeIds_are400NamingTheId_andChangeNothing() {
        for (String id : List.of("bad%20id", "a%2Fb", "%C3%BC", "x".repeat(201), "a%3Bb", "a*b", "a%25b")) {
            assertProblem(raw().header("Authorization", "Bearer " + TOKEN).contentType("application/json")
                    .body("{\"weight\":1}").put("/nodes/" + id), 400, "id");
            assertProblem(raw().header("Authorization", "Bearer " + TOKEN).delete("/nodes/" + id), 400, "id");
            assertProblem(raw().get("/nodes/" + id), 400, "id");
        }
        assertThat(adminJson("{\"weight\":1}").put("/nodes/" + "x".repeat(200)).statusCode()).isEqualTo(201);
        assertThat(admin().delete("/nodes/" + "x".repeat(200)).statusCode()).isEqualTo(200);
        assertThat(version()).isEqualTo(before.version() + 2);
    }

    @Test
    void invalidJson_detailNamesNoJavaClass() {
        // Jackson's messages for these name its classes (StreamReadConstraints, JsonReadFeature,
        // DeserializationFeature, tools.jackson.databind.JsonNode):
        // docs/ring.md section 18 allows no Java class name in a problem
        SoftAssertions soft = new SoftAssertions();
        for (String body : List.of("{\"weight\":NaN}", "{\"weight\":Infinity}", "{\"weight\":-Infinity}",
                "{\"weight\":1" + "0".repeat(1200) + "}", "{\"weight\":" + "[".repeat(1200) + "]".repeat(1200) + "}",
                "{'weight':1}", "{weight:1}", "{\"weight\":01}", "{\"weight\":1}/*c*/", "{\"weight\":.5}",
                "{\"weight\":1}{\"weight\":2}", "{\"weight\":1} x")) {
            Response r = adminJson(body).put("/nodes/A");
            soft.assertThat(r.statusCode()).as(body).isEqualTo(400);
            soft.assertThat(r.contentType()).as(body).startsWith(PROBLEM_JSON);
            soft.assertThat(json(r).path("field").asString("")).as(body).isIn("body", "weight");
            soft.assertThat(json(r).path("detail").asString(""))
                    .as("detail for %s", body.length() > 40 ? body.substring(0, 40) + "..." : body)
                    .doesNotContainPattern("StreamReadConstraints|JsonReadFeature|DeserializationFeature|JsonParser|tools\\.jackson"
                            + "|`[A-Za-z]+\\.[A-Za-z_]+");
        }
        soft.assertAll();
        assertUnchanged(before);
    }

    @Test
    void badJsonInEveryBodyTakingCall_is400() {
        for (Response r : List.of(
                api().contentType("application/json").body("{\"keys\":[").post("/route"),
                api().contentType("application/json").body("{\"changes\":[").post("/diff"),
                adminJson("{\"changes\":[").post("/membership"),
                adminJson("{\"hash\":").put("/settings"),
                adminJson("").put("/settings"),
                adminJson("").post("/membership"))) {
            assertProblem(r, 400, "body");
        }
        assertUnchanged(before);
    }

    @Test
    void badQueryParameters_are400NamingTheParameter() {
        assertProblem(api().get("/route/k?version=abc"), 400, "version");
        assertProblem(api().get("/route/k?version=-1"), 400, "version");
        assertProblem(api().get("/route/k?version=1.5"), 400, "version");
        assertProblem(api().get("/route/k?version=99999999999999999999999"), 400, "version");
        assertProblem(api().get("/preference/k?n=1e3"), 400, "n");
        assertProblem(api().get("/preference/k?n=99999999999"), 400, "n");
        assertProblem(api().get("/preference/k?distinctZones=2"), 400, "distinctZones");
        assertProblem(api().get("/diff?from=1&maxRanges=1.5"), 400, "maxRanges");
    }

    // ------------------------------------------------------------ 401, 404, 405

    @Test
    void missingToken_is401WithWwwAuthenticateBearer() {
        Response r = api().contentType("application/json").body("{\"weight\":1}").put("/nodes/Z");
        JsonNode p = assertProblem(r, 401, null);
        assertThat(r.header("WWW-Authenticate")).startsWith("Bearer");
        assertThat(p.get("type").asString()).isNotBlank();
        assertUnchanged(before);
    }

    @Test
    void unknownNodeVersionOrPath_is404() {
        assertProblem(api().get("/nodes/nope"), 404, "id");
        assertProblem(admin().delete("/nodes/nope"), 404, "id");
        JsonNode version = assertProblem(api().get("/route/k?version=" + (before.version() + 1)), 404, "version");
        assertThat(version.get("type").asString()).isNotEqualTo(
                assertProblem(api().get("/nodes/nope"), 404, "id").get("type").asString());
        assertProblem(api().get("/preference/k?version=" + (before.version() + 50)), 404, "version");
        for (String path : List.of("/nope", "/route", "/route/a/b", "/nodes/A/extra", "/v1/route/k", "/ring/x",
                "/index.html", "/favicon.ico")) {
            assertProblem(api().get(path), path.equals("/route") ? 400 : 404, null);
        }
        assertUnchanged(before);
    }

    @Test
    void wrongMethod_is405WithAllow() {
        for (Response r : List.of(api().delete("/route/k"), api().put("/ring"), api().post("/ring"),
                admin().post("/nodes/A"), admin().delete("/settings"), admin().patch("/nodes/A"),
                api().put("/ownership"), api().delete("/diff"), admin().get("/membership"))) {
            assertProblem(r, 405, null);
            assertThat(r.header("Allow")).isNotBlank();
        }
        assertUnchanged(before);
    }

    // ------------------------------------------------------------ 412

    @Test
    void staleIfMatch_is412() {
        Response r = adminJson("{\"weight\":7}").header("If-Match", "\"" + (before.version() - 1) + "\"").put("/nodes/A");
        JsonNode p = assertProblem(r, 412, "If-Match");
        assertThat(p.get("detail").asString()).contains(Long.toString(before.version()));
        assertUnchanged(before);
    }

    // ------------------------------------------------------------ 413

    @Test
    void bodyOver4MiB_withContentLength_is413_andChangesNothing() {
        byte[] tooBig = paddedJson("{\"changes\":[{\"op\":\"put\",\"id\":\"Z\",\"weight\":1}]}", MIB4 + 1);
        HttpResponse<String> admin = send(HttpRequest.newBuilder(uri("/membership"))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(tooBig)));
        assertProblem(admin, 413, null);

        HttpResponse<String> route = send(HttpRequest.newBuilder(uri("/route"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(paddedJson("{\"keys\":[\"k\"]}", MIB4 + 1))));
        assertProblem(route, 413, null);

        // a length announced and not even sent
        Answer announced = rawHttp("PUT /nodes/Z HTTP/1.1\r\nAuthorization: Bearer " + TOKEN
                + "\r\nContent-Type: application/json\r\nContent-Length: 50000000", "{\"weight\":1}".getBytes());
        assertProblem(announced, 413, null);
        assertUnchanged(before);
    }

    @Test
    void bodyOver4MiB_chunked_is413_andChangesNothing() {
        byte[] tooBig = paddedJson("{\"changes\":[{\"op\":\"put\",\"id\":\"Z\",\"weight\":1}]}", MIB4 + 1024);
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/membership"))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(tooBig))));
        assertProblem(r, 413, null);

        HttpResponse<String> route = send(HttpRequest.newBuilder(uri("/route"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofInputStream(
                        () -> new ByteArrayInputStream(paddedJson("{\"keys\":[\"k\"]}", MIB4 + 1)))));
        assertProblem(route, 413, null);
        assertUnchanged(before);
    }

    @Test
    void bodyOfExactly4MiB_isAccepted() {
        byte[] body = paddedJson("{\"keys\":[\"k\"]}", MIB4);
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/route")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        HttpResponse<String> chunked = send(HttpRequest.newBuilder(uri("/route"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))));
        assertThat(chunked.statusCode()).as(chunked.body()).isEqualTo(200);
    }

    // ------------------------------------------------------------ 415

    @Test
    void nonJsonContentType_is415OnEveryBodyTakingCall_andChangesNothing() {
        for (String type : List.of("text/plain", "application/xml", "application/x-www-form-urlencoded")) {
            for (Response r : List.of(
                    admin().contentType(type).body("weight=1").put("/nodes/Z"),
                    admin().contentType(type).body("{\"weight\":5}").put("/nodes/A"),
                    admin().contentType(type).body("{\"changes\":[{\"op\":\"remove\",\"id\":\"A\"}]}")
                            .post("/membership"),
                    admin().contentType(type).body("{\"hash\":\"sha256\"}").put("/settings"),
                    api().contentType(type).body("{\"keys\":[\"k\"]}").post("/route"),
                    api().contentType(type).body("{\"changes\":[{\"op\":\"remove\",\"id\":\"A\"}]}").post("/diff"))) {
                assertProblem(r, 415, null);
            }
        }
        HttpResponse<String> none = send(HttpRequest.newBuilder(uri("/nodes/Z"))
                .header("Authorization", "Bearer " + TOKEN)
                .PUT(HttpRequest.BodyPublishers.ofString("{\"weight\":1}")));
        assertProblem(none, 415, null);
        assertUnchanged(before);
    }

    @Test
    void jsonWithCharsetOrProblemJson_isAccepted() {
        Response r = admin().contentType("application/json; charset=UTF-8").body("{\"weight\":1}").put("/nodes/Z");
        assertThat(r.statusCode()).isEqualTo(201);
        assertThat(admin().delete("/nodes/Z").statusCode()).isEqualTo(200);
    }

    // ------------------------------------------------------------ 503

    @Test
    void emptyRingLookup_is503() {
        reset();
        JsonNode p = assertProblem(api().get("/route/k"), 503, null);
        assertThat(p.get("type").asString()).isNotBlank();
        assertProblem(api().get("/preference/k"), 503, null);
    }

    /** {@code json} followed by spaces up to exactly {@code size} bytes: still valid JSON. */
    private static byte[] paddedJson(String json, int size) {
        byte[] head = json.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[size];
        Arrays.fill(out, (byte) ' ');
        System.arraycopy(head, 0, out, 0, head.length);
        return out;
    }
}
