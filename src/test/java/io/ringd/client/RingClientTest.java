package io.ringd.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ringd.client.StubRingServer.Version;
import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingDiff;
import io.ringd.ring.RingException;
import io.ringd.wire.SettingsJson;

/** The client against a stand-in server on loopback that follows docs/ring.md section 20, and misbehaves on request. */
@Timeout(60)
class RingClientTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    private final List<AutoCloseable> toClose = new ArrayList<>();
    /** Every (previous, current) pair the listener was told of. */
    private final List<HashRing[]> swaps = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private StubRingServer stub() throws Exception {
        return closing(StubRingServer.start());
    }

    private <T extends AutoCloseable> T closing(T t) {
        toClose.add(t);
        return t;
    }

    private RingClientBuilder builder(String baseUrl) {
        return RingClient.builder(baseUrl).backoff(Duration.ofMillis(20), Duration.ofMillis(300))
                .requestTimeout(Duration.ofSeconds(2)).idleTimeout(Duration.ofSeconds(5)).metrics(false)
                .listener((previous, current) -> swaps.add(new HashRing[] {previous, current}));
    }

    private RingClient client(StubRingServer stub) throws InterruptedException {
        RingClient c = closing(builder(stub.baseUrl()).build());
        assertThat(c.awaitReady(WAIT)).as("ready").isTrue();
        return c;
    }

    private static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() < deadline).as("within %s: %s", WAIT, what).isTrue();
            Thread.sleep(10);
        }
    }

    /** Waits until the listener was told of {@code n} rings. */
    private void awaitSwaps(int n) throws InterruptedException {
        eventually(n + " rings told", () -> swaps.size() >= n);
        Thread.sleep(50); // and no more than n
        assertThat(swaps).hasSize(n);
    }

    /** How many times the stub was asked for the whole ring (GET /ring without If-None-Match). */
    private static long loads(StubRingServer stub) {
        return stub.ifNoneMatches.stream().filter(String::isEmpty).count();
    }

    private static List<String> keys() {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            keys.add("user:" + i);
        }
        keys.add("ключ/é 😀");
        keys.add("a;b%2F..");
        return keys;
    }

    /** The ring answers exactly like the library's ring for the stub's version, built from scratch. */
    private static void assertAnswersLike(HashRing ring, Version v) {
        HashRing library = HashRing.of(v.settings().toConfig(), v.version(), v.ring().nodes());
        assertThat(ring.version()).isEqualTo(library.version());
        assertThat(ring.fingerprint()).as("fingerprint at v%d", v.version()).isEqualTo(library.fingerprint());
        assertThat(ring.nodes()).isEqualTo(library.nodes());
        assertThat(ring.config()).isEqualTo(library.config());
        if (library.isEmpty()) {
            assertThatThrownBy(() -> ring.route("k")).isInstanceOf(RingException.NoNodes.class);
            return;
        }
        for (String k : keys()) {
            assertThat(ring.route(k)).as("route %s at v%d", k, v.version()).isEqualTo(library.route(k));
            assertThat(ring.preference(k, 3)).isEqualTo(library.preference(k, 3));
            assertThat(ring.preference(k, 4, true)).isEqualTo(library.preference(k, 4, true));
        }
    }

    /** Every ring a listener saw is the stub's ring at that version. */
    private void assertEverySwapMatches(StubRingServer stub) {
        for (HashRing[] s : swaps) {
            assertAnswersLike(s[1], stub.at(s[1].version()));
        }
    }

    // ------------------------------------------------------------ loading and following

    @Test
    void loadsTheRing_andAnswersLikeTheLibrary() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("cache-", 7);
        RingClient c = client(stub);
        Version v = stub.current();
        assertThat(c.version()).isEqualTo(1);
        assertThat(c.committedAt()).contains(v.committedAt());
        assertAnswersLike(c.ring(), v);
        for (String k : keys()) {
            assertThat(c.route(k)).isEqualTo(v.ring().route(k));
            assertThat(c.preference(k, 2)).isEqualTo(v.ring().preference(k, 2));
            assertThat(c.preference(k, 3, true)).isEqualTo(v.ring().preference(k, 3, true));
        }
        eventually("the stream opened from version 1", () -> stub.lastEventIds.contains("1"));
        assertThat(loads(stub)).isEqualTo(1);
        assertThat(c.reloads()).isZero();
        assertThat(c.toString()).startsWith("RingClient[" + stub.baseUrl() + ", v1, heard");
    }

    @Test
    void appliesChangesIncrementally_verifyingEachFingerprint_andAnswersLikeTheLibraryAtEveryVersion() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        StubRingServer stub = stub();
        stub.putMany("n", 5);
        RingClient c = client(stub);
        eventually("streaming", () -> stub.openStreams() == 1);
        List<String> ids = new ArrayList<>(List.of("n0", "n1", "n2", "n3", "n4"));
        for (int i = 0; i < 60; i++) {
            int what = random.nextInt(10);
            if (what < 4 || ids.size() < 2) {
                String id = "n" + (5 + i);
                ids.add(id);
                stub.put(id, 0.5 + random.nextInt(6) * 0.5, random.nextBoolean() ? "z" + random.nextInt(3) : null);
            } else if (what < 6) {
                stub.remove(ids.remove(random.nextInt(ids.size())));
            } else if (what < 8) { // reweight or move zone
                String id = ids.get(random.nextInt(ids.size()));
                stub.put(id, 0.25 + random.nextInt(8) * 0.25, "z" + random.nextInt(4));
            } else if (what < 9) { // a batch
                String gone = ids.remove(random.nextInt(ids.size()));
                String added = "b" + i;
                ids.add(added);
                stub.commit(List.of(Change.remove(gone), Change.put(Node.of(added, 2))), null);
            } else { // settings, alone or with changes (the library takes two steps, the server one version)
                String[] hashes = {"md5", "murmur3", "sha256"};
                SettingsJson s = new SettingsJson(hashes[random.nextInt(3)], 16 << random.nextInt(4), "ring", 65_537);
                if (random.nextBoolean()) {
                    String added = "s" + i;
                    ids.add(added);
                    stub.commit(List.of(Change.put(Node.of(added, 1))), s);
                } else {
                    stub.commit(List.of(), s);
                }
            }
        }
        // a version that changes only the Maglev table size: the same ring, one version later
        stub.commit(List.of(), new SettingsJson(stub.current().settings().hash(),
                stub.current().settings().vnodesPerWeight(), "ring", 1_009));
        long last = stub.current().version();
        assertThat(c.awaitVersion(last, WAIT)).as("seed %d: reached v%d, at v%d", seed, last, c.version()).isTrue();
        assertThat(c.reloads()).as("seed %d: no reload", seed).isZero();
        assertThat(loads(stub)).as("seed %d: the whole ring loaded once", seed).isEqualTo(1);
        awaitSwaps((int) last);
        for (int i = 1; i < swaps.size(); i++) {
            assertThat(swaps.get(i)[1].version()).as("seed %d: every version in order", seed).isEqualTo(i + 1);
        }
        assertEverySwapMatches(stub);
        assertAnswersLike(c.ring(), stub.current());
    }

    @Test
    void followsEveryPlacement_ketamaAndMaglevIncluded() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("p", 4);
        RingClient c = client(stub);
        eventually("streaming", () -> stub.openStreams() == 1);
        stub.commit(List.of(), new SettingsJson("ketama", 128, "ring", 65_537));
        stub.put("p9", 2, "z1");
        stub.commit(List.of(Change.remove("p0")), new SettingsJson("md5", 128, "maglev", 1_009));
        stub.put("p10", 1, null);
        stub.commit(List.of(), new SettingsJson("murmur3", 128, "maglev", 2_003));
        stub.commit(List.of(), new SettingsJson("sha256", 64, "ring", 2_003));
        long last = stub.current().version();
        assertThat(c.awaitVersion(last, WAIT)).isTrue();
        assertThat(c.reloads()).isZero();
        awaitSwaps((int) last);
        assertEverySwapMatches(stub);
    }

    @Test
    void listeners_getTheOldAndNewSnapshots() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("a", 3);
        RingClient c = client(stub);
        List<RingDiff> diffs = new CopyOnWriteArrayList<>();
        c.addListener((previous, current) -> diffs.add(HashRing.diff(previous, current)));
        eventually("streaming", () -> stub.openStreams() == 1);
        stub.put("b", 1, null);
        stub.remove("a0");
        assertThat(c.awaitVersion(3, WAIT)).isTrue();
        awaitSwaps(3);
        eventually("two diffs", () -> diffs.size() == 2);
        assertThat(swaps.get(0)[0]).as("the first ring has no previous").isNull();
        assertThat(swaps.get(0)[1].version()).isEqualTo(1);
        for (int i = 1; i < swaps.size(); i++) {
            assertThat(swaps.get(i)[0]).as("previous is the ring before").isSameAs(swaps.get(i - 1)[1]);
        }
        assertThat(diffs.get(0).movedCount())
                .isEqualTo(HashRing.diff(stub.at(1).ring(), stub.at(2).ring()).movedCount()).isPositive();
        assertThat(diffs.get(1).movedCount())
                .isEqualTo(stub.at(2).ring().ownership().shares().stream().filter(o -> o.node().id().equals("a0"))
                        .findFirst().orElseThrow().count());
        RingClient.Listener failing = (p, n) -> {
            throw new IllegalStateException("a listener that fails");
        };
        c.addListener(failing);
        stub.put("b", 2, null);
        assertThat(c.awaitVersion(4, WAIT)).as("a failing listener does not stop the client").isTrue();
        c.removeListener(failing);
        eventually("the other listeners still told", () -> diffs.size() == 3);
    }

    // ------------------------------------------------------------ reloads: gap, mismatch, unexpected

    @Test
    void aGap_triggersAReload() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("g", 4);
        RingClient c = client(stub);
        eventually("streaming", () -> stub.openStreams() == 1);
        stub.skipNextEvent();
        stub.put("h", 1, null); // version 2 never reaches the stream
        stub.put("i", 1, null); // version 3 follows version 1: a gap
        eventually("reloaded to version 3", () -> c.version() == 3);
        assertThat(c.reloads()).isEqualTo(1);
        assertThat(loads(stub)).as("a reload asks for the whole ring").isEqualTo(2);
        awaitSwaps(2);
        assertThat(swaps).extracting(s -> s[1].version()).containsExactly(1L, 3L);
        assertEverySwapMatches(stub);
        stub.put("j", 1, null);
        assertThat(c.awaitVersion(4, WAIT)).as("following again after the reload").isTrue();
        assertThat(c.reloads()).isEqualTo(1);
    }

    @Test
    void aFingerprintMismatch_triggersAReload_andTheBadRingIsNeverExposed() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("m", 4);
        RingClient c = client(stub);
        List<String> seen = new CopyOnWriteArrayList<>();
        c.addListener((p, n) -> seen.add(n.version() + " " + n.fingerprint()));
        eventually("streaming", () -> stub.openStreams() == 1);
        // the event says weight 3 where the server's ring (and fingerprint) has weight 1
        stub.tamperNextEvent(data -> data.replace("\"weight\":1.0", "\"weight\":3.0"));
        Version v2 = stub.put("x", 1, null);
        eventually("reloaded to version 2, streaming again", () -> c.version() == 2 && stub.streamsOpened.get() == 2);
        assertThat(c.reloads()).isEqualTo(1);
        eventually("told", () -> seen.size() >= 1);
        assertThat(seen).containsExactly("2 " + v2.ring().fingerprint());
        assertAnswersLike(c.ring(), v2);
        assertEverySwapMatches(stub);
        // and a fingerprint that is not the server's ring
        stub.tamperNextEvent(data -> data.replaceAll("\"fingerprint\":\"[0-9a-f]{64}\"",
                "\"fingerprint\":\"" + "0".repeat(64) + "\""));
        Version v3 = stub.put("y", 2, "z9");
        eventually("reloaded to version 3", () -> c.version() == 3);
        assertThat(c.reloads()).isEqualTo(2);
        eventually("told", () -> seen.size() >= 2);
        assertThat(seen).containsExactly("2 " + v2.ring().fingerprint(), "3 " + v3.ring().fingerprint());
        assertEverySwapMatches(stub);
    }

    @Test
    void aRingThatDoesNotVerify_isNeverAnsweredFrom() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("v", 3);
        stub.tamperRing(body -> body.replace("\"weight\":2.0", "\"weight\":2.5"));
        RingClient c = closing(builder(stub.baseUrl()).build());
        eventually("asked twice", () -> stub.ringRequests.get() >= 2);
        assertThat(c.isReady()).isFalse();
        assertThat(c.version()).isEqualTo(-1);
        assertThatThrownBy(() -> c.route("k")).isInstanceOf(RingNotReadyException.class)
                .hasMessageContaining(stub.baseUrl());
        assertThat(stub.eventRequests.get()).as("no stream without a verified ring").isZero();
        stub.tamperRing(body -> body);
        assertThat(c.awaitReady(WAIT)).isTrue();
        assertAnswersLike(c.ring(), stub.current());
        awaitSwaps(1);
    }

    @Test
    void anUnexpectedEvent_triggersAReload() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("u", 3);
        RingClient c = client(stub);
        eventually("streaming", () -> stub.openStreams() == 1);
        stub.sendRaw("event: surprise\nid: 2\ndata: {}\n\n");
        eventually("reloaded and streaming again", () -> c.reloads() == 1 && stub.streamsOpened.get() == 2);
        stub.sendRaw("event: change\nid: 2\ndata: {not json\n\n");
        eventually("reloaded again", () -> c.reloads() == 2);
        assertThat(c.version()).isEqualTo(1);
        stub.put("w", 1, null);
        assertThat(c.awaitVersion(2, WAIT)).isTrue();
        assertEverySwapMatches(stub);
    }

    // ------------------------------------------------------------ connections

    @Test
    void aDroppedConnection_reconnectsWithLastEventId_andGetsWhatItMissedAsChanges() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("d", 4);
        RingClient c = client(stub);
        eventually("streaming", () -> stub.openStreams() == 1);
        stub.refuseStreams(true);
        stub.dropStreams();
        eventually("refused once", () -> stub.eventRequests.get() >= 2);
        stub.put("e", 1, "z1");
        stub.put("f", 2, null);
        assertThat(c.version()).isEqualTo(1);
        stub.refuseStreams(false);
        assertThat(c.awaitVersion(3, WAIT)).isTrue();
        assertThat(stub.lastEventIds).as("every stream resumed from the version held").containsOnly("1");
        assertThat(c.reloads()).as("resumed, not reloaded").isZero();
        assertThat(c.reconnects()).isGreaterThanOrEqualTo(2);
        awaitSwaps(3);
        assertThat(swaps).extracting(s -> s[1].version()).containsExactly(1L, 2L, 3L);
        assertThat(stub.ifNoneMatches.subList(1, stub.ifNoneMatches.size()))
                .as("a reconnect asks whether the ring held is still the server's")
                .allMatch(t -> t.equals("\"1-" + stub.at(1).ring().fingerprint().substring(0, 16) + "\""));
        stub.dropStreams();
        eventually("resumed from 3", () -> stub.lastEventIds.contains("3"));
        stub.put("g", 1, null);
        assertThat(c.awaitVersion(4, WAIT)).isTrue();
        assertEverySwapMatches(stub);
    }

    @Test
    void aServerDownAtStart_isRetriedUntilItComesUp() throws Exception {
        int port = StubRingServer.freePort();
        RingClient c = closing(builder("http://127.0.0.1:" + port).build());
        eventually("retried", () -> c.reconnects() >= 3);
        assertThat(c.isReady()).isFalse();
        StubRingServer stub = closing(StubRingServer.start(port));
        stub.putMany("late", 3);
        assertThat(c.awaitReady(WAIT)).isTrue();
        assertAnswersLike(c.ring(), stub.current());
    }

    @Test
    void keepAlives_updateLastHeard_andASilentStreamIsDroppedAfterTheIdleTimeout() throws Exception {
        StubRingServer stub = stub();
        stub.keepAlive(Duration.ofMillis(100));
        stub.putMany("k", 2);
        RingClient c = closing(builder(stub.baseUrl()).requestTimeout(Duration.ofMillis(500))
                .idleTimeout(Duration.ofMillis(800)).build());
        assertThat(c.awaitReady(WAIT)).isTrue();
        Instant first = c.lastHeard().orElseThrow();
        Thread.sleep(1_500); // longer than the request and idle timeouts: keep-alives hold the stream open
        assertThat(c.lastHeard().orElseThrow()).isAfter(first);
        assertThat(c.sinceLastHeard()).isLessThan(Duration.ofMillis(500));
        assertThat(stub.eventRequests.get()).as("one stream, kept open by keep-alives").isEqualTo(1);
        stub.keepAlive(null); // silent, the connection open
        Thread.sleep(600);
        assertThat(c.sinceLastHeard()).isGreaterThanOrEqualTo(Duration.ofMillis(400));
        eventually("the silent stream dropped and opened again", () -> stub.eventRequests.get() >= 2);
        assertThat(c.reloads()).isZero();
        stub.keepAlive(Duration.ofMillis(100));
        stub.put("after-silence", 1, null);
        assertThat(c.awaitVersion(2, WAIT)).isTrue();
    }

    // ------------------------------------------------------------ a new history (a restart with a memory store)

    @Test
    void aNewHistoryAtTheSameVersion_isReloaded_notResumed() throws Exception {
        StubRingServer first = StubRingServer.start();
        int port = first.port();
        first.putMany("old", 3);
        first.put("old-x", 1, null);
        RingClient c = client(first);
        assertThat(c.awaitVersion(2, WAIT)).isTrue();
        first.close();
        StubRingServer second = closing(StubRingServer.start(port));
        second.putMany("new", 4);
        second.put("new-y", 2, null);
        assertThat(second.current().version()).isEqualTo(2);
        eventually("the new history's ring", () -> c.ring().fingerprint().equals(second.current().ring().fingerprint()));
        assertThat(c.reloads()).isEqualTo(1);
        assertAnswersLike(c.ring(), second.current());
        for (HashRing[] s : swaps) {
            Version v = s[1].nodes().stream().anyMatch(n -> n.id().startsWith("old"))
                    ? first.at(s[1].version()) : second.at(s[1].version());
            assertAnswersLike(s[1], v);
        }
    }

    @Test
    void aNewHistoryBehindOrAhead_isNeverTakenForTheOld() throws Exception {
        StubRingServer first = StubRingServer.start();
        int port = first.port();
        first.putMany("old", 3);
        first.put("old-x", 1, null);
        first.put("old-y", 1, null);
        RingClient c = client(first);
        assertThat(c.awaitVersion(3, WAIT)).isTrue();
        first.close();
        StubRingServer behind = StubRingServer.start(port);
        behind.putMany("behind", 2);
        eventually("the older version of the new history", () -> c.version() == 1);
        assertAnswersLike(c.ring(), behind.current());
        behind.close();
        StubRingServer ahead = closing(StubRingServer.start(port));
        ahead.putMany("ahead", 3);
        for (int i = 0; i < 4; i++) {
            ahead.put("ahead-" + i, 1, null);
        }
        eventually("the newer version of the other history",
                () -> c.version() == 5 && c.ring().fingerprint().equals(ahead.current().ring().fingerprint()));
        assertAnswersLike(c.ring(), ahead.current());
        for (HashRing[] s : swaps) {
            String prefix = s[1].nodes().isEmpty() ? "" : s[1].nodes().get(0).id();
            StubRingServer from = prefix.startsWith("old") ? first : prefix.startsWith("behind") ? behind : ahead;
            assertAnswersLike(s[1], from.at(s[1].version()));
        }
    }

    @Test
    void aChangeOfAnotherIncarnation_isNeverApplied_andStreamsNameTheIncarnationHeld() throws Exception {
        StubRingServer stub = closing(StubRingServer.start());
        stub.incarnation("aaaaaaaaaaaaaaaa");
        stub.putMany("a", 3);
        RingClient c = client(stub);
        assertThat(c.awaitVersion(1, WAIT)).isTrue();
        eventually("a stream naming the incarnation held", () -> stub.incarnationHeaders.contains("aaaaaaaaaaaaaaaa"));
        // the server's ring is made anew: its next change is of another history, though it would apply cleanly
        stub.incarnation("bbbbbbbbbbbbbbbb");
        stub.put("b-x", 1, null);
        eventually("the other history's ring, fetched whole", () -> c.version() == 2 && c.reloads() == 1);
        assertAnswersLike(c.ring(), stub.current());
        eventually("a stream naming the new incarnation", () -> stub.incarnationHeaders.contains("bbbbbbbbbbbbbbbb"));
        assertThat(stub.incarnationHeaders.get(0)).isEqualTo("aaaaaaaaaaaaaaaa");
    }

    // ------------------------------------------------------------ life cycle and metrics

    @Test
    void beforeTheFirstRing_lookupsRefuse_andAwaitTimesOut() throws Exception {
        RingClient c = closing(builder("http://127.0.0.1:" + StubRingServer.freePort()).build());
        assertThatThrownBy(() -> c.route("k")).isInstanceOf(RingNotReadyException.class);
        assertThatThrownBy(() -> c.preference("k", 2)).isInstanceOf(RingNotReadyException.class);
        assertThatThrownBy(c::ring).isInstanceOf(RingNotReadyException.class);
        assertThat(c.version()).isEqualTo(-1);
        assertThat(c.committedAt()).isEmpty();
        assertThat(c.lastHeard()).isEmpty();
        assertThat(c.awaitReady(Duration.ofMillis(200))).isFalse();
        assertThat(c.sinceLastHeard()).isGreaterThanOrEqualTo(Duration.ofMillis(200));
    }

    @Test
    void anEmptyRing_isReady_butHasNoNodes() throws Exception {
        StubRingServer stub = stub();
        RingClient c = client(stub);
        assertThat(c.version()).isZero();
        assertThatThrownBy(() -> c.route("k")).isInstanceOf(RingException.NoNodes.class);
        stub.put("only", 1, null);
        assertThat(c.awaitVersion(1, WAIT)).isTrue();
        assertThat(c.route("k")).isEqualTo("only");
    }

    @Test
    void close_endsTheStream_andKeepsTheRingReadable() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("c", 3);
        RingClient c = client(stub);
        eventually("streaming", () -> stub.openStreams() == 1);
        c.close();
        c.close();
        assertThat(c.isClosed()).isTrue();
        assertThat(threadsNamed("ringd-client")).as("its threads end").isEmpty();
        stub.put("after-close", 1, null);
        Thread.sleep(200);
        assertThat(c.version()).isEqualTo(1);
        assertThat(c.route("k")).isEqualTo(stub.at(1).ring().route("k"));
        assertThat(c.awaitVersion(2, Duration.ofSeconds(5))).as("a closed client does not wait").isFalse();
    }

    private static List<String> threadsNamed(String prefix) throws InterruptedException {
        List<String> names = new ArrayList<>();
        long deadline = System.nanoTime() + WAIT.toNanos();
        do {
            names.clear();
            Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                    .filter(n -> n.startsWith(prefix)).forEach(names::add);
            if (names.isEmpty()) {
                break;
            }
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        return names;
    }

    @Test
    void metrics_reportVersionLastHeardLagReconnectsAndReloads() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("x", 3);
        RingClient c = client(stub);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RingClientMetrics metrics = new RingClientMetrics(c);
        metrics.bindTo(registry);
        String server = stub.baseUrl();
        assertThat(registry.get("ringd.client.ring.version").tag("server", server).tag("ring", "default").gauge()
                .value()).isEqualTo(1);
        assertThat(registry.get("ringd.client.ring.gone").tag("ring", "default").gauge().value()).isZero();
        eventually("streaming", () -> stub.openStreams() == 1);
        stub.put("y", 1, null);
        assertThat(c.awaitVersion(2, WAIT)).isTrue();
        assertThat(registry.get("ringd.client.ring.version").gauge().value()).isEqualTo(2);
        eventually("lag recorded", () -> registry.get("ringd.client.lag").timer().count() == 1);
        assertThat(registry.get("ringd.client.last.heard.age").gauge().value()).isBetween(0.0, 5.0);
        stub.dropStreams();
        eventually("reconnected", () -> registry.get("ringd.client.reconnects").functionCounter().count() >= 1
                && stub.streamsOpened.get() == 2);
        stub.skipNextEvent();
        stub.put("z", 1, null);
        stub.put("zz", 1, null);
        eventually("reload counted", () -> registry.get("ringd.client.reloads").functionCounter().count() == 1);
        metrics.close();
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void withMicrometerPresent_theMetricsGoToTheGlobalRegistry_untilClose() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("g", 2);
        assertThat(RingClient.micrometerPresent()).isTrue();
        RingClient c = closing(builder(stub.baseUrl()).metrics(true).build());
        assertThat(c.awaitReady(WAIT)).isTrue();
        assertThat(Metrics.globalRegistry.find("ringd.client.ring.version").tag("server", stub.baseUrl()).gauge())
                .isNotNull();
        c.close();
        assertThat(Metrics.globalRegistry.find("ringd.client.ring.version").tag("server", stub.baseUrl()).meters())
                .isEmpty();
    }

    @Test
    void theBuilder_checksItsArguments() {
        assertThatThrownBy(() -> RingClient.builder("ftp://h/")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ftp://h/");
        assertThatThrownBy(() -> RingClient.builder("http://h/?x=1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RingClient.builder("not a url")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a url");
        RingClientBuilder b = RingClient.builder("http://localhost:8080");
        assertThatThrownBy(() -> b.idleTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("idleTimeout");
        assertThatThrownBy(() -> b.backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT1S");
    }

    @Test
    void aBaseUrlWithAPath_isFollowedUnderThatPath() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("p", 2);
        // the stub serves /ring only: a base URL ending in / must not make //ring
        RingClient c = closing(builder(stub.baseUrl() + "/").build());
        assertThat(c.awaitReady(WAIT)).isTrue();
        assertAnswersLike(c.ring(), stub.current());
    }

    // ------------------------------------------------------------ named rings (docs/ring.md section 22)

    @Test
    void anAnswerAboutAnotherRing_isNeverUsed() throws Exception {
        StubRingServer stub = stub();
        stub.putMany("n", 3);
        stub.ringName("sessions");
        RingClient c = closing(builder(stub.baseUrl()).build());
        Thread.sleep(500);
        assertThat(c.isReady()).as("GET /ring answered for the ring sessions: not used").isFalse();
        assertThat(c.isGone()).isFalse();
        assertThat(swaps).isEmpty();
        stub.ringName("default");
        assertThat(c.awaitReady(WAIT)).isTrue();
        assertAnswersLike(c.ring(), stub.current());

        long v = c.version();
        stub.ringName("carts"); // the stream from now on answers for another ring
        stub.dropStreams();
        stub.putMany("m", 1);
        Thread.sleep(500);
        assertThat(c.version()).as("a stream answered for the ring carts: not followed").isEqualTo(v);
        stub.ringName(null); // a server that names no ring is trusted as before
        assertThat(c.awaitVersion(stub.current().version(), WAIT)).isTrue();
        assertEverySwapMatches(stub);
    }

    @Test
    void aNotFoundThatDoesNotNameTheRing_isAFailure_notAGoneRing() throws Exception {
        StubRingServer stub = stub(); // serves /ring only: /rings/sessions/ring is a plain 404
        stub.putMany("n", 2);
        RingClient c = closing(builder(stub.baseUrl()).ring("sessions").build());
        assertThat(c.ringName()).isEqualTo("sessions");
        assertThat(c.awaitReady(Duration.ofMillis(600))).isFalse();
        assertThat(c.isGone()).isFalse();
        assertThatThrownBy(() -> c.route("k")).isInstanceOf(RingNotReadyException.class)
                .isNotInstanceOf(RingGoneException.class);
        assertThat(c.reconnects()).as("retried with the backoff").isGreaterThan(1);
    }
}
