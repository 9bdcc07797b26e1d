package io.ringd.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.restassured.response.Response;
import io.ringd.RealServerTest;
import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.watch.EventStream;
import tools.jackson.databind.JsonNode;

/**
 * Planned changes against a real server (docs/ring.md section 24): a plan's
 * steps, their commits as ordinary versions marked with the plan, the
 * writes refused while it holds the ring, pause, resume and abort, the gate
 * on the followers, the bad inputs, and the metrics. Each test works in a
 * ring of its own, so its followers and plans are its own.
 */
class PlansApiTest extends RealServerTest {

    private static final String RING = "plans-api";
    private static final String P = "/rings/" + RING;

    @BeforeEach
    void aRingOfNine() {
        deleteNamedRings();
        Response made = adminJson("{\"name\":\"" + RING + "\"}").post("/rings");
        assertThat(made.statusCode()).as(made.asString()).isEqualTo(201);
        putAllInto(RING, "n1:1", "n2:1", "n3:1", "n4:1", "n5:1", "n6:1", "n7:1", "n8:1", "n9:1");
    }

    @AfterEach
    void cleanUp() {
        deleteNamedRings();
    }

    private Response plan(String body) {
        return adminJson(body).post(P + "/plans");
    }

    private JsonNode started(String body) {
        Response r = plan(body);
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(201);
        JsonNode p = json(r);
        assertThat(r.header("Location")).isEqualTo(P + "/plans/" + p.get("id").asString());
        assertThat(r.header("X-Ring-Name")).isEqualTo(RING);
        return p;
    }

    private JsonNode get(String id) {
        return getJson(P + "/plans/" + id);
    }

    private JsonNode awaitState(String id, String state, Duration within) throws InterruptedException {
        Instant end = Instant.now().plus(within);
        JsonNode p = get(id);
        while (!p.get("state").asString().equals(state) && Instant.now().isBefore(end)) {
            Thread.sleep(20);
            p = get(id);
        }
        assertThat(p.get("state").asString()).as("plan %s", p).isEqualTo(state);
        return p;
    }

    private JsonNode awaitStep(String id, int step, Duration within) throws InterruptedException {
        Instant end = Instant.now().plus(within);
        JsonNode p = get(id);
        while (p.get("currentStep").asInt() < step && Instant.now().isBefore(end)) {
            Thread.sleep(20);
            p = get(id);
        }
        assertThat(p.get("currentStep").asInt()).as("plan %s", p).isGreaterThanOrEqualTo(step);
        return p;
    }

    private long ringVersion() {
        return getJson(P + "/ring").get("version").asLong();
    }

    private String ringFingerprint() {
        return getJson(P + "/ring").get("fingerprint").asString();
    }

    /** The library's ring as the named ring serves it now. */
    private HashRing served() {
        JsonNode ring = getJson(P + "/ring");
        return libraryRing(ring.get("settings"), ring.get("nodes"), ring.get("version").asLong());
    }

    @Test
    void aDryRun_answersTheSteps_withinTheBudget_andStartsNothing() {
        long v = ringVersion();
        Response r = adminJson("{\"changes\":[{\"op\":\"put\",\"id\":\"n10\",\"weight\":1}],\"maxMovedShare\":0.02}")
                .queryParam("dryRun", "true").post(P + "/plans");
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
        JsonNode p = json(r);
        assertThat(p.get("id").isNull()).isTrue();
        assertThat(p.get("state").isNull()).isTrue();
        assertThat(p.get("ring").asString()).isEqualTo(RING);
        assertThat(p.get("baseVersion").asLong()).isEqualTo(v);
        JsonNode steps = p.get("steps");
        assertThat(steps.size()).as("a tenth of the space in steps of 2 %%").isBetween(5, 7);
        double sum = 0;
        for (int i = 0; i < steps.size(); i++) {
            JsonNode s = steps.get(i);
            assertThat(s.get("step").asInt()).isEqualTo(i + 1);
            assertThat(s.get("version").isNull()).isTrue();
            assertThat(s.get("overBudget").asBoolean()).isFalse();
            assertThat(s.get("movedShare").asDouble()).isLessThanOrEqualTo(0.02);
            sum += s.get("movedShare").asDouble();
        }
        assertThat(p.get("stepsMovedShare").asDouble()).isCloseTo(sum, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(p.get("movedShare").asDouble()).as("one node: nothing moves twice")
                .isCloseTo(sum, org.assertj.core.data.Offset.offset(1e-12));
        JsonNode last = steps.get(steps.size() - 1).get("changes").get(0);
        assertThat(last.get("weight").asDouble()).isEqualTo(1.0);
        assertThat(getJson(P + "/plans").get("plans")).isEmpty();
        assertThat(ringVersion()).isEqualTo(v);
    }

    @Test
    void aPlan_commitsEachStepOnce_asConsecutiveMarkedVersions_reachingTheDirectChangesRing() throws Exception {
        HashRing before = served();
        long base = before.version();
        List<Change> changes = List.of(Change.put(Node.of("n10", 1)), Change.remove("n3"));
        HashRing target = before.apply(changes);
        try (EventStream s = EventStream.open(uri(P + "/ring/events"))) {
            assertThat(s.nextEvent(Duration.ofSeconds(10)).name()).isEqualTo("snapshot");
            JsonNode p = started("{\"changes\":[{\"op\":\"put\",\"id\":\"n10\",\"weight\":1},"
                    + "{\"op\":\"remove\",\"id\":\"n3\"}],\"maxMovedShare\":0.03}");
            String id = p.get("id").asString();
            assertThat(p.get("state").asString()).isEqualTo("running");
            int n = p.get("steps").size();
            assertThat(n).isGreaterThanOrEqualTo(7);
            JsonNode done = awaitState(id, "done", Duration.ofSeconds(30));
            assertThat(done.get("currentStep").asInt()).isEqualTo(n);
            assertThat(done.get("endedAt").isNull()).isFalse();
            assertThat(ringVersion()).isEqualTo(base + n);
            assertThat(ringFingerprint()).as("the last step reaches the direct change's ring")
                    .isEqualTo(target.fingerprint());
            for (int k = 1; k <= n; k++) {
                JsonNode step = done.get("steps").get(k - 1);
                assertThat(step.get("version").asLong()).isEqualTo(base + k);
                assertThat(step.get("committedAt").isNull()).isFalse();
                EventStream.Event e = s.nextEvent(Duration.ofSeconds(10));
                assertThat(e.name()).isEqualTo("change");
                assertThat(e.id()).isEqualTo(Long.toString(base + k));
                JsonNode data = json(e.data());
                assertThat(data.get("plan").get("id").asString()).isEqualTo(id);
                assertThat(data.get("plan").get("step").asInt()).isEqualTo(k);
                assertThat(data.get("plan").get("of").asInt()).isEqualTo(n);
                assertThat(data.get("changes")).isEqualTo(step.get("changes"));
                JsonNode diff = getJson(P + "/diff?from=" + (base + k - 1) + "&to=" + (base + k)
                        + "&maxRanges=0&maxFlows=0");
                assertThat(diff.get("movedShare").asDouble()).as("step %d moves what it said", k)
                        .isEqualTo(step.get("movedShare").asDouble());
            }
        }
        // the steps are ordinary versions: writes go on once the plan is done
        assertThat(adminJson("{\"weight\":2}").put(P + "/nodes/n1").statusCode()).isEqualTo(200);
    }

    @Test
    void aOneNodePlan_movesNoValueTwice_itsStepsAddUpToTheDirectChange() throws Exception {
        long base = ringVersion();
        JsonNode p = started("{\"changes\":[{\"op\":\"remove\",\"id\":\"n5\"}],\"maxMovedShare\":0.015}");
        JsonNode done = awaitState(p.get("id").asString(), "done", Duration.ofSeconds(30));
        long end = base + done.get("steps").size();
        JsonNode direct = getJson(P + "/diff?from=" + base + "&to=" + end + "&maxRanges=0&maxFlows=0");
        long sum = 0;
        for (long v = base; v < end; v++) {
            sum += getJson(P + "/diff?from=" + v + "&to=" + (v + 1) + "&maxRanges=0&maxFlows=0").get("movedCount")
                    .asLong();
        }
        assertThat(sum).isEqualTo(direct.get("movedCount").asLong());
        assertThat(done.get("movedShare").asDouble()).isEqualTo(direct.get("movedShare").asDouble());
        assertThat(getJson(P + "/nodes").get("nodes").toString()).doesNotContain("\"n5\"");
    }

    @Test
    void whileAPlanHoldsTheRing_otherWritesAre409_pauseResumeAbortFollowTheirStates() throws Exception {
        JsonNode p = started("{\"changes\":[{\"op\":\"put\",\"id\":\"n10\",\"weight\":1}],\"maxMovedShare\":0.02,"
                + "\"minStepInterval\":\"PT1H\"}");
        String id = p.get("id").asString();
        JsonNode atOne = awaitStep(id, 1, Duration.ofSeconds(10));
        long v1 = atOne.get("steps").get(0).get("version").asLong();
        Thread.sleep(300); // the interval holds the second step back
        assertThat(get(id).get("currentStep").asInt()).isEqualTo(1);
        assertThat(ringVersion()).isEqualTo(v1);

        String fp = ringFingerprint();
        for (Response refused : List.of(adminJson("{\"weight\":2}").put(P + "/nodes/n1"),
                adminJson("{\"weight\":2}").queryParam("force", "true").put(P + "/nodes/n1"),
                admin().delete(P + "/nodes/n2"),
                adminJson("{\"changes\":[{\"op\":\"remove\",\"id\":\"n2\"}]}").post(P + "/membership"),
                adminJson("{\"vnodesPerWeight\":64}").put(P + "/settings"),
                plan("{\"changes\":[{\"op\":\"remove\",\"id\":\"n2\"}],\"maxMovedShare\":0.5}"))) {
            JsonNode problem = assertProblem(refused, 409, "plan");
            assertThat(problem.get("type").asString()).isEqualTo("urn:ringd:problem:plan-running");
            assertThat(problem.get("plan").asString()).isEqualTo(id);
            assertThat(problem.get("planState").asString()).isEqualTo("running");
            assertThat(problem.get("detail").asString()).contains(id, "/abort", "nothing was changed");
        }
        assertThat(ringVersion()).isEqualTo(v1);
        assertThat(ringFingerprint()).isEqualTo(fp);
        // a dry run still answers: what a plan made from the ring as it is now would do
        Response dry = adminJson("{\"changes\":[{\"op\":\"remove\",\"id\":\"n2\"}],\"maxMovedShare\":0.5}")
                .queryParam("dryRun", "true").post(P + "/plans");
        assertThat(dry.statusCode()).as(dry.asString()).isEqualTo(200);
        assertThat(json(dry).get("baseVersion").asLong()).isEqualTo(v1);
        assertThat(getJson(P + "/plans").get("plans")).hasSize(1);

        assertThat(assertProblem(admin().post(P + "/plans/" + id + "/resume"), 409, "state").get("type").asString())
                .isEqualTo("urn:ringd:problem:plan-state");
        Response paused = admin().post(P + "/plans/" + id + "/pause");
        assertThat(paused.statusCode()).as(paused.asString()).isEqualTo(200);
        assertThat(json(paused).get("state").asString()).isEqualTo("paused");
        assertThat(json(paused).get("reason").asString()).isEqualTo("admin");
        assertProblem(admin().post(P + "/plans/" + id + "/pause"), 409, "state");
        JsonNode whilePaused = assertProblem(admin().delete(P + "/nodes/n2"), 409, "plan");
        assertThat(whilePaused.get("planState").asString()).isEqualTo("paused");

        Response resumed = admin().post(P + "/plans/" + id + "/resume");
        assertThat(resumed.statusCode()).as(resumed.asString()).isEqualTo(200);
        assertThat(json(resumed).get("state").asString()).isEqualTo("running");
        assertThat(json(resumed).get("reason").isNull()).isTrue();

        Response aborted = admin().post(P + "/plans/" + id + "/abort");
        assertThat(aborted.statusCode()).as(aborted.asString()).isEqualTo(200);
        JsonNode a = json(aborted);
        assertThat(a.get("state").asString()).isEqualTo("aborted");
        assertThat(a.get("currentStep").asInt()).as("the steps made are kept").isEqualTo(1);
        assertThat(ringVersion()).isEqualTo(v1);
        for (String verb : List.of("pause", "resume", "abort")) {
            assertProblem(admin().post(P + "/plans/" + id + "/" + verb), 409, "state");
        }
        assertThat(adminJson("{\"weight\":2}").put(P + "/nodes/n1").statusCode()).as("writable again")
                .isEqualTo(200);
        JsonNode listed = getJson(P + "/plans").get("plans");
        assertThat(listed.get(0).get("id").asString()).isEqualTo(id);
        assertThat(listed.get(0).get("state").asString()).isEqualTo("aborted");
    }

    @Test
    void unknownPlans_are404_andAdminCallsNeedTheToken() {
        for (Response r : List.of(api().get(P + "/plans/0123456789ab"), admin().post(P + "/plans/nope/pause"),
                admin().post(P + "/plans/0123456789ab/resume"), admin().post(P + "/plans/0123456789ab/abort"))) {
            JsonNode problem = assertProblem(r, 404, "id");
            assertThat(problem.get("type").asString()).isEqualTo("urn:ringd:problem:plan-not-found");
        }
        assertThat(api().contentType("application/json")
                .body("{\"changes\":[{\"op\":\"put\",\"id\":\"x\",\"weight\":1}],\"maxMovedShare\":0.1}")
                .post(P + "/plans").statusCode()).isEqualTo(401);
        assertThat(api().post(P + "/plans/0123456789ab/abort").statusCode()).isEqualTo(401);
        assertProblem(api().get("/rings/no-such-ring/plans"), 404, "ring");
    }

    @Test
    void badInput_isA400NamingTheField_andChangesNothing() {
        String put = "[{\"op\":\"put\",\"id\":\"n10\",\"weight\":1}]";
        String[][] cases = {
                {"{\"changes\":" + put + "}", "maxMovedShare"},
                {"{\"changes\":" + put + ",\"maxMovedShare\":0}", "maxMovedShare"},
                {"{\"changes\":" + put + ",\"maxMovedShare\":-0.1}", "maxMovedShare"},
                {"{\"changes\":" + put + ",\"maxMovedShare\":1.5}", "maxMovedShare"},
                {"{\"changes\":" + put + ",\"maxMovedShare\":\"half\"}", "maxMovedShare"},
                {"{\"changes\":" + put + ",\"maxMovedShare\":0.1,\"minStepInterval\":\"PT-1S\"}", "minStepInterval"},
                {"{\"changes\":" + put + ",\"maxMovedShare\":0.1,\"minStepInterval\":\"soon\"}", "minStepInterval"},
                {"{\"changes\":" + put + ",\"maxMovedShare\":0.1,\"minStepInterval\":\"PT25H\"}", "minStepInterval"},
                {"{\"changes\":" + put + ",\"maxMovedShare\":0.1,\"gate\":{\"timeout\":\"PT1M\"}}",
                        "gate.convergedShare"},
                {"{\"changes\":" + put + ",\"maxMovedShare\":0.1,\"gate\":{\"convergedShare\":0,\"timeout\":\"PT1M\"}}",
                        "gate.convergedShare"},
                {"{\"changes\":" + put + ",\"maxMovedShare\":0.1,\"gate\":{\"convergedShare\":1.01,"
                        + "\"timeout\":\"PT1M\"}}", "gate.convergedShare"},
                {"{\"changes\":" + put + ",\"maxMovedShare\":0.1,\"gate\":{\"convergedShare\":0.9}}", "gate.timeout"},
                {"{\"changes\":" + put + ",\"maxMovedShare\":0.1,\"gate\":{\"convergedShare\":0.9,"
                        + "\"timeout\":\"PT0S\"}}", "gate.timeout"},
                {"{\"maxMovedShare\":0.1}", "changes"},
                {"{\"changes\":[],\"maxMovedShare\":0.1}", "changes"},
                {"{\"changes\":[{\"op\":\"move\",\"id\":\"n1\"}],\"maxMovedShare\":0.1}", "changes[0].op"},
                {"{\"changes\":[{\"op\":\"put\",\"id\":\"n1\",\"weight\":0}],\"maxMovedShare\":0.1}",
                        "changes[0].weight"},
                {"{\"changes\":[{\"op\":\"put\",\"id\":\"n1\",\"weight\":1},{\"op\":\"remove\",\"id\":\"n1\"}],"
                        + "\"maxMovedShare\":0.1}", "changes[1].id"},
                {"{\"changes\":[{\"op\":\"put\",\"id\":\"n1\",\"weight\":1}],\"maxMovedShare\":0.1}", "changes"},
                {"{\"changes\":" + put + ",\"maxMovedShare\":0.1,\"extra\":1}", "extra"},
        };
        long v = ringVersion();
        String fp = ringFingerprint();
        for (String[] c : cases) {
            for (String dry : List.of("false", "true")) {
                Response r = adminJson(c[0]).queryParam("dryRun", dry).post(P + "/plans");
                JsonNode problem = assertProblem(r, 400, c[1]);
                assertThat(problem.get("detail").asString()).as(c[0]).isNotBlank();
            }
        }
        assertProblem(plan("{\"changes\":[{\"op\":\"remove\",\"id\":\"ghost\"}],\"maxMovedShare\":0.1}"), 404, null);
        assertProblem(adminJson("{\"changes\":" + put + ",\"maxMovedShare\":0.1}").queryParam("dryRun", "maybe")
                .post(P + "/plans"), 400, "dryRun");
        assertProblem(adminJson("{\"changes\":" + put + ",\"maxMovedShare\":0.1}").header("If-Match", "\"" + (v + 7)
                + "\"").post(P + "/plans"), 412, "If-Match");
        assertThat(getJson(P + "/plans").get("plans")).isEmpty();
        assertThat(ringVersion()).isEqualTo(v);
        assertThat(ringFingerprint()).isEqualTo(fp);
    }

    @Test
    void theGate_holdsEachStepUntilTheFollowersCatchUp_andATimeoutPausesThePlan() throws Exception {
        report("follower-a", ringVersion(), ringFingerprint());
        JsonNode p = started("{\"changes\":[{\"op\":\"put\",\"id\":\"n10\",\"weight\":1}],\"maxMovedShare\":0.03,"
                + "\"gate\":{\"convergedShare\":1,\"timeout\":\"PT1.5S\"}}");
        String id = p.get("id").asString();
        int n = p.get("steps").size();
        assertThat(n).isGreaterThanOrEqualTo(3);
        JsonNode one = awaitStep(id, 1, Duration.ofSeconds(10));
        long v1 = one.get("steps").get(0).get("version").asLong();
        Thread.sleep(500);
        assertThat(get(id).get("currentStep").asInt()).as("the follower is behind: step 2 waits").isEqualTo(1);
        assertThat(gauge("ringd_plan_gate_wait_seconds")).isGreaterThan(0.2);
        JsonNode paused = awaitState(id, "paused", Duration.ofSeconds(10));
        assertThat(paused.get("reason").asString()).isEqualTo("gate-timeout");
        assertThat(paused.get("currentStep").asInt()).isEqualTo(1);
        assertThat(gauge("ringd_plan_paused_on_gate")).isEqualTo(1.0);

        // the follower catches up with every step as it comes; the plan goes on to the end
        report("follower-a", v1, ringFingerprint());
        assertThat(admin().post(P + "/plans/" + id + "/resume").statusCode()).isEqualTo(200);
        Instant end = Instant.now().plus(Duration.ofSeconds(30));
        List<Instant> reported = new ArrayList<>();
        long seen = v1;
        while (!get(id).get("state").asString().equals("done") && Instant.now().isBefore(end)) {
            long v = ringVersion();
            if (v > seen) {
                reported.add(Instant.now());
                report("follower-a", v, ringFingerprint());
                seen = v;
            }
            Thread.sleep(20);
        }
        JsonNode done = awaitState(id, "done", Duration.ofSeconds(1));
        assertThat(gauge("ringd_plan_paused_on_gate")).isEqualTo(0.0);
        assertThat(gauge("ringd_plan_step")).isEqualTo(n);
        assertThat(gauge("ringd_plan_steps")).isEqualTo(n);
        assertThat(gauge("ringd_plan_state", "done")).isEqualTo(1.0);
        assertThat(gauge("ringd_plan_state", "paused")).isEqualTo(0.0);
        // no step was made before the follower reported the one before it
        for (int k = 3; k <= n; k++) {
            Instant committed = Instant.parse(done.get("steps").get(k - 1).get("committedAt").asString());
            assertThat(committed).as("step %d", k).isAfterOrEqualTo(reported.get(k - 3).minusMillis(5));
        }
    }

    /**
     * Seeded ({@code -Dringd.seed=N}, printed, in every assertion message): random rings (every placement and hash), random changes and budgets, each plan run
     * through the server to the end. Every step moves what its diff says, at most the budget unless
     * it is over budget; the last reaches the direct change's ring; for one node's change under
     * algorithm=ring the steps' moved counts add up to the direct change's.
     */
    @Test
    void randomPlans_keepTheirBudget_reachTheTarget_andOneNodeRingPlansMoveNothingTwice() throws Exception {
        String given = System.getProperty("ringd.seed");
        long seed = given == null || given.isBlank() ? 20_261_204L : Long.parseLong(given.trim());
        System.out.println("randomPlans: seed " + seed + " (replay with -Dringd.seed=" + seed + ")");
        java.util.Random random = new java.util.Random(seed);
        String[][] placements = {{"md5", "ring"}, {"murmur3", "ring"}, {"sha256", "ring"}, {"ketama", "ring"},
                {"md5", "maglev"}};
        for (int round = 0; round < 8; round++) {
            String[] placement = placements[round % placements.length];
            String at = "seed " + seed + ", round " + round + " (" + placement[0] + "/" + placement[1] + ")";
            deleteNamedRings();
            Response made = adminJson("{\"name\":\"" + RING + "\",\"settings\":{\"hash\":\"" + placement[0]
                    + "\",\"algorithm\":\"" + placement[1] + "\",\"vnodesPerWeight\":" + (16 << random.nextInt(4))
                    + (placement[1].equals("maglev") ? ",\"maglevTableSize\":5003" : "") + "}}").post("/rings");
            assertThat(made.statusCode()).as(at + ": " + made.asString()).isEqualTo(201);
            int nodes = 3 + random.nextInt(12);
            String[] specs = new String[nodes];
            for (int i = 0; i < nodes; i++) {
                specs[i] = "r" + i + ":" + (1 + random.nextInt(3));
            }
            putAllInto(RING, specs);
            HashRing before = served();
            boolean oneNode = random.nextBoolean();
            List<Change> changes = new ArrayList<>();
            StringBuilder body = new StringBuilder();
            int kinds = oneNode ? 1 : 2 + random.nextInt(2);
            for (int c = 0; c < kinds; c++) {
                int pick = random.nextInt(3);
                String id = pick == 0 ? "r" + (nodes + c) : "r" + c;
                double weight = 0.5 + random.nextInt(6) / 2.0;
                Change change = pick == 1 ? Change.remove(id) : Change.put(Node.of(id, weight));
                changes.add(change);
                body.append(c == 0 ? "" : ",").append(pick == 1 ? "{\"op\":\"remove\",\"id\":\"" + id + "\"}"
                        : "{\"op\":\"put\",\"id\":\"" + id + "\",\"weight\":" + weight + "}");
            }
            HashRing target = before.apply(changes);
            if (target == before) {
                continue; // a reweight to the same weight: nothing to plan
            }
            double budget = 0.01 + random.nextInt(20) / 100.0;
            Response r = plan("{\"changes\":[" + body + "],\"maxMovedShare\":" + budget + "}");
            assertThat(r.statusCode()).as(at + ": " + r.asString()).isEqualTo(201);
            JsonNode done = awaitState(json(r).get("id").asString(), "done", Duration.ofSeconds(60));
            long base = before.version();
            int n = done.get("steps").size();
            long sum = 0;
            for (int k = 1; k <= n; k++) {
                JsonNode step = done.get("steps").get(k - 1);
                JsonNode diff = getJson(P + "/diff?from=" + (base + k - 1) + "&to=" + (base + k)
                        + "&maxRanges=0&maxFlows=0");
                assertThat(diff.get("movedShare").asDouble()).as(at + ", step " + k)
                        .isEqualTo(step.get("movedShare").asDouble());
                if (!step.get("overBudget").asBoolean()) {
                    assertThat(step.get("movedShare").asDouble()).as(at + ", step " + k).isLessThanOrEqualTo(budget);
                }
                sum += diff.get("movedCount").asLong();
            }
            assertThat(ringFingerprint()).as(at).isEqualTo(target.fingerprint());
            if (oneNode && placement[1].equals("ring") && !placement[0].equals("ketama")) {
                long direct = getJson(P + "/diff?from=" + base + "&to=" + (base + n) + "&maxRanges=0&maxFlows=0")
                        .get("movedCount").asLong();
                assertThat(sum).as(at + ": one node's plan moves nothing twice").isEqualTo(direct);
            }
        }
    }

    private void report(String follower, long version, String fingerprint) {
        Response r = api().contentType("application/json")
                .body("{\"version\":" + version + ",\"fingerprint\":\"" + fingerprint + "\"}")
                .put(P + "/followers/" + follower);
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(204);
    }

    private double gauge(String name) {
        return gauge(name, null);
    }

    private double gauge(String name, String state) {
        String text = api().get("/actuator/prometheus").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("(?m)^" + name + "\\{([^}]*)\\} (\\S+)$").matcher(text);
        while (m.find()) {
            String labels = m.group(1);
            if (labels.contains("ring=\"" + RING + "\"") && (state == null || labels.contains("state=\"" + state
                    + "\""))) {
                return Double.parseDouble(m.group(2));
            }
        }
        return -1;
    }
}
