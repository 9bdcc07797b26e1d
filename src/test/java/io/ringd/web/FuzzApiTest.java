package io.ringd.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.ringd.RealServerTest;
import tools.jackson.databind.JsonNode;

/**
 * Seeded random hostile input against every operation the API description
 * lists (a new endpoint is covered without a change here): paths, query
 * strings, headers and JSON bodies, built from each operation's declared
 * parameters and body schema and then broken: malformed and truncated JSON,
 * deep nesting, huge and tiny numbers, NaN and Infinity, duplicate and
 * unknown fields, wrong types, control characters, invalid UTF-8 and
 * percent-encoding, oversized bodies, keys and batches, odd
 * {@code Last-Event-ID}, {@code If-Match}, {@code X-Ring-Version} and {@code X-Ring-Incarnation} values.
 *
 * <p>Every answer is a 4xx problem detail (or, for input valid by chance, a
 * 2xx or 304), never a 5xx, never a Java name or stack trace; and a refused
 * request leaves the ring as it was (its {@code ETag} still matches). The
 * seed is {@value #DEFAULT_SEED} unless {@code -Dringd.seed=N} is given; it
 * is printed and in every failure message.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FuzzApiTest extends RealServerTest {

    private static final long DEFAULT_SEED = 20_261_130L;
    private static final int REQUESTS = 1_500;
    private static final String[] MEMBERS = {"fuzz-a:1:eu-1a", "fuzz-b:2:eu-1b", "fuzz-c:1"};
    /** Event streams opened by valid-by-chance requests: well under the test server's limit. */
    private static final int MAX_STREAMS_OPENED = 6;
    private static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS",
            "TRACE");

    /** One operation of the API description. */
    private record Operation(String method, String path, List<String> pathParams, Map<String, String> query,
            JsonNode bodySchema, boolean admin) {
    }

    private final List<Operation> operations = new ArrayList<>();
    private JsonNode components;
    private Random random;
    private long seed;
    private String etag;
    private int streams;
    private String last = "";

    @BeforeEach
    void ringAndOperations() {
        reset();
        putAll(MEMBERS);
        JsonNode doc = getJson("/v3/api-docs");
        components = doc.path("components").path("schemas");
        for (Iterator<Map.Entry<String, JsonNode>> paths = doc.get("paths").properties().iterator();
                paths.hasNext();) {
            Map.Entry<String, JsonNode> p = paths.next();
            for (Iterator<Map.Entry<String, JsonNode>> ops = p.getValue().properties().iterator(); ops.hasNext();) {
                Map.Entry<String, JsonNode> o = ops.next();
                if (!METHODS.contains(o.getKey().toUpperCase())) {
                    continue;
                }
                List<String> pathParams = new ArrayList<>();
                Map<String, String> query = new java.util.LinkedHashMap<>();
                for (JsonNode param : o.getValue().path("parameters")) {
                    String type = param.path("schema").path("type").asString("string");
                    switch (param.path("in").asString()) {
                        case "path" -> pathParams.add(param.get("name").asString());
                        case "query" -> query.put(param.get("name").asString(), type);
                        default -> {
                        }
                    }
                }
                JsonNode body = o.getValue().path("requestBody").path("content").path("application/json")
                        .path("schema");
                operations.add(new Operation(o.getKey().toUpperCase(), p.getKey(), pathParams, query,
                        body.isMissingNode() ? null : body, o.getValue().has("security")));
            }
        }
        assertThat(operations).as("operations of /v3/api-docs").hasSizeGreaterThan(15);
        seed = Long.getLong("ringd.seed", DEFAULT_SEED);
        System.out.println("FuzzApiTest: seed " + seed + " (replay with -Dringd.seed=" + seed + ")");
        random = new Random(seed);
        etag = api().get("/ring").header("ETag");
    }

    @AfterEach
    void cleanUp() {
        reset();
        deleteNamedRings(); // a POST /rings valid by chance made one
    }

    @Test
    void hostileRequests_toEveryOperation_areRefusedWithProblems_neverA5xx_andChangeNothing() {
        for (int i = 0; i < REQUESTS; i++) {
            Operation op = operations.get(random.nextInt(operations.size()));
            Sent sent = request(op);
            last = sent.describe();
            String what = "seed " + seed + ", request " + i + ": " + sent.describe();
            Answer a = sent.answer;
            if (a.status() == 503 && a.body().contains("urn:ringd:problem:no-nodes")
                    && sent.target.contains("version=")) {
                // a lookup at a past version whose ring had no node (the shared server's rings between
                // tests are empty): the contract's answer, not a fault; the current ring always has members
                assertThat(sent.target).as(what).doesNotContainPattern("version=" + version() + "(?![0-9])");
                continue;
            }
            assertThat(a.status()).as("%s answered %s", what, a.body()).isLessThan(500).isGreaterThanOrEqualTo(200);
            if (a.status() >= 400) {
                if (!sent.method.equals("HEAD")) {
                    JsonNode p = assertProblemAs(what, a);
                    assertThat(p.path("status").asInt()).as(what).isEqualTo(a.status());
                }
                if (!sent.method.equals("GET") && !sent.method.equals("HEAD")) {
                    assertThat(ringTag()).as("%s: the refused request changed the ring", what).isEqualTo(etag);
                }
            } else if (sent.method.equals("PUT") || sent.method.equals("POST") || sent.method.equals("DELETE")) {
                // valid by chance: the ring may have moved on; keep the members lookups need
                putAll(MEMBERS);
                etag = ringTag();
            }
        }
    }

    private JsonNode assertProblemAs(String what, Answer a) {
        assertThat(a.header("content-type")).as("%s: content type of %s", what, a.body())
                .startsWith(PROBLEM_JSON);
        try {
            assertNoLeak(a.body());
        } catch (AssertionError e) {
            throw new AssertionError(what + ": " + e.getMessage(), e);
        }
        JsonNode p = json(a.body());
        assertThat(p.path("type").asString("")).as("%s: type of %s", what, a.body()).startsWith("urn:ringd:problem:");
        assertThat(p.path("title").asString("")).as(what).isNotBlank();
        assertThat(p.path("detail").asString("")).as(what).isNotBlank();
        return p;
    }

    private String ringTag() {
        return api().get("/ring").header("ETag");
    }

    // ------------------------------------------------------------ requests

    private final class Sent {
        String method;
        String target;
        byte[] body;
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        Answer answer;

        String describe() {
            String b = body == null ? "" : new String(body, 0, Math.min(body.length, 300), StandardCharsets.UTF_8);
            return method + " " + (target.length() > 300 ? target.substring(0, 300) + "..." : target) + " "
                    + headers + " " + b + (body != null && body.length > 300 ? "... (" + body.length + " bytes)" : "");
        }
    }

    private Sent request(Operation op) {
        Sent s = new Sent();
        s.method = random.nextInt(20) == 0 ? pick(METHODS) : op.method;
        String path = op.path;
        for (String name : op.pathParams) {
            path = path.replace("{" + name + "}", pathValue());
        }
        StringBuilder query = new StringBuilder();
        for (Map.Entry<String, String> q : op.query.entrySet()) {
            if (random.nextInt(3) > 0) {
                query.append(query.isEmpty() ? "?" : "&").append(q.getKey()).append('=')
                        .append(queryValue(q.getKey(), q.getValue()));
            }
        }
        switch (random.nextInt(12)) {
            case 0 -> query.append(query.isEmpty() ? "?" : "&").append(pick(List.of("version", "colour", "Key",
                    "n", "maxrange", "maxflows", "nodes", "%ZZ", "a%C0%AE", "x"))).append("=1");
            case 1 -> query.append(query.isEmpty() ? "?" : "&").append(query.isEmpty() ? "key=a&key=b" : "&&=");
            default -> {
            }
        }
        s.target = path + query;
        boolean streams = op.path.equals("/ring/events") && s.method.equals("GET");
        if (streams && this.streams >= MAX_STREAMS_OPENED) {
            s.target = path + "?after=" + pick(List.of("-1", "%ZZ", "1e400")) + "&bogus=1";
        }
        headers(s, op);
        if (op.bodySchema != null && !s.method.equals("GET") && !s.method.equals("HEAD")
                || random.nextInt(30) == 0) {
            s.body = body(op.bodySchema);
            s.headers.putIfAbsent("Content-Type", random.nextInt(12) > 0 ? "application/json"
                    : pick(List.of("text/plain", "application/json; charset=ISO-8859-1", "application/xml",
                            "application/json; charset=utf-8", "application/problem+json", "json",
                            "application/x-www-form-urlencoded")));
        }
        s.answer = send(s, streams);
        return s;
    }

    private void headers(Sent s, Operation op) {
        if (op.admin || random.nextInt(10) == 0) {
            s.headers.put("Authorization", random.nextInt(8) > 0 ? "Bearer " + TOKEN : pick(List.of("Bearer ",
                    "Bearer wrong-token-0123456789", "Basic YWRtaW46YWRtaW4=", "bearer " + TOKEN + "x", TOKEN)));
        }
        if (random.nextInt(4) == 0) {
            String tag = etag == null ? "\"0-0000000000000000\"" : etag;
            s.headers.put("If-Match", pick(List.of("*", "\"7\"", "W/\"1\"", "-1", "99999999999999999999999",
                    "\"\"", "\"", "1e3", "NaN", "0x10", "1, 2", " 3 ", "\"abc\"", "\u00e9", tag, "W/" + tag,
                    tag.replace("-", "-f"), tag.substring(0, tag.length() - 2) + "\"", tag + ", " + tag)));
        }
        if (random.nextInt(10) == 0) {
            s.headers.put("Origin", pick(List.of("https://elsewhere.example", "null", "http://localhost:" + port,
                    "garbage", "")));
            if (random.nextBoolean()) {
                s.headers.put("Access-Control-Request-Method", pick(List.of("GET", "PUT", "DELETE", "PATCH",
                        "TRACE", "get", "", "X")));
            }
        }
        if (random.nextInt(6) == 0) {
            s.headers.put("If-None-Match", pick(List.of("*", "\"1\"", "W/\"2-0000000000000000\"", "garbage",
                    "\"", ",,,", "\"99999999999999999999999-x\"")));
        }
        if (random.nextInt(5) == 0) {
            s.headers.put("Last-Event-ID", pick(List.of("-1", "0", "1", "99999999999999999999999", "1e400", "NaN",
                    "abc", " 2", "\u00ff")));
        }
        if (random.nextInt(5) == 0) {
            s.headers.put("X-Ring-Version", pick(List.of("-1", "0", "1", "99999999999999999999999", "abc", "1.5",
                    "999999999999999999")));
        }
        if (random.nextInt(6) == 0) {
            s.headers.put("X-Ring-Incarnation", pick(List.of("0123456789abcdef", "0123456789ABCDEF", "zz",
                    "0123456789abcdef0", "-1", "\u00e9", "0123456789abcde ")));
        }
        if (random.nextInt(8) == 0) {
            s.headers.put("Accept", pick(List.of("text/html", "application/yaml", "application/xml", "*/*",
                    "application/*", "garbage", "application/json;q=0", "image/png, text/plain",
                    "application/problem+json")));
        }
        if (random.nextInt(25) == 0) {
            s.headers.put("Content-Encoding", pick(List.of("gzip", "br", "deflate", "identity", "x-made-up")));
        }
    }

    private Answer send(Sent s, boolean stream) {
        HttpRequest.Builder b;
        try {
            b = HttpRequest.newBuilder(URI.create("http://localhost:" + port + s.target));
        } catch (IllegalArgumentException e) {
            // java.net.http refuses this target itself: send it over a socket, byte for byte
            return rawSend(s);
        }
        s.headers.forEach((k, v) -> {
            try {
                b.header(k, v);
            } catch (IllegalArgumentException e) {
                // a header java.net.http will not send (a restricted name or value): leave it out
            }
        });
        b.method(s.method, s.body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(s.body));
        try {
            HttpResponse<InputStream> r = HTTP.send(b.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            String contentType = r.headers().firstValue("content-type").orElse("");
            try (InputStream in = r.body()) {
                if (contentType.startsWith("text/event-stream")) {
                    streams++;
                    return Answer.of(new Stub(r, ""));
                }
                return Answer.of(new Stub(r, new String(in.readAllBytes(), StandardCharsets.UTF_8)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("seed " + seed + ": " + s.describe() + " after " + last, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private Answer rawSend(Sent s) {
        StringBuilder head = new StringBuilder(s.method + " " + s.target + " HTTP/1.1");
        s.headers.forEach((k, v) -> head.append("\r\n").append(k).append(": ").append(v));
        if (s.body != null) {
            head.append("\r\nContent-Length: ").append(s.body.length);
        }
        return rawHttp(head.toString(), s.body);
    }

    /** An HttpResponse whose body has been read as a string. */
    private record Stub(HttpResponse<InputStream> r, String text) implements HttpResponse<String> {
        public int statusCode() {
            return r.statusCode();
        }

        public HttpRequest request() {
            return r.request();
        }

        public java.util.Optional<HttpResponse<String>> previousResponse() {
            return java.util.Optional.empty();
        }

        public java.net.http.HttpHeaders headers() {
            return r.headers();
        }

        public String body() {
            return text;
        }

        public java.util.Optional<javax.net.ssl.SSLSession> sslSession() {
            return java.util.Optional.empty();
        }

        public URI uri() {
            return r.uri();
        }

        public java.net.http.HttpClient.Version version() {
            return r.version();
        }
    }

    // ------------------------------------------------------------ values

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    /** A path segment: a member, a new id, or something hostile (already percent-encoded, or not). */
    private String pathValue() {
        return switch (random.nextInt(16)) {
            case 0 -> "%ZZ";
            case 1 -> "%C0%AE";
            case 2 -> "%FF%FE";
            case 3 -> "%ED%A0%80";
            case 4 -> "a%00b";
            case 5 -> "x".repeat(4097);
            case 6 -> "%E2%82";
            case 7 -> "%2E%2E";
            case 8 -> "a%2Fb%3Bc";
            case 9 -> "%01%7F%1B";
            case 10 -> pick(List.of("fuzz-a", "fuzz-b", "fuzz-c"));
            case 11 -> "%" + Integer.toHexString(random.nextInt(256)).toUpperCase();
            case 12 -> "%F0%9F%98%80";
            default -> "fuzz-new-" + random.nextInt(5);
        };
    }

    /** A query value for a parameter of {@code type}, valid or not, percent-encoded or not. */
    private String queryValue(String name, String type) {
        if (name.equals("node") && random.nextBoolean()) { // a member, a member of no version, or no id at all
            return pick(List.of("fuzz-a", "fuzz-c", "nobody", ".", "..", "a%20b", "a%2Fb", "%C3%BC", "x".repeat(201)));
        }
        if (name.startsWith("max") && random.nextInt(4) == 0) { // maxRanges, maxFlows: at and past the limit
            return pick(List.of("100000", "100001", "0", "2147483648"));
        }
        return switch (random.nextInt(14)) {
            case 0 -> "1e400";
            case 1 -> "99999999999999999999999";
            case 2 -> "-1";
            case 3 -> "NaN";
            case 4 -> "Infinity";
            case 5 -> "";
            case 6 -> "%ZZ";
            case 7 -> "%C0%AE";
            case 8 -> "1e-400";
            case 9 -> "0x1F";
            case 10 -> "%00";
            case 11 -> "true";
            default -> switch (type) {
                case "integer" -> Integer.toString(random.nextInt(200) - 20);
                case "number" -> Double.toString(random.nextDouble() * 12);
                case "boolean" -> random.nextBoolean() ? "true" : "false";
                default -> "k" + random.nextInt(100);
            };
        };
    }

    // ------------------------------------------------------------ bodies

    /** Raw JSON text, written as is. */
    private record Raw(String text) {
    }

    /** A JSON object that may hold a field twice. */
    private record Obj(List<Map.Entry<String, Object>> fields) {
    }

    private byte[] body(JsonNode schema) {
        if (random.nextInt(200) == 0) {
            return ("{\"keys\":[\"" + "x".repeat(5 * 1024 * 1024) + "\"]}").getBytes(StandardCharsets.UTF_8);
        }
        Object value = schema == null ? new Obj(new ArrayList<>()) : valid(schema, 0);
        int mutations = 1 + random.nextInt(3);
        for (int i = 0; i < mutations; i++) {
            value = mutate(value, 0);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] text = write(value).getBytes(StandardCharsets.UTF_8);
        switch (random.nextInt(10)) {
            case 0 -> out.write(text, 0, random.nextInt(text.length + 1)); // truncated
            case 1 -> { // bytes that are not UTF-8 spliced in
                int at = random.nextInt(text.length + 1);
                out.write(text, 0, at);
                byte[][] bad = {{(byte) 0xC0, (byte) 0xAE}, {(byte) 0xFF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                        {(byte) 0xE2, (byte) 0x82}, {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80},
                        {(byte) 0x80}};
                out.writeBytes(bad[random.nextInt(bad.length)]);
                out.write(text, at, text.length - at);
            }
            case 2 -> {
                out.writeBytes(text);
                out.writeBytes(pick(List.of(" {}", "x", ",", "]", "\u0000")).getBytes(StandardCharsets.UTF_8));
            }
            default -> out.writeBytes(text);
        }
        return out.toByteArray();
    }

    /** A value of {@code schema}, following its references, as a client would send it. */
    private Object valid(JsonNode schema, int depth) {
        if (schema.has("$ref")) {
            String ref = schema.get("$ref").asString();
            return valid(components.path(ref.substring(ref.lastIndexOf('/') + 1)), depth);
        }
        if (schema.has("allowableValues") || schema.has("enum")) {
            JsonNode e = schema.has("enum") ? schema.get("enum") : schema.get("allowableValues");
            return e.get(random.nextInt(e.size())).asString();
        }
        String type = schema.path("type").asString(schema.has("properties") ? "object" : "string");
        if (schema.path("type").isArray()) {
            type = schema.path("type").get(0).asString();
        }
        switch (type) {
            case "object" -> {
                List<Map.Entry<String, Object>> fields = new ArrayList<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").properties().iterator();
                        it.hasNext();) {
                    Map.Entry<String, JsonNode> p = it.next();
                    if (p.getKey().equals("op")) {
                        fields.add(Map.entry("op", random.nextBoolean() ? "put" : "remove"));
                    } else if (p.getKey().equals("id")) {
                        fields.add(Map.entry("id", "fuzz-new-" + random.nextInt(5)));
                    } else if (depth < 4) {
                        fields.add(Map.entry(p.getKey(), valid(p.getValue(), depth + 1)));
                    }
                }
                return new Obj(fields);
            }
            case "array" -> {
                List<Object> items = new ArrayList<>();
                int n = 1 + random.nextInt(3);
                for (int i = 0; i < n; i++) {
                    items.add(valid(schema.path("items"), depth + 1));
                }
                return items;
            }
            case "integer" -> {
                return schema.has("example") ? schema.get("example").asLong() : 128L;
            }
            case "number" -> {
                return schema.has("example") ? schema.get("example").asDouble() : 1.0;
            }
            case "boolean" -> {
                return random.nextBoolean();
            }
            default -> {
                return schema.has("example") ? schema.get("example").asString() : "k" + random.nextInt(50);
            }
        }
    }

    private static final List<String> HOSTILE = List.of("1e400", "-1e400", "1e-400", "99999999999999999999999",
            "-99999999999999999999999", "NaN", "Infinity", "-Infinity", "\"NaN\"", "\"Infinity\"", "\"1\"", "true",
            "null", "[]", "{}", "0", "-0.0", "1.5", "2147483648", "9223372036854775808", "\"\"",
            "\"\\u0000\\u0001\\u001f\"", "\"a\\ud800b\"", "\"\\uDFFF\"", "0x10", "01", "+1", ".5", "1.", "'a'",
            "\"" + "z".repeat(5000) + "\"", "[" + "1,".repeat(10_500) + "1]");

    /** {@code value} with one part broken. */
    private Object mutate(Object value, int depth) {
        if (value instanceof Obj o && (o.fields.isEmpty() || random.nextInt(4) == 0 || depth > 3)) {
            List<Map.Entry<String, Object>> fields = new ArrayList<>(o.fields);
            switch (random.nextInt(5)) {
                case 0 -> fields.add(Map.entry(pick(List.of("colour", "Weight", "", "weight ", "\u00e9")), 1));
                case 1 -> {
                    if (!fields.isEmpty()) {
                        Map.Entry<String, Object> f = fields.get(random.nextInt(fields.size()));
                        fields.add(Map.entry(f.getKey(), f.getValue())); // a field twice
                    }
                }
                case 2 -> {
                    if (!fields.isEmpty()) {
                        fields.remove(random.nextInt(fields.size()));
                    }
                }
                case 3 -> {
                    return new Raw("[".repeat(3000) + "]".repeat(3000)); // deep nesting
                }
                default -> {
                    return new Raw(pick(HOSTILE));
                }
            }
            return new Obj(fields);
        }
        if (value instanceof Obj o) {
            List<Map.Entry<String, Object>> fields = new ArrayList<>(o.fields);
            int i = random.nextInt(fields.size());
            fields.set(i, Map.entry(fields.get(i).getKey(), mutate(fields.get(i).getValue(), depth + 1)));
            return new Obj(fields);
        }
        if (value instanceof List<?> list && !list.isEmpty() && random.nextInt(3) > 0) {
            List<Object> items = new ArrayList<>(list);
            if (random.nextInt(40) == 0) {
                for (int i = 0; i < 10_001; i++) {
                    items.add(items.get(0)); // an oversized batch
                }
                return items;
            }
            int i = random.nextInt(items.size());
            items.set(i, mutate(items.get(i), depth + 1));
            return items;
        }
        return new Raw(pick(HOSTILE));
    }

    private static String write(Object v) {
        StringBuilder sb = new StringBuilder();
        write(v, sb);
        return sb.toString();
    }

    private static void write(Object v, StringBuilder sb) {
        if (v instanceof Raw r) {
            sb.append(r.text);
        } else if (v instanceof Obj o) {
            sb.append('{');
            for (int i = 0; i < o.fields.size(); i++) {
                sb.append(i == 0 ? "" : ",").append(JSON.writeValueAsString(o.fields.get(i).getKey())).append(':');
                write(o.fields.get(i).getValue(), sb);
            }
            sb.append('}');
        } else if (v instanceof List<?> l) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                sb.append(i == 0 ? "" : ",");
                write(l.get(i), sb);
            }
            sb.append(']');
        } else {
            sb.append(JSON.writeValueAsString(v));
        }
    }

}
