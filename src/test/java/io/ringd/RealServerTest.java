package io.ringd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.restassured.RestAssured;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.wire.NodeJson;
import io.ringd.wire.SettingsJson;
import io.ringd.wire.WireJson;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one Spring context every real-server API test shares (same annotations,
 * same properties), and the helpers they use. The ring is shared too: its
 * version only grows, so tests assert versions relative to the one they
 * started from, and each test either calls {@link #reset()} or uses node ids
 * of its own.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "ringd.store=memory",
        "ringd.admin.token=" + RealServerTest.TOKEN,
        "ringd.admin.ring-tokens.teams=" + RealServerTest.TEAMS_TOKEN,
        "ringd.data-dir=target/api-test-data",
        "ringd.history.versions=101",
        "ringd.watch.keep-alive=1s",
        // probes only after 1 s of quiet: RingClientApiTest's client drops a stream quiet for 300 ms
        "ringd.watch.probe-interval=1s",
        "ringd.watch.max-streams=" + RealServerTest.MAX_STREAMS,
        "logging.level.io.ringd=WARN",
        "logging.level.org.openapitools=WARN" })
public abstract class RealServerTest {

    protected static final String TOKEN = "api-test-admin-token-0123456789";
    /** The ring token of the ring {@code teams} (docs/ring.md section 22). */
    protected static final String TEAMS_TOKEN = "api-test-teams-ring-token-0123456789";
    /** The most /ring/events streams the shared server keeps open. */
    protected static final int MAX_STREAMS = 20;
    protected static final long SPACE = 1L << 32;
    protected static final String PROBLEM_JSON = "application/problem+json";
    protected static final JsonMapper JSON = JsonMapper.builder().build();
    protected static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** Never in a problem body: exception and class names, stack frames. */
    private static final Pattern LEAK = Pattern.compile(
            "Exception|Error:|java\\.|javax\\.|jakarta\\.|tools\\.jackson|com\\.fasterxml|org\\.springframework"
                    + "|org\\.apache|io\\.ringd|StreamReadConstraints|JsonReadFeature|`[A-Z]\\w*\\.\\w+"
                    + "|\\bat [a-z]+\\.[a-z]+|\\$[A-Z]|<html|<!doctype",
            Pattern.CASE_INSENSITIVE);

    @LocalServerPort
    protected int port;

    // ------------------------------------------------------------ requests

    /** A request to this server, rest-assured encoding paths and query parameters itself. */
    protected RequestSpecification api() {
        return RestAssured.given().baseUri("http://localhost").port(port);
    }

    /** A request whose path and query are sent exactly as written (already percent-encoded). */
    protected RequestSpecification raw() {
        return api().urlEncodingEnabled(false);
    }

    /** An admin request: the bearer token set. */
    protected RequestSpecification admin() {
        return api().header("Authorization", "Bearer " + TOKEN);
    }

    /** An admin request with a JSON body. */
    protected RequestSpecification adminJson(String body) {
        return admin().contentType("application/json").body(body);
    }

    protected URI uri(String rawPathAndQuery) {
        return URI.create("http://localhost:" + port + rawPathAndQuery);
    }

    /** A GET sent with java.net.http, path and query exactly as written. */
    protected HttpResponse<String> httpGet(String rawPathAndQuery) {
        return send(HttpRequest.newBuilder(uri(rawPathAndQuery)).GET());
    }

    /** GET through java.net.http (faster than rest-assured for many lookups), answering 200 with a JSON body. */
    protected JsonNode fastGet(String rawPathAndQuery) {
        HttpResponse<String> r = httpGet(rawPathAndQuery);
        assertThat(r.statusCode()).as("GET %s: %s", rawPathAndQuery, r.body()).isEqualTo(200);
        return json(r.body());
    }

    protected HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    // ------------------------------------------------------------ ring state

    protected JsonNode getJson(String path) {
        Response r = api().get(path);
        assertThat(r.statusCode()).as("GET %s: %s", path, r.asString()).isEqualTo(200);
        return json(r);
    }

    protected long version() {
        return getJson("/ring").get("version").asLong();
    }

    protected String fingerprint() {
        return getJson("/ring").get("fingerprint").asString();
    }

    /** What must not change when a change is refused: version, fingerprint, settings and members. */
    protected record Snap(long version, String fingerprint, String settings, String nodes) {
    }

    protected Snap snap() {
        JsonNode ring = getJson("/ring");
        return new Snap(ring.get("version").asLong(), ring.get("fingerprint").asString(),
                ring.get("settings").toString(), ring.get("nodes").toString());
    }

    protected void assertUnchanged(Snap before) {
        assertThat(snap()).as("a refused or empty change must leave the ring exactly as it was").isEqualTo(before);
    }

    /**
     * Aborts the running or paused plan of the ring under {@code prefix} ("" or "/rings/name"), if any
     * (docs/ring.md section 24): while one holds a ring its other writes are refused.
     */
    protected void endPlans(String prefix) {
        for (JsonNode p : getJson(prefix + "/plans").get("plans")) {
            String state = p.get("state").asString();
            if (state.equals("running") || state.equals("paused")) {
                Response r = admin().post(prefix + "/plans/" + p.get("id").asString() + "/abort");
                assertThat(r.statusCode()).as("abort plan: %s", r.asString()).isIn(200, 409);
            }
        }
    }

    /** Back to an empty md5/128 ring: any plan ended, settings first, then every node removed with one batch. */
    protected void reset() {
        endPlans("");
        Response s = adminJson("{\"hash\":\"md5\",\"vnodesPerWeight\":128,\"algorithm\":\"ring\","
                + "\"maglevTableSize\":65537}").put("/settings");
        assertThat(s.statusCode()).as("reset settings: %s", s.asString()).isEqualTo(200);
        JsonNode nodes = getJson("/nodes").get("nodes");
        if (!nodes.isEmpty()) {
            ArrayNode changes = JSON.createArrayNode();
            for (JsonNode n : nodes) {
                changes.addObject().put("op", "remove").put("id", n.get("id").asString());
            }
            ObjectNode body = JSON.createObjectNode();
            body.set("changes", changes);
            Response r = adminJson(body.toString()).post("/membership");
            assertThat(r.statusCode()).as("reset: %s", r.asString()).isEqualTo(200);
        }
        assertThat(getJson("/nodes").get("nodes")).isEmpty();
    }

    /** Deletes every ring but default (docs/ring.md section 22), so the next test finds only that one. */
    protected void deleteNamedRings() {
        for (JsonNode r : getJson("/rings").get("rings")) {
            String name = r.get("name").asString();
            if (!name.equals("default")) {
                Response d = admin().delete("/rings/" + name);
                assertThat(d.statusCode()).as("DELETE /rings/%s: %s", name, d.asString()).isIn(204, 404);
            }
        }
    }

    /** PUT /nodes/{id}; zone may be null (left out of the body). Returns the answer's version. */
    protected long putNode(String id, double weight, String zone) {
        ObjectNode body = JSON.createObjectNode().put("weight", weight);
        if (zone != null) {
            body.put("zone", zone);
        }
        Response r = adminJson(body.toString()).put("/nodes/" + id);
        assertThat(r.statusCode()).as("PUT /nodes/%s: %s", id, r.asString()).isIn(200, 201);
        return json(r).get("version").asLong();
    }

    /** POST /membership with {@code {"changes": changes}}; returns the response. */
    protected Response batch(String changesJsonArray) {
        return adminJson("{\"changes\":" + changesJsonArray + "}").post("/membership");
    }

    /** Puts every node, as one batch: {@code "A:1", "B:2:eu-1a"} (id:weight[:zone]). */
    protected long putAll(String... specs) {
        Response r = batch(changesOf(specs).toString());
        assertThat(r.statusCode()).as("batch: %s", r.asString()).isEqualTo(200);
        return json(r).get("version").asLong();
    }

    /** Puts every node into the ring {@code ring} (docs/ring.md section 22), as one batch; the version it made. */
    protected long putAllInto(String ring, String... specs) {
        Response r = adminJson("{\"changes\":" + changesOf(specs) + "}").post("/rings/" + ring + "/membership");
        assertThat(r.statusCode()).as("batch into %s: %s", ring, r.asString()).isEqualTo(200);
        assertThat(r.header("X-Ring-Name")).isEqualTo(ring);
        return json(r).get("version").asLong();
    }

    /** The put changes of {@code specs} ("id:weight[:zone]"). */
    protected static ArrayNode changesOf(String... specs) {
        ArrayNode changes = JSON.createArrayNode();
        for (String spec : specs) {
            String[] p = spec.split(":");
            ObjectNode c = changes.addObject().put("op", "put").put("id", p[0]).put("weight", Double.parseDouble(p[1]));
            if (p.length > 2) {
                c.put("zone", p[2]);
            }
        }
        return changes;
    }

    /** The library's ring for the server's current settings and members (GET /ring). */
    protected HashRing libraryRing() {
        JsonNode ring = getJson("/ring");
        return libraryRing(ring.get("settings"), ring.get("nodes"), ring.get("version").asLong());
    }

    /**
     * The library's ring for {@code settings} and {@code nodes} as the server shows them, read
     * through the wire forms the client reads them with (SettingsJson, NodeJson).
     */
    protected static HashRing libraryRing(JsonNode settings, JsonNode nodes, long version) {
        List<Node> members = new ArrayList<>();
        for (JsonNode n : nodes) {
            members.add(WireJson.lenient().treeToValue(n, NodeJson.class).toNode());
        }
        return HashRing.of(WireJson.lenient().treeToValue(settings, SettingsJson.class).toConfig(), version, members);
    }

    // ------------------------------------------------------------ JSON and keys

    protected static JsonNode json(Response r) {
        return JSON.readTree(r.asString());
    }

    protected static JsonNode json(String s) {
        return JSON.readTree(s);
    }

    protected static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.isNull() ? null : n.asString()));
        return out;
    }

    /** A key percent-encoded for the path: every byte outside A-Z a-z 0-9 - . _ ~ as %XX. */
    protected static String enc(String key) {
        StringBuilder sb = new StringBuilder();
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.'
                    || c == '_' || c == '~') {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return sb.toString();
    }

    /** A key form-encoded for the query ({@code +} for a space). */
    protected static String form(String key) {
        return URLEncoder.encode(key, StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------ problems

    /** An answer from any client: status, headers (lower-case names) and body. */
    public record Answer(int status, Map<String, List<String>> headers, String body) {
        public String header(String name) {
            List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
            return v == null || v.isEmpty() ? null : v.get(0);
        }

        public static Answer of(Response r) {
            Map<String, List<String>> h = new TreeMap<>();
            r.headers().forEach(x -> h.computeIfAbsent(x.getName().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(x.getValue()));
            return new Answer(r.statusCode(), h, r.asString());
        }

        public static Answer of(HttpResponse<String> r) {
            Map<String, List<String>> h = new TreeMap<>();
            r.headers().map().forEach((k, v) -> h.put(k.toLowerCase(Locale.ROOT), v));
            return new Answer(r.statusCode(), h, r.body());
        }
    }

    protected static JsonNode assertProblem(Response r, int status, String field) {
        return assertProblem(Answer.of(r), status, field);
    }

    protected static JsonNode assertProblem(HttpResponse<String> r, int status, String field) {
        return assertProblem(Answer.of(r), status, field);
    }

    /**
     * Checks an RFC 9457 problem: the status, application/problem+json,
     * type/title/status/detail, the field at fault ({@code null}: not checked),
     * and nothing of Java in the body.
     */
    protected static JsonNode assertProblem(Answer a, int status, String field) {
        assertThat(a.status()).as("status of %s", a.body()).isEqualTo(status);
        assertThat(a.header("content-type")).as("content type of %s", a.body()).startsWith(PROBLEM_JSON);
        assertNoLeak(a.body());
        JsonNode p = json(a.body());
        assertThat(p.isObject()).isTrue();
        assertThat(p.path("type").asString("")).as("type in %s", a.body()).isNotBlank();
        assertThat(p.path("title").asString("")).as("title in %s", a.body()).isNotBlank();
        assertThat(p.path("status").asInt(-1)).as("status in %s", a.body()).isEqualTo(status);
        assertThat(p.path("detail").asString("")).as("detail in %s", a.body()).isNotBlank();
        if (field != null) {
            assertThat(p.path("field").asString("")).as("field in %s", a.body()).isEqualTo(field);
        }
        return p;
    }

    protected static void assertNoLeak(String body) {
        assertThat(LEAK.matcher(body).find()).as("no Java names, stack traces or HTML in %s", body).isFalse();
    }

    /** Waits until the /ring/events streams of earlier tests have been noticed closed. */
    protected void awaitNoStreams() throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!streamsGauge().equals("0.0") && System.nanoTime() < end) {
            Thread.sleep(50);
        }
        assertThat(streamsGauge()).as("open streams before the test").isEqualTo("0.0");
    }

    /** The server's {@code ringd_watch_streams} gauge as written, or "absent". */
    protected String streamsGauge() {
        return httpGet("/actuator/prometheus").body().lines()
                .filter(l -> l.startsWith("ringd_watch_streams ") || l.startsWith("ringd_watch_streams{"))
                .map(l -> l.substring(l.lastIndexOf(' ') + 1)).findFirst().orElse("absent");
    }

    // ------------------------------------------------------------ raw HTTP

    /**
     * Sends {@code head} (the request line and headers, ISO-8859-1, CRLF
     * line ends, without the blank line) and {@code body} over a plain
     * socket, exactly as given, and reads the answer until the server closes.
     */
    protected Answer rawHttp(String head, byte[] body) {
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write((head + "\r\nHost: localhost\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                try {
                    out.write(body);
                } catch (IOException e) {
                    // the server may answer and close before reading everything: read what it said
                }
            }
            out.flush();
            s.shutdownOutput(); // nothing more comes: the server need not wait for an announced body
            return parse(s.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Answer parse(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            for (int n; (n = in.read(buf)) >= 0;) {
                all.write(buf, 0, n);
            }
        } catch (IOException e) {
            if (all.size() == 0) {
                throw e;
            }
        }
        byte[] bytes = all.toByteArray();
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        assertThat(end).as("an HTTP answer: %s", text).isPositive();
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, List<String>> headers = new TreeMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.computeIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    k -> new ArrayList<>()).add(lines[i].substring(colon + 1).trim());
        }
        byte[] rest = java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length);
        List<String> te = headers.get("transfer-encoding");
        if (te != null && te.get(0).equalsIgnoreCase("chunked")) {
            rest = dechunk(rest);
        }
        return new Answer(status, headers, new String(rest, StandardCharsets.UTF_8));
    }

    private static byte[] dechunk(byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i < b.length) {
            int lineEnd = i;
            while (lineEnd + 1 < b.length && !(b[lineEnd] == '\r' && b[lineEnd + 1] == '\n')) {
                lineEnd++;
            }
            String size = new String(b, i, lineEnd - i, StandardCharsets.ISO_8859_1).split(";")[0].trim();
            int n = Integer.parseInt(size, 16);
            if (n == 0) {
                break;
            }
            out.write(b, lineEnd + 2, n);
            i = lineEnd + 2 + n + 2;
        }
        return out.toByteArray();
    }
}
