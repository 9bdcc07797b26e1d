package io.ringd.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.restassured.response.Response;
import io.ringd.RealServerTest;
import io.ringd.client.RingUpdate.Source;
import tools.jackson.databind.JsonNode;

/**
 * A planned change (docs/ring.md section 24) made through the real server, followed by clients: their
 * listeners are told of each step's version with the plan's id, the step and how many there are, in order,
 * and of plain writes with no plan step, whether the version came live or replayed to a client resuming its
 * stream. The clients are the ring's only followers, so each step's gate waits for both.
 */
@Timeout(120)
class RingClientPlansApiTest extends RealServerTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void eachStepsVersion_isToldWithItsPlanStep_inOrder_andPlainWritesWithNone() throws Exception {
        String ring = "pc-" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
        Response made = adminJson("{\"name\":\"" + ring + "\"}").post("/rings");
        assertThat(made.statusCode()).as(made.asString()).isEqualTo(201);
        String planId = null;
        List<RingUpdate> updates = new CopyOnWriteArrayList<>();
        List<RingUpdate> flappyUpdates = new CopyOnWriteArrayList<>();
        List<Duration> flappyLags = new CopyOnWriteArrayList<>(); // from each version's commit to its update
        try {
            long start = putAllInto(ring, "pa:1", "pb:1", "pc:1", "pd:1");
            try (RingClient c = client(ring, updates::add).build();
                    // drops its stream after 300 ms without a byte (keep-alives come every second), and
                    // resumes with Last-Event-ID 0.4 to 0.8 s later: a step committed meanwhile (0.4 s after
                    // the one before, once both clients hold that one) is replayed to it
                    RingClient flappy = client(ring, u -> {
                        flappyLags.add(u.committedAt() == null ? Duration.ZERO
                                : Duration.between(u.committedAt(), Instant.now()));
                        flappyUpdates.add(u);
                    }).idleTimeout(Duration.ofMillis(300)).backoff(Duration.ofMillis(800), Duration.ofMillis(1600))
                            .build()) {
                assertThat(c.awaitVersion(start, WAIT)).isTrue();
                assertThat(flappy.awaitVersion(start, WAIT)).isTrue();
                long plainBefore = putAllInto(ring, "pe:0.5");

                Response r = adminJson("{\"changes\":[{\"op\":\"put\",\"id\":\"pf\",\"weight\":1},"
                        + "{\"op\":\"put\",\"id\":\"pe\",\"weight\":1}],\"maxMovedShare\":0.06,"
                        + "\"minStepInterval\":\"PT0.4S\",\"gate\":{\"convergedShare\":1.0,\"timeout\":\"PT30S\"}}")
                        .post("/rings/" + ring + "/plans");
                assertThat(r.statusCode()).as(r.asString()).isEqualTo(201);
                JsonNode plan = json(r);
                planId = plan.get("id").asString();
                int of = plan.get("steps").size();
                assertThat(of).as("a plan of several steps: %s", r.asString()).isGreaterThanOrEqualTo(3);

                plan = awaitDone(ring, planId);
                long plainAfter = putAllInto(ring, "pg:1");
                assertThat(c.awaitVersion(plainAfter, WAIT)).isTrue();
                assertThat(flappy.awaitVersion(plainAfter, WAIT)).isTrue();
                Thread.sleep(100); // the listener runs just after the swap

                List<Long> expectedVersions = new ArrayList<>(List.of(plainBefore));
                List<PlanStep> expectedSteps = new ArrayList<>();
                expectedSteps.add(null);
                for (JsonNode s : plan.get("steps")) {
                    expectedVersions.add(s.get("version").asLong());
                    expectedSteps.add(new PlanStep(planId, s.get("step").asInt(), of));
                }
                expectedVersions.add(plainAfter);
                expectedSteps.add(null);
                assertThat(plainAfter - plainBefore).as("nothing but the plan's steps between the plain writes")
                        .isEqualTo(of + 1);
                assertThat(expectedSteps.get(of).isLast()).isTrue();
                String fingerprint = getJson("/rings/" + ring + "/ring").get("fingerprint").asString();
                for (RingClient client : List.of(c, flappy)) {
                    List<RingUpdate> told = client == c ? updates : flappyUpdates;
                    List<Long> versions = new ArrayList<>();
                    List<PlanStep> steps = new ArrayList<>();
                    for (RingUpdate u : told) {
                        if (u.version() > start) {
                            assertThat(u.source()).as("%s: version %d applied as a change", client, u.version())
                                    .isEqualTo(Source.CHANGE);
                            versions.add(u.version());
                            steps.add(u.planStep());
                        }
                    }
                    assertThat(versions).as("%s: every version after the first, in order", client)
                            .isEqualTo(expectedVersions);
                    assertThat(steps).as("%s", client).isEqualTo(expectedSteps);
                    assertThat(client.reloads()).as("%s", client).isZero();
                    assertThat(client.ring().fingerprint()).isEqualTo(fingerprint);
                }
                assertThat(flappy.reconnects()).as("the flappy client resumed its stream").isPositive();
                List<Duration> stepLags = new ArrayList<>();
                for (int i = 0; i < flappyUpdates.size(); i++) {
                    if (flappyUpdates.get(i).planStep() != null) {
                        stepLags.add(flappyLags.get(i));
                    }
                }
                assertThat(stepLags).as("a step replayed to the flappy client on resuming, well after its commit")
                        .anySatisfy(lag -> assertThat(lag).isGreaterThan(Duration.ofMillis(150)));
            }
        } finally {
            if (planId != null) {
                admin().post("/rings/" + ring + "/plans/" + planId + "/abort"); // 409 once done: nothing to do
            }
            admin().delete("/rings/" + ring);
        }
    }

    private RingClientBuilder client(String ring, Consumer<RingUpdate> told) {
        return RingClient.builder("http://127.0.0.1:" + port).ring(ring).metrics(false)
                .followerId("plan-follower:" + System.nanoTime()).backoff(Duration.ofMillis(20), Duration.ofMillis(200))
                .listener(RingClient.Listener.onUpdate(told));
    }

    /** Waits until the plan is done; the plan then. */
    private JsonNode awaitDone(String ring, String id) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        JsonNode p = getJson("/rings/" + ring + "/plans/" + id);
        while (!p.get("state").asString().equals("done")) {
            assertThat(p.get("state").asString()).as("the plan goes on: %s", p).isIn("running");
            assertThat(System.nanoTime() < deadline).as("done within 60 s: %s", p).isTrue();
            Thread.sleep(50);
            p = getJson("/rings/" + ring + "/plans/" + id);
        }
        return p;
    }
}
