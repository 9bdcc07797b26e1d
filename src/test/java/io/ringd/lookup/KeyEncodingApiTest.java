package io.ringd.lookup;

import io.ringd.RealServerTest;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.ringd.ring.HashRing;
import tools.jackson.databind.JsonNode;

/**
 * Keys on the wire (docs/ring.md section 17): any UTF-8 key of 1 to 4096 bytes,
 * percent-encoded in the path or form-encoded in the query, and nothing
 * malformed ever answered with an HTML page.
 */
class KeyEncodingApiTest extends RealServerTest {

    private HashRing lib;

    @BeforeEach
    void ringOfFour() {
        reset();
        putAll("A:1", "B:1", "C:2", "D:0.5");
        lib = libraryRing();
    }

    static Stream<String> specialKeys() {
        return Stream.of("a/b", "/", "//", "/leading", "trailing/", "a//b", "%", "%%", "%2F", "%25", "%ZZ", "100%",
                "a;b", ";", "a;jsessionid=1", "a b", " ", " lead", "trail ", "a+b", "+", "a%2F..%2Fb", "a/../b",
                "../x", "x/..", "..", ".", "...", ".x", "a?b=c&d", "#frag", "a#b", "\\back\\slash", "~-._", "!'()*",
                "[]{}|^`\"<>", "ü", "ключ", "日本語", "🙂 smile", "𝄞", "e\u0301", "tab\tkey", "line\nbreak", "\u007f",
                "\u00a0nbsp", "key:42", "@:=,$&");
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("specialKeys")
    void route_pathAndQueryAnswerTheSameForAnyKey(String key) {
        HttpResponse<String> path = httpGet("/route/" + enc(key));
        assertThat(path.statusCode()).as("%s -> %s", enc(key), path.body()).isEqualTo(200);
        JsonNode body = json(path.body());
        assertThat(body.get("key").asString()).isEqualTo(key);
        assertThat(body.get("hash").asLong()).isEqualTo(lib.hash(key));
        assertThat(body.get("node").asString()).isEqualTo(lib.route(key));

        HttpResponse<String> query = httpGet("/route?key=" + form(key));
        assertThat(query.statusCode()).as(query.body()).isEqualTo(200);
        assertThat(json(query.body())).isEqualTo(body);
        // a query key percent-encoded the path's way reads the same too (no '+' in it)
        assertThat(json(httpGet("/route?key=" + enc(key)).body())).isEqualTo(body);

        HttpResponse<String> pref = httpGet("/preference/" + enc(key) + "?n=2");
        assertThat(pref.statusCode()).as(pref.body()).isEqualTo(200);
        assertThat(json(pref.body()).get("key").asString()).isEqualTo(key);
        assertThat(strings(json(pref.body()).get("nodes"))).isEqualTo(lib.preference(key, 2, false));
        assertThat(json(httpGet("/preference?key=" + form(key) + "&n=2").body())).isEqualTo(json(pref.body()));
    }

    @Test
    void plus_isAPlusInThePathAndASpaceInTheQuery() {
        assertThat(json(httpGet("/route/a+b").body()).get("key").asString()).isEqualTo("a+b");
        assertThat(json(httpGet("/route?key=a+b").body()).get("key").asString()).isEqualTo("a b");
        assertThat(json(httpGet("/route?key=a%2Bb").body()).get("key").asString()).isEqualTo("a+b");
        assertThat(json(httpGet("/route/a%20b").body())).isEqualTo(json(httpGet("/route?key=a+b").body()));
    }

    @Test
    void rawUnreservedAndSubDelimiterBytes_inThePath_areTakenAsTheyAre() {
        // what a lenient client might leave unencoded: still the same key
        for (String raw : List.of("a:b", "a@b", "a!b", "a'b", "a(b)", "a*b", "a,b", "a=b", "a$b", "a&b", "~x")) {
            HttpResponse<String> r = httpGet("/route/" + raw);
            assertThat(r.statusCode()).as(raw).isEqualTo(200);
            assertThat(json(r.body()).get("key").asString()).as(raw).isEqualTo(raw);
        }
    }

    @Test
    void key_ofExactly4096BytesOfThreeByteChars_worksInPathQueryAndBatch() {
        String key = "€".repeat(1365) + "x"; // 1365 x 3 + 1 = 4096 bytes
        assertThat(key.getBytes(StandardCharsets.UTF_8)).hasSize(4096);
        String path = "/route/" + enc(key);
        assertThat(path.length()).isGreaterThan(12 * 1024);

        HttpResponse<String> r = httpGet(path);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(json(r.body()).get("key").asString()).isEqualTo(key);
        assertThat(json(r.body()).get("node").asString()).isEqualTo(lib.route(key));
        assertThat(json(httpGet("/route?key=" + form(key)).body()).get("key").asString()).isEqualTo(key);
        assertThat(httpGet("/preference/" + enc(key)).statusCode()).isEqualTo(200);
        JsonNode batch = json(api().contentType("application/json")
                .body("{\"keys\":[\"" + key + "\"]}").post("/route"));
        assertThat(batch.get("routes").get(0).get("key").asString()).isEqualTo(key);

        String emoji = "🙂".repeat(1024); // 4-byte characters, 4096 bytes
        assertThat(httpGet("/route/" + enc(emoji)).statusCode()).isEqualTo(200);
    }

    @Test
    void key_of4097Bytes_is400NamingTheKey() {
        String key = "€".repeat(1365) + "xy";
        assertThat(key.getBytes(StandardCharsets.UTF_8)).hasSize(4097);
        assertProblem(httpGet("/route/" + enc(key)), 400, "key");
        assertProblem(httpGet("/route?key=" + form(key)), 400, "key");
        assertProblem(httpGet("/preference/" + enc(key)), 400, "key");
        assertProblem(httpGet("/route/" + "x".repeat(4097)), 400, "key");
        assertProblem(httpGet("/route/" + enc("🙂".repeat(1024) + "x")), 400, "key");
    }

    @Test
    void emptyOrMissingKey_is400NamingTheKey() {
        assertProblem(httpGet("/route?key="), 400, "key");
        assertProblem(httpGet("/preference?key="), 400, "key");
        assertProblem(httpGet("/route/"), 400, "key");
        assertProblem(httpGet("/preference/"), 400, "key");
        assertProblem(httpGet("/route"), 400, "key");
        assertProblem(httpGet("/preference?n=2"), 400, "key");
    }

    @Test
    void dotKeys_encodedAsPercent2E_workInThePath() {
        assertThat(fastGet("/route/%2E").get("key").asString()).isEqualTo(".");
        assertThat(fastGet("/route/%2E%2E").get("key").asString()).isEqualTo("..");
        assertThat(fastGet("/route/%2E%2E").get("node").asString()).isEqualTo(lib.route(".."));
        assertThat(fastGet("/preference/%2E%2E").get("key").asString()).isEqualTo("..");
        assertThat(fastGet("/route?key=..")).isEqualTo(fastGet("/route/%2E%2E"));
    }

    @Test
    void controlCharacterKeys_travelInTheQueryAndTheBatch() {
        // the container refuses %00 in a path (400, a problem); the query and POST /route take it
        for (String key : List.of("\u0000", "a\u0000b", "\u0001", "\r\n")) {
            JsonNode q = fastGet("/route?key=" + form(key));
            assertThat(q.get("key").asString()).isEqualTo(key);
            assertThat(q.get("node").asString()).isEqualTo(lib.route(key));
        }
        assertProblem(rawHttp("GET /route/%00 HTTP/1.1", null), 400, null);
        assertThat(json(api().contentType("application/json").body("{\"keys\":[\"\\u0000\"]}").post("/route"))
                .get("routes").get(0).get("key").asString()).isEqualTo("\u0000");
    }

    @Test
    void rawSemicolonInThePath_is400NamingTheKey() {
        Snap before = snap();
        for (String path : List.of("/route/a;b", "/route/;", "/route/a;jsessionid=x", "/preference/a;b",
                "/preference/a;b?n=2")) {
            HttpResponse<String> r = httpGet(path);
            JsonNode p = assertProblem(r, 400, "key");
            assertThat(p.get("detail").asString()).contains("%3B");
        }
        assertThat(json(httpGet("/route/a%3Bb").body()).get("key").asString()).isEqualTo("a;b");
        assertProblem(send(HttpRequest.newBuilder(uri("/nodes/A;x")).header("Authorization", "Bearer " + TOKEN)
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString("{\"weight\":9}"))),
                400, null);
        assertUnchanged(before);
    }

    @Test
    void malformedPercentEncoding_isAProblemNotAnHtmlPage() {
        for (String path : List.of("/route/%ZZ", "/route/%", "/route/a%2", "/route/%FF", "/route/%C3",
                "/route/%C3%28", "/route/%ED%A0%80", "/route/%F0%9F%99", "/preference/%FF", "/nodes/%FF")) {
            Answer a = rawHttp("GET " + path + " HTTP/1.1", null);
            assertProblem(a, 400, null);
        }
    }

    @Test
    void malformedQueryEncoding_is400NotA500() {
        // docs/ring.md section 18: never a 500 for bad input
        SoftAssertions soft = new SoftAssertions();
        for (String pathAndQuery : List.of("/route?key=%ZZ", "/route?key=%FF", "/route?key=a%2", "/route?key=%C3%28",
                "/preference?key=%ZZ", "/route/k?version=%ZZ", "/diff?from=%FF")) {
            Answer a = rawHttp("GET " + pathAndQuery + " HTTP/1.1", null);
            soft.assertThat(a.status()).as("%s -> %s", pathAndQuery, a.body()).isEqualTo(400);
            soft.assertThat(a.header("content-type")).as(pathAndQuery).startsWith(PROBLEM_JSON);
            assertNoLeak(a.body());
        }
        soft.assertAll();
    }

    @Test
    void tooLongRequestLineOrHeaders_isAProblemNotAnHtmlPage() {
        Answer line = rawHttp("GET /route/" + "x".repeat(33 * 1024) + " HTTP/1.1", null);
        assertThat(line.status()).isIn(400, 414, 431);
        assertProblem(line, line.status(), null);

        Answer header = rawHttp("GET /route/x HTTP/1.1\r\nX-Big: " + "y".repeat(40 * 1024), null);
        assertThat(header.status()).isIn(400, 431);
        assertProblem(header, header.status(), null);

        Answer garbage = rawHttp("NOT HTTP AT ALL", null);
        assertThat(garbage.status()).isBetween(400, 505);
        assertProblem(garbage, garbage.status(), null);
    }

    @Test
    void noHtml_evenWhenTheClientAsksForIt() {
        for (String path : List.of("/nope", "/route/k?n=x&version=x", "/nodes/nope", "/route/k", "/ring")) {
            HttpResponse<String> r = send(HttpRequest.newBuilder(uri(path)).header("Accept", "text/html").GET());
            assertThat(r.statusCode()).as(path).isGreaterThanOrEqualTo(400);
            assertThat(r.headers().firstValue("content-type").orElse("")).as(path).doesNotContain("html");
            assertNoLeak(r.body());
        }
    }
}
