package io.ringd.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.ringd.RealServerTest;
import tools.jackson.databind.JsonNode;

/**
 * The edges of HTTP (docs/ring.md sections 17 and 18): the {@code ETag} as
 * {@code If-Match}, headers given twice, a body on {@code DELETE}, transfer
 * codings the container does not know, ids no client can address, request
 * lines and headers over the limit, and event streams that proxies must not buffer.
 */
class HttpEdgesApiTest extends RealServerTest {

    private static final String JSON_PUT = "PUT /nodes/A HTTP/1.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: 12";

    private Snap before;

    @BeforeEach
    void ringOfTwo() {
        reset();
        putAll("A:1", "B:1");
        before = snap();
    }

    @Test
    void theEtagOfGetRing_isTakenAsIfMatch_andMustNameThisRing() {
        String etag = api().get("/ring").header("ETag");
        assertThat(etag).matches("\"\\d+-[0-9a-f]{16}\"");
        String otherRing = etag.substring(0, etag.length() - 2) + (etag.charAt(etag.length() - 2) == '0' ? "1" : "0")
                + "\"";
        JsonNode p = assertProblem(adminJson("{\"weight\":2}").header("If-Match", otherRing).put("/nodes/A"), 412,
                "If-Match");
        assertThat(p.get("type").asString()).isEqualTo("urn:ringd:problem:precondition-failed");
        assertUnchanged(before);
        Response ok = adminJson("{\"weight\":2}").header("If-Match", etag).put("/nodes/A");
        assertThat(ok.statusCode()).as(ok.asString()).isEqualTo(200);
        assertThat(json(ok).get("version").asLong()).isEqualTo(before.version() + 1);
        // The tag of the version before is 412 now, as a bare or quoted version is.
        assertProblem(adminJson("{\"weight\":3}").header("If-Match", etag).put("/nodes/A"), 412, "If-Match");
        assertProblem(admin().header("If-Match", etag).delete("/nodes/B"), 412, "If-Match");
        assertProblem(adminJson("{\"weight\":3}").header("If-Match", Long.toString(before.version())).put("/nodes/A"),
                412, "If-Match");
        // Unquoted, upper-case or cut short, it is no tag of GET /ring: 400.
        String inner = etag.substring(1, etag.length() - 1);
        for (String bad : new String[] {inner, "\"" + inner.toUpperCase() + "\"", etag.substring(0, etag.length() - 2)
                + "\""}) {
            assertProblem(adminJson("{\"weight\":3}").header("If-Match", bad).put("/nodes/A"), 400, "If-Match");
        }
        String current = api().get("/ring").header("ETag");
        assertThat(admin().header("If-Match", current).delete("/nodes/B").statusCode()).isEqualTo(200);
    }

    @Test
    void twoAuthorizationHeaders_are400_beforeAnyAdminCheck_andEchoNoToken() {
        String secret = "second-token-never-echoed";
        for (String second : new String[] {"Bearer " + TOKEN, "Bearer " + secret}) {
            Answer a = rawHttp(JSON_PUT + "\r\nAuthorization: Bearer " + TOKEN + "\r\nAuthorization: " + second,
                    "{\"weight\":9}".getBytes(StandardCharsets.US_ASCII));
            assertProblem(a, 400, "Authorization");
            assertThat(a.body()).doesNotContain(TOKEN).doesNotContain(secret);
            assertThat(a.header("www-authenticate")).isNull();
        }
        // Without a valid one among them it is the same 400, not 401: nothing is read from either.
        assertProblem(rawHttp("DELETE /nodes/A HTTP/1.1\r\nAuthorization: Bearer x\r\nAuthorization: Bearer y", null),
                400, "Authorization");
        assertUnchanged(before);
    }

    @Test
    void twoContentTypeHeaders_are400() {
        Answer a = rawHttp(JSON_PUT + "\r\nAuthorization: Bearer " + TOKEN + "\r\nContent-Type: text/plain",
                "{\"weight\":9}".getBytes(StandardCharsets.US_ASCII));
        assertProblem(a, 400, "Content-Type");
        assertProblem(rawHttp("POST /route HTTP/1.1\r\nContent-Type: application/json\r\n"
                + "Content-Type: application/json\r\nContent-Length: 14", "{\"keys\":[\"a\"]}".getBytes(
                        StandardCharsets.US_ASCII)), 400, "Content-Type");
        assertUnchanged(before);
    }

    @Test
    void anUnknownTransferEncoding_is501_sayingSo() {
        Answer a = rawHttp("POST /route HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip", null);
        JsonNode p = assertProblem(a, 501, null);
        assertThat(p.get("type").asString()).isEqualTo("urn:ringd:problem:not-implemented");
        assertThat(p.get("detail").asString()).contains("the Transfer-Encoding is not supported")
                .doesNotContain("logged");
    }

    @Test
    void aFormBody_isNeverParsedAsParameters_evenWhenItIsNotUtf8() {
        byte[] body = "\u00ff\"keys\":[\"k\"]}".getBytes(StandardCharsets.ISO_8859_1); // 0xFF: not UTF-8
        for (String target : List.of("/route", "/route?key=k", "/nodes/A?x=1")) {
            String method = target.startsWith("/nodes") ? "PUT" : "POST";
            Answer a = rawHttp(method + " " + target + " HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded"
                    + (method.equals("PUT") ? "\r\nAuthorization: Bearer " + TOKEN : "")
                    + "\r\nContent-Length: " + body.length, body);
            assertThat(a.status()).as("%s %s: %s", method, target, a.body()).isBetween(400, 499);
        }
        assertUnchanged(before);
    }

    @Test
    void aTraceWithABody_is405_withTheAllowOfOptions_andNothingElse() {
        for (int i = 0; i < 5; i++) {
            Answer a = rawHttp("TRACE /route HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 10",
                    "\"a\\ud800b\"".getBytes(StandardCharsets.US_ASCII));
            JsonNode p = assertProblem(a, 405, null); // the whole body is the problem: no echo of the request
            String detail = p.get("detail").asString();
            assertThat(detail).startsWith("TRACE is not allowed; allowed: ");
            // the order of Allow is the handler mappings', which is not fixed
            assertThat(detail.substring(detail.indexOf(": ") + 2).split(","))
                    .containsExactlyInAnyOrder("GET", "HEAD", "POST", "OPTIONS");
            assertThat(a.header("Allow").split(",")).containsExactlyInAnyOrder("GET", "HEAD", "POST", "OPTIONS");
        }
    }

    @Test
    void anHttp09Request_isRefusedAsHttp11_neverAnsweredWithABareBody() throws Exception {
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write("GET /route/k\r\n".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1); // closes
            // HTTP/0.9 has no status line: an answer to it would be the bare body. The container answers a
            // version it does not speak with 505, as HTTP/1.1, and closes the connection.
            assertThat(answer).startsWith("HTTP/1.1 505 ").contains("application/problem+json")
                    .contains("ringd speaks HTTP/1.1").doesNotContain("\"node\"");
        }
    }

    @Test
    void transferEncodingWithContentLength_isRefusedOnce_andClosesTheConnection() throws Exception {
        // the smuggling shape: a proxy that frames by Content-Length would forward the second request as the
        // body's tail; the container refuses a request framed both ways (RFC 9112 section 6.3) and closes the
        // connection after its answer, so the second request is never read
        String body = "{\"keys\":[\"k\"]}";
        String smuggled = "DELETE /nodes/A HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + TOKEN
                + "\r\n\r\n";
        String request = "POST /route HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(body.length())
                + "\r\n" + body + "\r\n0\r\n\r\n" + smuggled;
        String answer;
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
        assertThat(answer.split("HTTP/1.1 ", -1)).as(answer).hasSize(2); // one answer
        assertThat(answer).startsWith("HTTP/1.1 400").containsIgnoringCase("Connection: close")
                .contains("application/problem+json");
        assertUnchanged(before); // A is still there
    }

    @Test
    void aDeleteWithABody_is400_andChangesNothing() {
        assertProblem(admin().contentType("application/json").body("{\"id\":\"B\"}").delete("/nodes/A"), 400, "body");
        assertProblem(rawHttp("DELETE /nodes/A HTTP/1.1\r\nAuthorization: Bearer " + TOKEN
                + "\r\nTransfer-Encoding: chunked", "2\r\n{}\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)),
                400, "body");
        assertUnchanged(before);
        Answer empty = rawHttp("DELETE /nodes/A HTTP/1.1\r\nAuthorization: Bearer " + TOKEN + "\r\nContent-Length: 0",
                null);
        assertThat(empty.status()).as(empty.body()).isEqualTo(200);
    }

    @Test
    void dotAndDotDot_areRefusedAsIds_everywhereANodeIsAdded() {
        for (String id : new String[] {".", ".."}) {
            String enc = id.replace(".", "%2E");
            JsonNode p = assertProblem(raw().header("Authorization", "Bearer " + TOKEN)
                    .contentType("application/json").body("{\"weight\":1}").put("/nodes/" + enc), 400, "id");
            assertThat(p.get("detail").asString()).contains(id);
            String put = "[{\"op\":\"put\",\"id\":\"" + id + "\",\"weight\":1}]";
            assertProblem(batch(put), 400, "changes[0].id");
            assertProblem(api().contentType("application/json").body("{\"changes\":" + put + "}").post("/diff"), 400,
                    "changes[0].id");
        }
        // Other ids with dots are ids like any other.
        assertThat(batch("[{\"op\":\"put\",\"id\":\"...\",\"weight\":1},{\"op\":\"put\",\"id\":\".a\",\"weight\":1}]")
                .statusCode()).isEqualTo(200);
        assertThat(api().get("/nodes/....").statusCode()).isEqualTo(404);
    }

    @Test
    void aRequestLineOrHeadersOverTheLimit_are414And431_withTheirTypes() {
        Answer line = rawHttp("GET /route/" + "x".repeat(40 * 1024) + " HTTP/1.1", null);
        assertThat(assertProblem(line, 414, null).get("type").asString()).isEqualTo("urn:ringd:problem:uri-too-long");
        Answer headers = rawHttp("GET /route/k HTTP/1.1\r\nX-Big: " + "x".repeat(40 * 1024), null);
        assertThat(assertProblem(headers, 431, null).get("type").asString())
                .isEqualTo("urn:ringd:problem:headers-too-large");
        // A malformed request line is still a plain 400.
        assertProblem(rawHttp("GET /route/%ZZ HTTP/1.1", null), 400, null);
    }

    @Test
    void theEventStream_isNoCache_forBufferingProxies() throws Exception {
        HttpResponse<InputStream> r = HTTP.send(HttpRequest.newBuilder(uri("/ring/events"))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = r.body()) {
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
            assertThat(r.headers().allValues("Cache-Control")).containsExactly("no-cache");
        }
    }
}
