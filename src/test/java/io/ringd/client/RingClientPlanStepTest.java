package io.ringd.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.ringd.client.RingUpdate.Source;
import io.ringd.client.StubRingServer.Version;
import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.wire.PlanMarkJson;

/**
 * The plan step of each version (docs/ring.md section 24), as listeners are told of it, against the stand-in
 * server: read from each change event's {@code plan} mark, none for a plain write, not known for a ring loaded
 * whole, and a mark that is not a plan step ignored without ever disturbing the client.
 */
@Timeout(60)
class RingClientPlanStepTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final List<RingUpdate> updates = new CopyOnWriteArrayList<>();
    /** What a listener written before plan steps (a lambda of ringChanged) is told: the versions. */
    private final List<Long> changed = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private StubRingServer stub() throws Exception {
        StubRingServer s = StubRingServer.start();
        toClose.add(s);
        return s;
    }

    private RingClient client(StubRingServer stub) throws InterruptedException {
        RingClient c = RingClient.builder(stub.baseUrl()).backoff(Duration.ofMillis(20), Duration.ofMillis(300))
                .requestTimeout(Duration.ofSeconds(2)).idleTimeout(Duration.ofSeconds(5)).metrics(false)
                .reports(false).listener(RingClient.Listener.onUpdate(updates::add))
                .listener((previous, current) -> changed.add(current.version())).build();
        toClose.add(c);
        assertThat(c.awaitReady(WAIT)).as("ready").isTrue();
        eventually("streaming", () -> stub.openStreams() == 1);
        return c;
    }

    private static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() < deadline).as("within %s: %s", WAIT, what).isTrue();
            Thread.sleep(10);
        }
    }

    /** Waits until {@code n} updates were told, and no more come. */
    private void awaitUpdates(int n) throws InterruptedException {
        eventually(n + " updates told", () -> updates.size() >= n);
        Thread.sleep(50);
        assertThat(updates).hasSize(n);
    }

    /** Commits step {@code k} of {@code of} of the plan {@code plan}: the node "planned" at weight {@code k}. */
    private static Version step(StubRingServer stub, String plan, int k, int of) {
        return stub.commit(List.of(Change.put(new Node("planned", k, "z1"))), null, new PlanMarkJson(plan, k, of));
    }

    @Test
    void eachVersion_isToldWithItsPlanStep_plainWritesWithNone_inOrder() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("n", 4);
        RingClient c = client(stub);
        stub.put("plain-1", 1, null); // v2
        for (int k = 1; k <= 3; k++) {
            step(stub, "3f9a2c01b7d4", k, 3); // v3, v4, v5
        }
        stub.remove("plain-1"); // v6
        assertThat(c.awaitVersion(6, WAIT)).isTrue();
        awaitUpdates(6);

        RingUpdate first = updates.get(0);
        assertThat(first.previous()).isNull();
        assertThat(first.version()).isEqualTo(1);
        assertThat(first.source()).as("the first ring is loaded whole").isEqualTo(Source.WHOLE);
        assertThat(first.planStepKnown()).isFalse();
        assertThat(first.planStep()).isNull();

        List<PlanStep> steps = new ArrayList<>();
        for (int i = 1; i < updates.size(); i++) {
            RingUpdate u = updates.get(i);
            Version v = stub.at(i + 1);
            assertThat(u.version()).as("every version, in order").isEqualTo(i + 1);
            assertThat(u.source()).isEqualTo(Source.CHANGE);
            assertThat(u.planStepKnown()).isTrue();
            assertThat(u.previous()).as("the ring before").isSameAs(updates.get(i - 1).current());
            assertThat(u.current().fingerprint()).isEqualTo(v.ring().fingerprint());
            assertThat(u.committedAt()).isEqualTo(v.committedAt());
            steps.add(u.planStep());
        }
        assertThat(steps).containsExactly(null, new PlanStep("3f9a2c01b7d4", 1, 3),
                new PlanStep("3f9a2c01b7d4", 2, 3), new PlanStep("3f9a2c01b7d4", 3, 3), null);
        assertThat(changed).as("a ringChanged lambda is told of every version as before").containsExactly(1L, 2L,
                3L, 4L, 5L, 6L);
        assertThat(c.reloads()).isZero();
    }

    @Test
    void aPlanMarkThatIsNotAPlanStep_isIgnored_neitherReloadingNorStoppingTheClient() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("n", 3);
        RingClient c = client(stub);
        List<String> marks = List.of("\"oops\"", "[1,2]", "{\"id\":\"p\",\"step\":\"2\",\"of\":3}",
                "{\"id\":\"p\",\"step\":0,\"of\":3}", "{\"id\":\"p\",\"step\":4,\"of\":3}",
                "{\"id\":42,\"step\":1,\"of\":3}", "{\"id\":\"p\",\"step\":1.5,\"of\":3}");
        for (int i = 0; i < marks.size(); i++) {
            String mark = marks.get(i);
            stub.tamperNextEvent(data -> data.substring(0, data.lastIndexOf('}')) + ",\"plan\":" + mark + "}");
            stub.put("m" + i, 1, null);
        }
        step(stub, "after", 1, 1); // and a good mark right after
        long last = stub.current().version();
        assertThat(c.awaitVersion(last, WAIT)).isTrue();
        awaitUpdates((int) last);
        for (int i = 1; i < marks.size() + 1; i++) {
            RingUpdate u = updates.get(i);
            assertThat(u.source()).as(marks.get(i - 1)).isEqualTo(Source.CHANGE);
            assertThat(u.planStep()).as(marks.get(i - 1)).isNull();
        }
        assertThat(updates.get((int) last - 1).planStep()).isEqualTo(new PlanStep("after", 1, 1));
        assertThat(c.reloads()).as("every version applied as a change").isZero();
        assertThat(stub.ifNoneMatches.stream().filter(String::isEmpty).count()).as("loaded whole once").isEqualTo(1);
        assertThat(c.ring().fingerprint()).isEqualTo(stub.current().ring().fingerprint());
    }

    @Test
    void aRingLoadedWhole_overAPlanStep_saysSo_andNamesNoStep() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("n", 3);
        RingClient c = client(stub);
        step(stub, "gap", 1, 3); // v2
        stub.skipNextEvent();
        step(stub, "gap", 2, 3); // v3 never reaches the stream
        step(stub, "gap", 3, 3); // v4 after v2: a gap, and a reload to v4
        eventually("reloaded to version 4", () -> c.version() == 4);
        awaitUpdates(3);
        assertThat(updates.get(1).planStep()).isEqualTo(new PlanStep("gap", 1, 3));
        RingUpdate whole = updates.get(2);
        assertThat(whole.version()).isEqualTo(4);
        assertThat(whole.source()).isEqualTo(Source.WHOLE);
        assertThat(whole.planStepKnown()).isFalse();
        assertThat(whole.planStep()).as("a ring loaded whole carries no mark").isNull();
        assertThat(whole.previous()).isSameAs(updates.get(1).current());
        assertThat(c.reloads()).isEqualTo(1);
    }

    @Test
    void aRingUpdate_loadedWhole_cannotNameAStep_andOnUpdateNeedsAnAction() {
        HashRing ring = HashRing.empty(StubRingServer.DEFAULT_SETTINGS.toConfig());
        assertThatThrownBy(() -> new RingUpdate(null, ring, null, Source.WHOLE, new PlanStep("p", 1, 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new RingUpdate(null, ring, null, Source.CHANGE, new PlanStep("p", 1, 1)).planStepKnown())
                .isTrue();
        assertThatThrownBy(() -> RingClient.Listener.onUpdate(null)).isInstanceOf(NullPointerException.class);
        List<HashRing> told = new ArrayList<>();
        RingClient.Listener old = (previous, current) -> told.add(current);
        old.ringUpdated(new RingUpdate(null, ring, null, Source.WHOLE, null));
        assertThat(told).as("ringUpdated's default calls ringChanged").containsExactly(ring);
    }

    @Test
    void theCliWatch_printsThePlanStepBesideEachVersion() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("n", 3);
        PipedOutputStream keys = new PipedOutputStream();
        PipedInputStream input = new PipedInputStream(keys);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> status = pool.submit(() -> RingClientCli.run(new String[] {stub.baseUrl(), "--watch",
                    "--no-reports", "--timeout", "15"}, input, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8)));
            eventually("the first version line", () -> out.toString(StandardCharsets.UTF_8).contains("version 1 "));
            eventually("streaming", () -> stub.openStreams() == 1);
            step(stub, "3f9a2c01b7d4", 1, 2);
            stub.put("plain", 1, null);
            step(stub, "3f9a2c01b7d4", 2, 2);
            eventually("the last version line", () -> out.toString(StandardCharsets.UTF_8).contains("version 4 "));
            keys.close(); // the end of its input ends it
            assertThat(status.get(15, TimeUnit.SECONDS)).as("stderr: %s", err).isZero();
        } finally {
            pool.shutdownNow();
        }
        assertThat(out.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly(
                "version 1 " + stub.at(1).ring().fingerprint() + " ring default",
                "version 2 " + stub.at(2).ring().fingerprint() + " ring default plan 3f9a2c01b7d4 step 1 of 2",
                "version 3 " + stub.at(3).ring().fingerprint() + " ring default",
                "version 4 " + stub.at(4).ring().fingerprint() + " ring default plan 3f9a2c01b7d4 step 2 of 2");
    }
}
