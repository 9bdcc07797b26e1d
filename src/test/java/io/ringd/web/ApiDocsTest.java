package io.ringd.web;

import io.ringd.RealServerTest;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import tools.jackson.databind.JsonNode;

/** The OpenAPI document (springdoc) describes the whole ring API, and Swagger UI is served. */
class ApiDocsTest extends RealServerTest {

    /** Every operation of the ring API (docs/ring.md section 17), as "method path" of the document. */
    static final List<String> OPERATIONS = List.of(
            "get /route/{key}", "get /route", "post /route",
            "get /preference/{key}", "get /preference",
            "get /ownership", "get /diff", "post /diff",
            "get /ring", "get /nodes", "get /nodes/{id}", "get /settings",
            "put /nodes/{id}", "delete /nodes/{id}", "post /membership", "put /settings",
            "get /loads", "put /nodes/{id}/load", "delete /nodes/{id}/load", "post /store/reseed");

    /** The writes that change placement, and so pass the movement guard unless forced (409 otherwise). */
    static final List<String> GUARDED = List.of("put /nodes/{id}", "delete /nodes/{id}", "post /membership",
            "put /settings");

    static final List<String> ADMIN = List.of("put /nodes/{id}", "delete /nodes/{id}", "post /membership",
            "put /settings", "put /nodes/{id}/load", "delete /nodes/{id}/load", "post /store/reseed");

    /** Writes that read no body (one is refused with 400), so there is no content type to refuse with 415. */
    static final List<String> TAKES_NO_BODY = List.of("post /store/reseed");

    private JsonNode doc() {
        Response r = api().get("/v3/api-docs");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.contentType()).startsWith("application/json");
        JsonNode doc = json(r);
        assertThat(doc.get("openapi").asString()).startsWith("3.");
        return doc;
    }

    private static JsonNode operation(JsonNode doc, String op) {
        String[] p = op.split(" ");
        return doc.path("paths").path(p[1]).path(p[0]);
    }

    private static JsonNode resolve(JsonNode doc, JsonNode n) {
        if (n.has("$ref")) {
            JsonNode at = doc;
            for (String part : n.get("$ref").asString().substring(2).split("/")) {
                at = at.path(part);
            }
            return at;
        }
        return n;
    }

    @Test
    void apiDocs_listsEveryOperationOfTheRingApi() {
        JsonNode doc = doc();
        List<String> missing = new ArrayList<>();
        for (String op : OPERATIONS) {
            if (operation(doc, op).isMissingNode()) {
                missing.add(op);
            }
        }
        assertThat(missing).as("operations missing from /v3/api-docs").isEmpty();
    }

    @Test
    void apiDocs_everyParameterHasADescriptionAndAnExample() {
        JsonNode doc = doc();
        SoftAssertions soft = new SoftAssertions();
        for (String op : OPERATIONS) {
            for (JsonNode param : operation(doc, op).path("parameters")) {
                JsonNode p = resolve(doc, param);
                String name = op + " parameter " + p.path("in").asString("") + " " + p.path("name").asString("");
                soft.assertThat(p.path("description").asString("")).as(name + ": description").isNotBlank();
                boolean example = p.has("example") || p.path("examples").size() > 0
                        || p.path("schema").has("example") || p.path("schema").path("examples").size() > 0;
                soft.assertThat(example).as(name + ": example").isTrue();
            }
        }
        soft.assertAll();
    }

    @Test
    void apiDocs_pathParametersAndKnownQueryParametersAreDocumented() {
        JsonNode doc = doc();
        SoftAssertions soft = new SoftAssertions();
        String[][] expected = {
                {"get /route/{key}", "path key", "query version", "query bound"},
                {"get /route", "query key", "query version", "query bound"},
                {"get /preference/{key}", "path key", "query n", "query distinctZones", "query version"},
                {"get /preference", "query key", "query n", "query distinctZones", "query version"},
                {"get /diff", "query from", "query to", "query maxRanges", "query maxFlows", "query node"},
                {"post /diff", "query maxRanges", "query maxFlows", "query node"},
                {"get /ring", "header If-None-Match"},
                {"get /nodes/{id}", "path id"},
                {"put /nodes/{id}", "path id", "header If-Match", "query force"},
                {"delete /nodes/{id}", "path id", "header If-Match", "query force"},
                {"post /membership", "header If-Match", "query force"},
                {"put /settings", "header If-Match", "query force"},
                {"put /nodes/{id}/load", "path id", "header If-Match"},
                {"delete /nodes/{id}/load", "path id", "header If-Match"},
                {"post /store/reseed", "query replace", "header If-Match"},
        };
        for (String[] e : expected) {
            List<String> have = new ArrayList<>();
            operation(doc, e[0]).path("parameters")
                    .forEach(p -> have.add(resolve(doc, p).path("in").asString("") + " " + resolve(doc, p).path("name").asString("")));
            for (int i = 1; i < e.length; i++) {
                soft.assertThat(have).as(e[0]).contains(e[i]);
            }
        }
        soft.assertAll();
    }

    @Test
    void apiDocs_every4xxResponseIsAProblemJson() {
        JsonNode doc = doc();
        SoftAssertions soft = new SoftAssertions();
        for (String op : OPERATIONS) {
            JsonNode responses = operation(doc, op).path("responses");
            responses.properties().forEach(e -> {
                if (e.getKey().startsWith("4") || e.getKey().startsWith("5")) {
                    JsonNode response = resolve(doc, e.getValue());
                    soft.assertThat(response.path("content").has(PROBLEM_JSON))
                            .as(op + " " + e.getKey() + " content types " + response.path("content").propertyNames())
                            .isTrue();
                    String ref = response.path("content").path(PROBLEM_JSON).path("schema").path("$ref").asString("");
                    JsonNode schema = doc.path("components").path("schemas")
                            .path(ref.substring(ref.lastIndexOf('/') + 1));
                    soft.assertThat(schema.path("properties").propertyNames())
                            .as(op + " " + e.getKey() + " problem schema " + ref)
                            .contains("type", "title", "status", "detail");
                }
            });
        }
        soft.assertAll();
    }

    @Test
    void apiDocs_documentsTheErrorsEachOperationCanAnswer() {
        JsonNode doc = doc();
        SoftAssertions soft = new SoftAssertions();
        for (String op : OPERATIONS) {
            JsonNode responses = operation(doc, op).path("responses");
            soft.assertThat(responses.propertyNames()).as(op).anyMatch(code -> code.startsWith("2"));
            if (ADMIN.contains(op)) {
                soft.assertThat(responses.propertyNames()).as(op).contains("400", "401", "412");
                soft.assertThat(operation(doc, op).path("security").size()).as(op + " security").isPositive();
            }
            if (GUARDED.contains(op)) {
                soft.assertThat(responses.propertyNames()).as(op).contains("409");
                soft.assertThat(resolve(doc, responses.path("409")).path("description").asString(""))
                        .as(op + " 409").contains("ringd.guard.max-moved-share", "force=true");
                String ref = resolve(doc, responses.path("409")).path("content").path(PROBLEM_JSON).path("schema")
                        .path("$ref").asString("");
                soft.assertThat(doc.path("components").path("schemas").path(ref.substring(ref.lastIndexOf('/') + 1))
                        .path("properties").propertyNames()).as(op + " 409 problem schema")
                        .contains("movedShare", "movedCount", "maxMovedShare");
            }
            if (op.contains("/route") && op.startsWith("get") || op.contains("/preference")) {
                soft.assertThat(responses.propertyNames()).as(op).contains("400", "404", "410", "503");
            }
            if ((op.startsWith("post") || op.startsWith("put")) && !TAKES_NO_BODY.contains(op)) {
                soft.assertThat(responses.propertyNames()).as(op).contains("415");
            }
        }
        soft.assertThat(doc.path("components").path("securitySchemes").size()).as("security schemes").isPositive();
        soft.assertAll();
    }

    @Test
    void apiDocs_documentTheRingVersionHeaders() {
        // docs/ring.md section 17: every ring answer carries X-Ring-Version, and a client may send its own
        // (answered with X-Ring-Stale when older); GET /ring answers an ETag
        JsonNode doc = doc();
        SoftAssertions soft = new SoftAssertions();
        for (String op : OPERATIONS) {
            List<String> headers = new ArrayList<>();
            operation(doc, op).path("parameters").forEach(p -> {
                JsonNode r = resolve(doc, p);
                if (r.path("in").asString("").equals("header")) {
                    headers.add(r.path("name").asString(""));
                }
            });
            soft.assertThat(headers).as(op + ": request header X-Ring-Version").contains("X-Ring-Version");
            JsonNode ok = operation(doc, op).path("responses").properties().stream()
                    .filter(e -> e.getKey().startsWith("2")).map(e -> resolve(doc, e.getValue())).findFirst()
                    .orElse(JSON.missingNode());
            soft.assertThat(ok.path("headers").has("X-Ring-Version")).as(op + ": response header X-Ring-Version")
                    .isTrue();
        }
        soft.assertThat(resolve(doc, operation(doc, "get /ring").path("responses").path("200")).path("headers")
                .has("ETag")).as("get /ring: response header ETag").isTrue();
        soft.assertAll();
    }

    @Test
    void swaggerUi_isServed() {
        Response redirect = api().get("/swagger-ui.html");
        assertThat(redirect.statusCode()).isEqualTo(200);
        assertThat(redirect.contentType()).startsWith("text/html");
        Response index = api().get("/swagger-ui/index.html");
        assertThat(index.statusCode()).isEqualTo(200);
        assertThat(index.asString()).containsIgnoringCase("swagger");
    }
}
