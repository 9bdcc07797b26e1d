package io.ringd.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.restassured.response.Response;
import io.ringd.RealServerTest;
import tools.jackson.databind.JsonNode;

/** The client reports to the real server as a follower, and the server lists it (docs/ring.md section 23). */
@Timeout(120)
class RingClientFollowersApiTest extends RealServerTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private RingClientBuilder builder(String id) {
        return RingClient.builder("http://127.0.0.1:" + port).metrics(false).followerId(id)
                .backoff(Duration.ofMillis(20), Duration.ofMillis(200));
    }

    /** The entry of {@code id} in {@code prefix}/followers, or null. */
    private JsonNode follower(String prefix, String id) {
        for (JsonNode f : getJson(prefix + "/followers?limit=10000").get("followers")) {
            if (f.get("id").asString().equals(id)) {
                return f;
            }
        }
        return null;
    }

    /** Waits until {@code what} answers non-null and {@code done} of it; its last answer. */
    private static JsonNode eventually(String what, Supplier<JsonNode> get, java.util.function.Predicate<JsonNode> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        JsonNode last = get.get();
        while (last == null || !done.test(last)) {
            assertThat(System.nanoTime() < deadline).as("within %s: %s; last seen %s", WAIT, what, last).isTrue();
            Thread.sleep(20);
            last = get.get();
        }
        return last;
    }

    @Test
    void afterAMembershipChange_theClientIsListedCurrentAtTheNewVersion_andOneWithoutReportsIsNot()
            throws Exception {
        reset();
        putAll("fw-a:1:z1", "fw-b:1:z2");
        String suffix = Long.toString(System.nanoTime());
        String on = "e2e/on:" + suffix; // a '/' crosses as %2F
        String off = "e2e-off:" + suffix;
        try (RingClient reporting = builder(on).build(); RingClient silent = builder(off).reports(false).build()) {
            assertThat(reporting.awaitReady(WAIT)).isTrue();
            assertThat(silent.awaitReady(WAIT)).isTrue();
            for (int i = 0; i < 20; i++) { // enough to be measured: the reports from now on name nodes
                reporting.recordLatency("fw-a", Duration.ofMillis(3));
                reporting.recordLatency("fw-b", Duration.ofMillis(5));
            }
            long v = putNode("fw-c-" + suffix, 2, "z3");
            assertThat(reporting.awaitVersion(v, WAIT)).isTrue();
            assertThat(silent.awaitVersion(v, WAIT)).isTrue();
            String fingerprint = fingerprint();

            JsonNode entry = eventually(on + " current at version " + v, () -> follower("", on),
                    f -> f.get("version").asLong() == v);
            assertThat(entry.get("state").asString()).isEqualTo("current");
            assertThat(reporting.ring().fingerprint()).isEqualTo(fingerprint);
            assertThat(reporting.reportsFailed()).as("every report taken, those with latencies included").isZero();

            // the reporting client has reported version v since the silent one held it: none came from it
            assertThat(follower("", off)).as("a client with reports(false)").isNull();
        }
    }

    @Test
    void aClientOfANamedRing_isListedUnderThatRing() throws Exception {
        String ring = "fw-" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
        Response made = adminJson("{\"name\":\"" + ring + "\"}").post("/rings");
        assertThat(made.statusCode()).as(made.asString()).isEqualTo(201);
        try {
            long v = putAllInto(ring, "fn-a:1", "fn-b:1");
            String id = "named:" + System.nanoTime();
            try (RingClient c = builder(id).ring(ring).build()) {
                assertThat(c.awaitVersion(v, WAIT)).isTrue();
                JsonNode entry = eventually(id + " under /rings/" + ring, () -> follower("/rings/" + ring, id),
                        f -> f.get("version").asLong() == v);
                assertThat(entry.get("state").asString()).isEqualTo("current");
                assertThat(follower("", id)).as("not a follower of the ring default").isNull();
            }
        } finally {
            admin().delete("/rings/" + ring);
        }
    }
}
