package io.ringd.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.ringd.RealServerTest;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /loads}, {@code PUT} and {@code DELETE /nodes/{id}/load}: reported
 * loads stand in for the decayed counts, never change membership, and leave
 * with their node.
 */
class LoadApiTest extends RealServerTest {

    @BeforeEach
    void threeNodes() {
        reset();
        putAll("ld-a:1", "ld-b:2:z1", "ld-c:0.5");
    }

    Response putLoad(String id, String body) {
        return adminJson(body).put("/nodes/" + id + "/load");
    }

    /** The {"id","load","source","decayed"} of one member in GET /loads. */
    JsonNode loadOf(String id) {
        for (JsonNode n : getJson("/loads").get("nodes")) {
            if (n.get("id").asString().equals(id)) {
                return n;
            }
        }
        return null;
    }

    // ------------------------------------------------------------ GET /loads

    @Test
    void loads_listEveryMember_ascending_decayedByDefault() {
        long v = version();
        Response r = api().get("/loads");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.header("X-Ring-Version")).isEqualTo(Long.toString(v));
        JsonNode body = json(r);
        assertThat(body.propertyNames()).containsExactlyInAnyOrder("version", "mean", "nodes");
        assertThat(body.get("version").asLong()).isEqualTo(v);
        assertThat(body.get("mean").asDouble()).isZero();
        List<String> ids = new ArrayList<>();
        for (JsonNode n : body.get("nodes")) {
            ids.add(n.get("id").asString());
            assertThat(n.propertyNames()).containsExactlyInAnyOrder("id", "load", "source", "decayed");
            assertThat(n.get("source").asString()).isEqualTo("decayed");
            assertThat(n.get("load").asDouble()).isZero();
            assertThat(n.get("decayed").asDouble()).isZero();
        }
        assertThat(ids).containsExactly("ld-a", "ld-b", "ld-c");
    }

    // ------------------------------------------------------------ PUT and DELETE

    @Test
    void putLoad_reportsIt_andMakesNoNewVersion() {
        Snap before = snap();
        Response r = putLoad("ld-b", "{\"load\":42.5}");
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
        assertThat(r.header("X-Ring-Version")).isEqualTo(Long.toString(before.version()));
        JsonNode body = json(r);
        assertThat(body.propertyNames()).containsExactlyInAnyOrder("version", "node");
        assertThat(body.get("version").asLong()).isEqualTo(before.version());
        JsonNode node = body.get("node");
        assertThat(node.get("id").asString()).isEqualTo("ld-b");
        assertThat(node.get("load").asDouble()).isEqualTo(42.5);
        assertThat(node.get("source").asString()).isEqualTo("reported");
        assertThat(node.get("decayed").asDouble()).isZero();
        assertUnchanged(before); // health and load stay apart from who is in the ring

        JsonNode loads = getJson("/loads");
        assertThat(loads.get("mean").asDouble()).isEqualTo(42.5 / 3);
        assertThat(loadOf("ld-b").get("load").asDouble()).isEqualTo(42.5);
        assertThat(loadOf("ld-a").get("source").asString()).isEqualTo("decayed");

        // replaced, then cleared: the decayed count is the load again
        assertThat(putLoad("ld-b", "{\"load\":0}").statusCode()).isEqualTo(200);
        assertThat(loadOf("ld-b").get("load").asDouble()).isZero();
        assertThat(loadOf("ld-b").get("source").asString()).isEqualTo("reported");
        Response cleared = admin().delete("/nodes/ld-b/load");
        assertThat(cleared.statusCode()).isEqualTo(200);
        assertThat(json(cleared).get("node").get("source").asString()).isEqualTo("decayed");
        assertThat(loadOf("ld-b").get("source").asString()).isEqualTo("decayed");
        assertThat(admin().delete("/nodes/ld-b/load").statusCode()).as("clearing again").isEqualTo(200);
        assertUnchanged(before);
    }

    @Test
    void putLoad_forANodeThatIsNotAMember_is404() {
        assertProblem(putLoad("ld-zz", "{\"load\":1}"), 404, "id");
        assertProblem(admin().delete("/nodes/ld-zz/load"), 404, "id");
        assertProblem(putLoad("bad%20id", "{\"load\":1}"), 400, "id");
        assertProblem(admin().urlEncodingEnabled(false).delete("/nodes/bad%20id/load"), 400, "id");
    }

    @Test
    void putLoad_refusesBadBodiesNamingTheField() {
        Snap before = snap();
        assertProblem(putLoad("ld-a", "{\"load\":-1}"), 400, "load");
        assertProblem(putLoad("ld-a", "{\"load\":-0.000001}"), 400, "load");
        assertProblem(putLoad("ld-a", "{\"load\":1e400}"), 400, "load");
        assertProblem(putLoad("ld-a", "{\"load\":\"5\"}"), 400, "load");
        assertProblem(putLoad("ld-a", "{\"load\":true}"), 400, "load");
        assertProblem(putLoad("ld-a", "{\"load\":null}"), 400, "load");
        assertProblem(putLoad("ld-a", "{}"), 400, "load");
        assertProblem(putLoad("ld-a", "{\"load\":1,\"weight\":2}"), 400, "weight");
        assertProblem(putLoad("ld-a", "{\"load\":1} x"), 400, "body");
        assertProblem(putLoad("ld-a", "not json"), 400, "body");
        assertProblem(admin().contentType("text/plain").body("{\"load\":1}").put("/nodes/ld-a/load"), 415,
                "Content-Type");
        assertThat(loadOf("ld-a").get("source").asString()).as("nothing was reported").isEqualTo("decayed");
        assertThat(putLoad("ld-a", "{\"load\":-0.0}").statusCode()).isEqualTo(200);
        assertThat(loadOf("ld-a").get("load").asString()).isEqualTo("0.0");
        assertUnchanged(before);
    }

    @Test
    void loadCalls_areAdminOnly() {
        assertProblem(api().contentType("application/json").body("{\"load\":1}").put("/nodes/ld-a/load"), 401, null);
        Response wrong = api().header("Authorization", "Bearer not-the-token-at-all").contentType("application/json")
                .body("{\"load\":1}").put("/nodes/ld-a/load");
        assertProblem(wrong, 401, null);
        assertThat(wrong.header("WWW-Authenticate")).startsWith("Bearer");
        assertProblem(api().delete("/nodes/ld-a/load"), 401, null);
        assertThat(api().get("/loads").statusCode()).as("anyone reads the loads").isEqualTo(200);
        assertThat(loadOf("ld-a").get("source").asString()).isEqualTo("decayed");
    }

    @Test
    void loadCalls_takeIfMatch() {
        long v = version();
        assertProblem(adminJson("{\"load\":1}").header("If-Match", Long.toString(v - 1)).put("/nodes/ld-a/load"), 412,
                "If-Match");
        assertProblem(adminJson("{\"load\":1}").header("If-Match", "W/\"" + v + "\"").put("/nodes/ld-a/load"), 412,
                "If-Match");
        assertProblem(adminJson("{\"load\":1}").header("If-Match", "seven").put("/nodes/ld-a/load"), 400, "If-Match");
        assertProblem(admin().header("If-Match", Long.toString(v + 1)).delete("/nodes/ld-a/load"), 412, "If-Match");
        assertThat(loadOf("ld-a").get("source").asString()).isEqualTo("decayed");
        assertThat(adminJson("{\"load\":1}").header("If-Match", "\"" + v + "\"").put("/nodes/ld-a/load").statusCode())
                .isEqualTo(200);
        assertThat(adminJson("{\"load\":2}").header("If-Match", "*").put("/nodes/ld-a/load").statusCode())
                .isEqualTo(200);
        assertThat(admin().header("If-Match", Long.toString(v)).delete("/nodes/ld-a/load").statusCode())
                .isEqualTo(200);
    }

    // ------------------------------------------------------------ membership

    @Test
    void aNodeThatLeaves_dropsItsLoad_andComesBackAtZero() {
        assertThat(putLoad("ld-c", "{\"load\":7}").statusCode()).isEqualTo(200);
        assertThat(loadOf("ld-c").get("load").asDouble()).isEqualTo(7.0);
        admin().delete("/nodes/ld-c").then().statusCode(200);
        assertThat(loadOf("ld-c")).as("a removed node has no load").isNull();
        assertThat(getJson("/loads").get("nodes")).hasSize(2);
        assertThat(getJson("/loads").get("mean").asDouble()).isZero();
        assertProblem(putLoad("ld-c", "{\"load\":7}"), 404, "id");
        putNode("ld-c", 0.5, null);
        JsonNode back = loadOf("ld-c");
        assertThat(back.get("source").asString()).isEqualTo("decayed");
        assertThat(back.get("load").asDouble()).isZero();
    }

    @Test
    void aNodeThatStays_keepsItsLoad_throughChangesOfOthersAndOfSettings() {
        assertThat(putLoad("ld-a", "{\"load\":3}").statusCode()).isEqualTo(200);
        putNode("ld-a", 4, "z9"); // reweighted: still a member
        putNode("ld-d", 1, null);
        adminJson("{\"vnodesPerWeight\":64}").put("/settings").then().statusCode(200);
        assertThat(loadOf("ld-a").get("load").asDouble()).isEqualTo(3.0);
        assertThat(getJson("/loads").get("version").asLong()).isEqualTo(version());
        assertThat(getJson("/loads").get("mean").asDouble()).isEqualTo(3.0 / 4);
    }
}
