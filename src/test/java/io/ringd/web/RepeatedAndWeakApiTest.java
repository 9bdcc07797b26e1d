package io.ringd.web;

import io.ringd.RealServerTest;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Requests that say one thing twice, or say it weakly, are refused rather than half-read. */
class RepeatedAndWeakApiTest extends RealServerTest {

    @BeforeEach
    void nodes() {
        reset();
        putAll("rw-a:1", "rw-b:1");
    }

    @Test
    void repeatedQueryParameter_is400_namingIt() {
        assertProblem(httpGet("/route?key=a&key=b"), 400, "key");
        assertProblem(httpGet("/route/k?version=1&version=2"), 400, "version");
        assertProblem(httpGet("/preference/k?n=1&n=2"), 400, "n");
    }

    @Test
    void weakIfMatch_neverMatches_andChangesNothing() {
        Snap before = snap();
        assertProblem(adminJson("{\"weight\":3}").header("If-Match", "W/\"" + before.version() + "\"")
                .put("/nodes/rw-c"), 412, "If-Match");
        assertUnchanged(before);
        assertThat(adminJson("{\"weight\":3}").header("If-Match", "\"" + before.version() + "\"")
                .put("/nodes/rw-c").statusCode()).isEqualTo(201);
    }
}
