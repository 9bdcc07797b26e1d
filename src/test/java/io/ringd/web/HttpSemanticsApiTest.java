package io.ringd.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.ringd.RealServerTest;
import io.ringd.web.problem.Problems;
import tools.jackson.databind.JsonNode;

/**
 * HTTP as clients expect it: 406 for an Accept that excludes JSON, Allow
 * headers that agree with OPTIONS, no TRACE, no 500 from /error, gzip for
 * large answers, and errors of the container and the framework with problem
 * types of their own.
 */
class HttpSemanticsApiTest extends RealServerTest {

    private Snap before;

    @BeforeEach
    void ringOfThree() {
        reset();
        putAll("A:1", "B:1", "C:1:eu-1a");
        before = snap();
    }

    @Test
    void anAcceptThatExcludesJson_is406Problem() {
        for (String accept : List.of("text/html", "application/yaml", "application/xml", "image/png, text/plain",
                "garbage")) {
            for (String path : List.of("/route/k", "/ring", "/nodes", "/ownership")) {
                Answer a = Answer.of(send(HttpRequest.newBuilder(uri(path)).header("Accept", accept)));
                JsonNode p = assertProblem(a, 406, "Accept");
                assertThat(p.get("type").asString()).isEqualTo("urn:ringd:problem:not-acceptable");
                assertThat(p.get("detail").asString()).as(accept).doesNotContain("yaml");
            }
        }
        for (String accept : List.of("application/json", "*/*", "application/*", "text/html, application/json;q=0.1")) {
            assertThat(api().header("Accept", accept).get("/route/k").statusCode()).as(accept).isEqualTo(200);
        }
    }

    @Test
    void anAdminWrite_thatAsksForAnAnswerRingdDoesNotGive_is406_andIsNotApplied() {
        // Negotiated before the handler runs: a write must never be applied and then answered 406.
        admin().contentType("application/json").body("{\"weight\":1}").put("/nodes/neg-a").then().statusCode(201);
        String before = api().get("/ring").header("ETag");
        for (String accept : List.of("application/xml", "text/html", "application/json;q=0")) {
            assertProblem(Answer.of(admin().header("Accept", accept).delete("/nodes/neg-a")), 406, "Accept");
            assertProblem(Answer.of(admin().header("Accept", accept).contentType("application/json")
                    .body("{\"weight\":2}").put("/nodes/neg-b")), 406, "Accept");
            assertThat(api().get("/ring").header("ETag")).as(accept).isEqualTo(before);
        }
        admin().header("Accept", "text/html, application/json;q=0.5").delete("/nodes/neg-a").then().statusCode(200);
        assertThat(api().get("/ring").header("ETag")).isNotEqualTo(before);
    }

    /** Each path of the API description, with its path parameters filled in, and its operations. */
    private Map<String, Set<String>> paths() {
        JsonNode doc = getJson("/v3/api-docs").get("paths");
        Map<String, Set<String>> out = new java.util.TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = doc.properties().iterator(); it.hasNext();) {
            Map.Entry<String, JsonNode> p = it.next();
            String path = p.getKey().replaceAll("\\{[^}]+}", "A");
            Set<String> methods = new TreeSet<>();
            p.getValue().propertyNames().forEach(m -> methods.add(m.toUpperCase(Locale.ROOT)));
            out.computeIfAbsent(path, k -> new TreeSet<>()).addAll(methods);
        }
        return out;
    }

    private static Set<String> allow(String header) {
        assertThat(header).as("an Allow header").isNotNull();
        return Arrays.stream(header.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void allowHeaders_of405AndTrace_agreeWithOptions_onEveryPath() {
        for (Map.Entry<String, Set<String>> p : paths().entrySet()) {
            String path = p.getKey();
            Set<String> options = allow(admin().options(path).header("Allow"));
            assertThat(options).as("OPTIONS %s", path).containsAll(p.getValue()).contains("OPTIONS")
                    .doesNotContain("TRACE");
            for (String method : List.of("GET", "PUT", "POST", "DELETE", "PATCH")) {
                if (options.contains(method)) {
                    continue;
                }
                Response r = admin().request(method, path);
                assertProblem(r, 405, null);
                assertThat(allow(r.header("Allow"))).as("%s %s: Allow", method, path).isEqualTo(options);
            }
            Answer trace = rawHttp("TRACE " + path + " HTTP/1.1", null);
            assertProblem(trace, 405, null);
            assertThat(allow(trace.header("allow"))).as("TRACE %s: Allow", path).isEqualTo(options);
        }
        assertUnchanged(before);
    }

    @Test
    void trace_is405Everywhere_andNeverEchoesTheRequest() {
        for (String path : List.of("/route/k", "/ring", "/nodes/A", "/actuator/health", "/v3/api-docs", "/error",
                "/swagger-ui.html", "/nope", "/")) {
            Answer a = rawHttp("TRACE " + path + " HTTP/1.1\r\nX-Secret: echo-me\r\nAuthorization: Bearer " + TOKEN,
                    null);
            assertProblem(a, 405, null);
            assertThat(a.body()).doesNotContain("echo-me").doesNotContain(TOKEN);
            assertThat(a.header("content-type")).doesNotContain("message/http");
        }
    }

    @Test
    void errorPath_askedDirectly_is404Problem_never500() {
        for (String method : List.of("GET", "POST", "PUT", "DELETE")) {
            Answer a = rawHttp(method + " /error HTTP/1.1", null);
            JsonNode p = assertProblem(a, 404, null);
            assertThat(p.get("type").asString()).isEqualTo("urn:ringd:problem:not-found");
        }
        assertProblem(httpGet("/error?status=500"), 404, null);
    }

    @Test
    void containerAndFrameworkErrors_haveTypesOfTheirOwn_neverTheRings() {
        Set<String> ringsOwn = Set.of("no-nodes", "store-unavailable", "store-lost", "reseed-refused", "busy",
                "body-timeout", "limit-exceeded", "node-not-found", "version-not-found", "version-gone",
                "version-without-nodes", "precondition-failed");
        for (int status = 400; status < 600; status++) {
            var p = Problems.forStatus(status, "x");
            assertThat(p.getStatus()).isEqualTo(status);
            assertThat(p.getType().toString()).as("type for %s", status).startsWith(Problems.TYPE_PREFIX);
            assertThat(ringsOwn).as("status %s", status).doesNotContain(p.getType().toString()
                    .substring(Problems.TYPE_PREFIX.length()));
        }
        assertThat(Problems.forStatus(503, "x").getTitle()).isEqualTo("Service unavailable");
        // A malformed request line, refused by the container itself.
        JsonNode bad = assertProblem(rawHttp("GET /route/%ZZ HTTP/1.1", null), 400, null);
        assertThat(bad.get("type").asString()).isEqualTo("urn:ringd:problem:bad-request");
        // Request headers past the limit.
        Answer big = rawHttp("GET /route/k HTTP/1.1\r\nX-Big: " + "x".repeat(40 * 1024), null);
        assertThat(big.status()).isEqualTo(431);
        assertProblem(big, big.status(), null);
        // The framework's 405 and 415.
        assertThat(assertProblem(api().delete("/ring"), 405, null).get("type").asString())
                .isEqualTo("urn:ringd:problem:method-not-allowed");
        assertThat(assertProblem(admin().contentType("text/plain").body("x").put("/nodes/A"), 415, "Content-Type")
                .get("type").asString()).isEqualTo("urn:ringd:problem:unsupported-media-type");
        assertUnchanged(before);
    }

    @Test
    void largeAnswers_areGzipped_forAClientThatAcceptsIt() throws IOException {
        StringBuilder changes = new StringBuilder("[");
        for (int i = 0; i < 300; i++) {
            changes.append(i == 0 ? "" : ",").append("{\"op\":\"put\",\"id\":\"gz-").append(i)
                    .append("\",\"weight\":1}");
        }
        assertThat(batch(changes + "]").statusCode()).isEqualTo(200);
        for (String path : List.of("/ownership", "/diff?from=" + before.version() + "&maxRanges=5000")) {
            HttpResponse<byte[]> r = bytes(HttpRequest.newBuilder(uri(path)).header("Accept-Encoding", "gzip"));
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Encoding")).as(path).hasValue("gzip");
            String text = new String(new GZIPInputStream(new ByteArrayInputStream(r.body())).readAllBytes(),
                    StandardCharsets.UTF_8);
            assertThat(json(text).isObject()).isTrue();
            HttpResponse<byte[]> plain = bytes(HttpRequest.newBuilder(uri(path)));
            assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
            assertThat(new String(plain.body(), StandardCharsets.UTF_8)).isEqualTo(text);
        }
        HttpResponse<byte[]> small = bytes(HttpRequest.newBuilder(uri("/route/k")).header("Accept-Encoding", "gzip"));
        assertThat(small.headers().firstValue("Content-Encoding")).as("a small answer").isEmpty();
    }

    private HttpResponse<byte[]> bytes(HttpRequest.Builder b) {
        try {
            return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void headOfTheEventStream_endsWithItsHeaders() {
        Answer a = rawHttp("HEAD /ring/events HTTP/1.1", null);
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.header("content-type")).startsWith("text/event-stream");
    }
}
