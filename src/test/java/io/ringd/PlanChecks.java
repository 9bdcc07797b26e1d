package io.ringd;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.PlanStep;
import io.ringd.ring.PlanSteps;
import io.ringd.watch.EventStream;
import io.ringd.wire.ChangeEventJson;
import io.ringd.wire.ChangeJson;
import io.ringd.wire.PlanJson;
import io.ringd.wire.PlanMarkJson;
import io.ringd.wire.WireJson;
import io.ringd.wire.WireTime;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a planned change (docs/ring.md section 24) must leave behind however
 * often the instance driving it dies: the oracle of the kill tests. The
 * library is the reference: {@link PlanSteps} for the steps a plan must
 * have, {@link HashRing#apply} for the ring each step and the whole change
 * must make.
 */
public final class PlanChecks {

    public static final JsonMapper JSON = WireJson.lenient();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private PlanChecks() {
    }

    /**
     * A plan as it was made.
     *
     * @param id      its id
     * @param start   the ring it was made from (its version is the plan's base version)
     * @param changes the target changes
     * @param budget  its maxMovedShare
     * @param steps   the steps the library computes for it
     */
    public record Made(String id, Membership start, List<Change> changes, double budget, List<PlanStep> steps) {

        public long base() {
            return start.version();
        }

        public int n() {
            return steps.size();
        }

        /** The membership the plan ends at. */
        public Membership target() {
            Map<String, Node> members = new TreeMap<>(start.members());
            for (Change c : changes) {
                if (c instanceof Change.Put p) {
                    members.put(p.id(), p.node());
                } else {
                    members.remove(c.id());
                }
            }
            return new Membership(base() + n(), start.settings(), members);
        }

        @Override
        public String toString() {
            return "plan " + id + " (" + n() + " steps from v" + base() + ": " + changes + " within " + budget + ")";
        }
    }

    /**
     * A plan's target changes, by {@code kind} (seeded): 0 a node joins, 1 a node is drained (removed),
     * 2 a node is reweighted.
     */
    public static List<Change> changes(int kind, Membership from, Random rnd) {
        List<String> ids = new ArrayList<>(from.members().keySet());
        switch (kind % 3) {
            case 0 -> {
                String id;
                do {
                    id = "cache-" + rnd.nextInt(1000);
                } while (from.members().containsKey(id));
                return List.of(Change.put(Node.of(id, 0.5 + 0.25 * rnd.nextInt(5))));
            }
            case 1 -> {
                return List.of(Change.remove(ids.get(rnd.nextInt(ids.size()))));
            }
            default -> {
                Node old = from.members().get(ids.get(rnd.nextInt(ids.size())));
                double w = old.weight() >= 1.5 ? old.weight() / 2 : old.weight() * 2;
                return List.of(Change.put(new Node(old.id(), w, old.zone())));
            }
        }
    }

    /**
     * Makes a plan of {@code changes} through the instance at {@code port}, its budget chosen for
     * {@code stepsWanted} steps or so: {@code POST /plans} with {@code If-Match} of {@code start}'s version.
     * Checks that it answers the steps the library computes.
     */
    public static Made start(int port, String token, Membership start, List<Change> changes, int stepsWanted,
            String minStepInterval) throws Exception {
        HashRing ring = start.ring();
        double direct = PlanSteps.of(ring, changes, 1).movedShare();
        double budget = direct / stepsWanted;
        List<PlanStep> steps = PlanSteps.of(ring, changes, budget).steps();
        assertThat(steps.size()).as("the test's plan of %s within %s", changes, budget).isBetween(2, 120);
        String body = "{\"changes\":" + JSON.writeValueAsString(changes.stream().map(ChangeJson::of).toList())
                + ",\"maxMovedShare\":" + budget + ",\"minStepInterval\":\"" + minStepInterval + "\"}";
        HttpResponse<String> r = send(port, token, "POST", "/plans", body, start.version());
        assertThat(r.statusCode()).as("POST /plans %s: %s", body, r.body()).isEqualTo(201);
        PlanJson p = JSON.readValue(r.body(), PlanJson.class);
        Made made = new Made(p.id(), start, changes, budget, steps);
        assertThat(p.baseVersion()).as("%s", made).isEqualTo(start.version());
        assertSteps(p, made, "POST /plans");
        return made;
    }

    /** The plan's steps are the library's. */
    private static void assertSteps(PlanJson p, Made m, String at) {
        assertThat(p.steps()).as("%s: the steps of %s", at, m).hasSize(m.n());
        for (int k = 1; k <= m.n(); k++) {
            PlanJson.Step s = p.steps().get(k - 1);
            assertThat(s.step()).as("%s: step %d of %s", at, k, m).isEqualTo(k);
            assertThat(s.changes()).as("%s: the changes of step %d of %s", at, k, m)
                    .isEqualTo(m.steps().get(k - 1).changes().stream().map(ChangeJson::of).toList());
        }
    }

    /** {@code GET /plans/{id}}. */
    public static PlanJson plan(int port, String id) throws Exception {
        HttpResponse<String> r = get(port, "/plans/" + id);
        assertThat(r.statusCode()).as("GET /plans/%s: %s", id, r.body()).isEqualTo(200);
        return JSON.readValue(r.body(), PlanJson.class);
    }

    /** The ring's version ({@code GET /ring}). */
    public static long version(int port) throws Exception {
        return ring(port).version();
    }

    /** {@code GET /ring}. */
    public static Membership ring(int port) throws Exception {
        HttpResponse<String> r = get(port, "/ring");
        assertThat(r.statusCode()).as("GET /ring: %s", r.body()).isEqualTo(200);
        return Membership.of(Membership.JSON.readTree(r.body()));
    }

    /**
     * A plan seen while it may still run: the steps it records committed are the first ones, each at the
     * version after its predecessor's, and the ring is at the last of them or (a step committed, not yet
     * recorded) one past it. Answers the plan.
     */
    public static PlanJson checkProgress(int port, Made m, String at) throws Exception {
        long before = version(port);
        PlanJson p = plan(port, m.id());
        long after = version(port);
        assertSteps(p, m, at);
        int k = p.currentStep();
        assertThat(p.state()).as("%s: %s at step %d", at, m, k).isIn("running", "done");
        assertThat(k).as("%s: the step %s records (the ring at v%d, then v%d)", at, m, before, after)
                .isBetween((int) Math.max(0, before - m.base() - 1), (int) Math.min(m.n(), after - m.base()));
        for (int i = 1; i <= m.n(); i++) {
            PlanJson.Step s = p.steps().get(i - 1);
            if (i <= k) {
                assertThat(s.version()).as("%s: the version of step %d of %s", at, i, m).isEqualTo(m.base() + i);
                assertThat(WireTime.parseOrNull(s.committedAt())).as("%s: committedAt of step %d", at, i).isNotNull();
            } else {
                assertThat(s.version()).as("%s: step %d of %s, past step %d", at, i, m, k).isNull();
                assertThat(s.committedAt()).as("%s: step %d of %s, past step %d", at, i, m, k).isNull();
            }
        }
        return p;
    }

    /** Waits until the plan is no longer running; the plan then. */
    public static PlanJson awaitEnded(int port, Made m, Duration within) throws Exception {
        long end = System.nanoTime() + within.toNanos();
        while (true) {
            PlanJson p = plan(port, m.id());
            if (!"running".equals(p.state()) || System.nanoTime() > end) {
                return p;
            }
            Thread.sleep(50);
        }
    }

    /**
     * The plan is done, each step committed once: step k is version base + k, and the change events from
     * the base version on are exactly the steps, in order, each marked with the plan, each with the step's
     * changes and the fingerprint of the library's ring after it; the ring served is the target, as
     * applying the changes at once to the ring the plan started from makes it.
     */
    public static void checkDone(int port, Made m, String at) throws Exception {
        PlanJson p = plan(port, m.id());
        assertThat(p.state()).as("%s: %s: %s", at, m, p).isEqualTo("done");
        assertThat(p.reason()).as("%s: %s", at, m).isNull();
        assertThat(p.currentStep()).as("%s: %s", at, m).isEqualTo(m.n());
        assertThat(p.endedAt()).as("%s: %s", at, m).isNotNull();
        assertThat(p.baseVersion()).as("%s: %s", at, m).isEqualTo(m.base());
        assertSteps(p, m, at);
        HashRing direct = m.start().ring().apply(m.changes());
        Membership served = ring(port);
        assertThat(served.version()).as("%s: the ring's version after %s: only its steps were made", at, m)
                .isEqualTo(m.base() + m.n());
        assertThat(served.sameRing(m.target())).as("%s: %s served, %s expected", at, served, m.target()).isTrue();
        HttpResponse<String> r = get(port, "/ring");
        assertThat(Membership.JSON.readTree(r.body()).get("fingerprint").asString())
                .as("%s: the fingerprint after %s", at, m).isEqualTo(direct.fingerprint());
        HashRing ring = m.start().ring();
        try (EventStream events = EventStream.open(URI.create("http://127.0.0.1:" + port + "/ring/events"),
                "Last-Event-ID", Long.toString(m.base()))) {
            assertThat(events.status).as(at).isEqualTo(200);
            for (int k = 1; k <= m.n(); k++) {
                long v = m.base() + k;
                PlanJson.Step s = p.steps().get(k - 1);
                assertThat(s.version()).as("%s: the version of step %d of %s", at, k, m).isEqualTo(v);
                assertThat(s.committedAt()).as("%s: committedAt of step %d of %s", at, k, m).isNotNull();
                EventStream.Event e = events.nextEvent(Duration.ofSeconds(10));
                assertThat(e).as("%s: the event of version %d, step %d of %s", at, v, k, m).isNotNull();
                assertThat(e.name()).as("%s: version %d: %s", at, v, e).isEqualTo("change");
                assertThat(e.id()).as("%s: the event after v%d: %s", at, v - 1, e).isEqualTo(Long.toString(v));
                ChangeEventJson c = JSON.readValue(e.data(), ChangeEventJson.class);
                assertThat(c.version()).as("%s: %s", at, e).isEqualTo(v);
                assertThat(c.plan()).as("%s: the plan mark of version %d: %s", at, v, e)
                        .isEqualTo(new PlanMarkJson(m.id(), k, m.n()));
                assertThat(c.changes()).as("%s: the changes of version %d, step %d of %s", at, v, k, m)
                        .isEqualTo(s.changes());
                assertThat(c.committedAt()).as("%s: version %d committed when step %d says", at, v, k)
                        .isEqualTo(s.committedAt());
                ring = ring.apply(m.steps().get(k - 1).changes());
                assertThat(c.fingerprint()).as("%s: the fingerprint of version %d, step %d of %s", at, v, k, m)
                        .isEqualTo(ring.fingerprint());
            }
        }
        assertThat(ring.fingerprint()).as("%s: the steps of %s make what the changes at once make", at, m)
                .isEqualTo(direct.fingerprint());
    }

    public static HttpResponse<String> get(int port, String pathAndQuery) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** An admin call with a JSON body, and {@code If-Match} unless {@code ifMatch} is null. */
    public static HttpResponse<String> send(int port, String token, String method, String path, String body,
            Long ifMatch) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body));
        if (ifMatch != null) {
            b.header("If-Match", "\"" + ifMatch + "\"");
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A {@code POST /membership} body putting {@code count} nodes {@code cache-0..} of weight 1. */
    public static String nodes(int count) {
        List<ChangeJson> puts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            puts.add(ChangeJson.of(Change.put(Node.of("cache-" + i, 1))));
        }
        return "{\"changes\":" + JSON.writeValueAsString(puts) + "}";
    }
}
