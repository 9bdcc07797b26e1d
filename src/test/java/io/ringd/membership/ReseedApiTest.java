package io.ringd.membership;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.ringd.RealServerTest;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /store/reseed} on an instance whose store is its own (the
 * file or memory store): refused, and so are its malformed inputs, before
 * anything is written. The ZooKeeper cases are in store.ZooKeeperChaosTest.
 */
class ReseedApiTest extends RealServerTest {

    @Test
    void aStoreOfItsOwn_isNeverReseeded_409() {
        Snap before = snap();
        Response r = admin().post("/store/reseed");
        JsonNode p = assertProblem(r, 409, null);
        assertThat(p.get("type").asString()).isEqualTo("urn:ringd:problem:reseed-refused");
        assertThat(p.get("detail").asString()).contains("not shared");
        assertUnchanged(before);
    }

    @Test
    void aBody_aMalformedReplace_orAnotherVersionInIfMatch_areRefused_beforeAnythingElse() {
        Snap before = snap();
        assertProblem(admin().contentType("application/json").body("{}").post("/store/reseed"), 400, "body");
        assertProblem(admin().post("/store/reseed?replace=XYZ"), 400, "replace");
        assertProblem(admin().header("If-Match", Long.toString(version() + 1)).post("/store/reseed"), 412, "If-Match");
        assertProblem(admin().post("/store/reseed?replace=0123456789abcdef&other=1"), 400, "other");
        assertProblem(admin().post("/store/reseed?replace=0123456789abcdef&replace=0123456789abcdef"), 400,
                "replace");
        assertProblem(admin().header("If-Match", "W/\"7\"").post("/store/reseed"), 412, "If-Match");
        assertUnchanged(before);
    }
}
