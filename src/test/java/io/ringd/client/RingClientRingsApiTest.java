package io.ringd.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.restassured.response.Response;
import io.ringd.RealServerTest;
import io.ringd.ring.HashRing;
import tools.jackson.databind.JsonNode;

/**
 * The client on named rings (docs/ring.md section 22), against the real
 * server: each client follows and routes by its own ring, a deleted ring
 * makes its client stop answering, a ring made again is followed again.
 * Every ring made here is deleted after each test.
 */
@Timeout(120)
class RingClientRingsApiTest extends RealServerTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String A = "rc-sessions";
    private static final String B = "rc-carts";

    private final List<String> made = new ArrayList<>();
    private final List<RingClient> clients = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        clients.forEach(RingClient::close);
        for (String name : made) {
            int status = admin().delete("/rings/" + name).statusCode();
            assertThat(status).as("deleting the ring %s", name).isIn(204, 404);
        }
    }

    // ------------------------------------------------------------ helpers

    /** POST /rings {"name": name, "settings": {"hash": hash}}; remembered for deletion. */
    private void makeRing(String name, String hash) {
        made.add(name);
        Response r = adminJson("{\"name\":\"" + name + "\",\"settings\":{\"hash\":\"" + hash + "\"}}").post("/rings");
        assertThat(r.statusCode()).as("POST /rings %s: %s", name, r.asString()).isEqualTo(201);
        assertThat(r.header("X-Ring-Name")).isEqualTo(name);
    }

    private void deleteRing(String name) {
        Response r = admin().delete("/rings/" + name);
        assertThat(r.statusCode()).as("DELETE /rings/%s: %s", name, r.asString()).isEqualTo(204);
    }

    /** Puts nodes ("id:weight[:zone]") into the ring {@code name}, one batch; the version it made. */
    private long putInto(String name, String... specs) {
        return putAllInto(name, specs);
    }

    private RingClient client(String ring) {
        RingClient c = RingClient.builder("http://127.0.0.1:" + port).ring(ring).metrics(false)
                .backoff(Duration.ofMillis(20), Duration.ofMillis(200)).goneRecheck(Duration.ofMillis(400)).build();
        clients.add(c);
        return c;
    }

    private static List<String> keys(int n) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add("user:" + i);
        }
        keys.add("ключ/é 😀");
        return keys;
    }

    /** The client routes every key as the server's ring {@code name} does, at the client's version. */
    private void assertRoutesLikeTheServersRing(RingClient client, String name, List<String> keys) {
        HashRing ring = client.ring();
        for (String k : keys) {
            JsonNode route = fastGet("/rings/" + name + "/route/" + enc(k));
            assertThat(route.get("version").asLong()).as("the server's %s is at the client's version", name)
                    .isEqualTo(ring.version());
            assertThat(ring.route(k)).as("%s: route %s", name, k).isEqualTo(route.get("node").asString());
        }
    }

    private static void eventually(String what, Duration within, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() < deadline).as("within %s: %s", within, what).isTrue();
            Thread.sleep(10);
        }
    }

    // ------------------------------------------------------------ two rings

    @Test
    void twoClientsOnTwoRings_routeEachByItsOwnRing() throws Exception {
        makeRing(A, "md5");
        makeRing(B, "murmur3");
        long va = putInto(A, "sa-1:1:z1", "sa-2:2:z2", "sa-3:1");
        long vb = putInto(B, "sb-1:1", "sb-2:1:z1", "sb-3:3:z2", "sb-4:0.5");
        RingClient a = client(A);
        RingClient b = client(B);
        assertThat(a.ringName()).isEqualTo(A);
        assertThat(b.ringName()).isEqualTo(B);
        assertThat(a.awaitVersion(va, WAIT)).as("%s", a).isTrue();
        assertThat(b.awaitVersion(vb, WAIT)).as("%s", b).isTrue();

        assertThat(a.ring().fingerprint()).isEqualTo(getJson("/rings/" + A + "/ring").get("fingerprint").asString());
        assertThat(b.ring().fingerprint()).isEqualTo(getJson("/rings/" + B + "/ring").get("fingerprint").asString());
        assertThat(a.ring().fingerprint()).isNotEqualTo(b.ring().fingerprint());
        List<String> keys = keys(300);
        assertRoutesLikeTheServersRing(a, A, keys);
        assertRoutesLikeTheServersRing(b, B, keys);
        assertThat(a.ring().nodes()).allMatch(n -> n.id().startsWith("sa-"));
        assertThat(b.ring().nodes()).allMatch(n -> n.id().startsWith("sb-"));
    }

    @Test
    void aWriteToOneRing_movesItsClient_notTheOther() throws Exception {
        makeRing(A, "md5");
        makeRing(B, "md5");
        putInto(A, "wa-1:1");
        long vb = putInto(B, "wb-1:1");
        RingClient a = client(A);
        RingClient b = client(B);
        try (RingClient byDefault = RingClient.builder("http://127.0.0.1:" + port).metrics(false).build()) {
            assertThat(b.awaitVersion(vb, WAIT)).isTrue();
            assertThat(byDefault.awaitReady(WAIT)).isTrue();
            long defaultVersion = byDefault.version();
            long bFingerprintVersion = b.version();
            String bFingerprint = b.ring().fingerprint();

            long va = putInto(A, "wa-2:2", "wa-3:1");
            va = putInto(A, "wa-4:1");
            assertThat(a.awaitVersion(va, WAIT)).as("A's client follows A: %s", a).isTrue();
            assertRoutesLikeTheServersRing(a, A, keys(100));
            Thread.sleep(500); // were B's client to hear of A's versions, it would have by now
            assertThat(b.version()).as("B's client").isEqualTo(bFingerprintVersion);
            assertThat(b.ring().fingerprint()).isEqualTo(bFingerprint);
            assertThat(byDefault.version()).as("the default ring's client").isEqualTo(defaultVersion);
            assertThat(byDefault.ringName()).isEqualTo("default");
        }
    }

    // ------------------------------------------------------------ gone

    @Test
    void aDeletedRing_isGone_andOneMadeAgainIsFollowedFromItsVersion0() throws Exception {
        makeRing(A, "md5");
        long v = putInto(A, "ga-1:1", "ga-2:1");
        List<String> gone = new CopyOnWriteArrayList<>();
        List<HashRing[]> swaps = new CopyOnWriteArrayList<>();
        RingClient a = RingClient.builder("http://127.0.0.1:" + port).ring(A).metrics(false)
                .backoff(Duration.ofMillis(20), Duration.ofMillis(200)).goneRecheck(Duration.ofMillis(400))
                .listener(new RingClient.Listener() {
                    @Override
                    public void ringChanged(HashRing previous, HashRing current) {
                        swaps.add(new HashRing[] {previous, current});
                    }

                    @Override
                    public void ringGone(String ringName, HashRing last) {
                        gone.add(ringName + "@" + (last == null ? "none" : last.version()));
                    }
                }).build();
        clients.add(a);
        assertThat(a.awaitVersion(v, WAIT)).isTrue();
        String incarnation = a.held().incarnation();
        assertThat(incarnation).isNotNull();

        long deleted = System.nanoTime();
        deleteRing(A);
        eventually("the client says the ring is gone", Duration.ofSeconds(5), a::isGone);
        assertThat(Duration.ofNanos(System.nanoTime() - deleted)).isLessThan(Duration.ofSeconds(5));
        assertThatThrownBy(() -> a.route("user:1")).isInstanceOf(RingGoneException.class)
                .hasMessageContaining("the ring " + A).hasMessageContaining("deleted")
                .satisfies(e -> assertThat(((RingGoneException) e).ringName()).isEqualTo(A));
        assertThatThrownBy(() -> a.preference("user:1", 2)).isInstanceOf(RingGoneException.class);
        assertThatThrownBy(a::ring).isInstanceOf(RingNotReadyException.class);
        assertThatThrownBy(() -> a.handoff("user:1")).isInstanceOf(RingGoneException.class);
        assertThat(a.isReady()).isFalse();
        assertThat(a.version()).isEqualTo(-1);
        assertThat(a.awaitReady(Duration.ofSeconds(5))).as("answers at once: the ring is gone").isFalse();
        assertThat(gone).as("told once, with the last ring").containsExactly(A + "@" + v);

        // it asks again slowly: about every 200-400 ms here, not every 20 ms as its backoff would
        long before = a.reconnects();
        Thread.sleep(2_000);
        assertThat(a.reconnects() - before).as("asks again while gone, slowly").isBetween(2L, 12L);
        assertThat(gone).as("still told once").hasSize(1);
        assertThat(a.isGone()).isTrue();

        swaps.clear();
        makeRing(A, "murmur3");
        eventually("the ring made again is followed", WAIT, () -> a.isReady() && !a.isGone());
        assertThat(a.version()).as("a ring made again starts at version 0").isZero();
        assertThat(a.held().incarnation()).as("another incarnation").isNotNull().isNotEqualTo(incarnation);
        assertThat(a.ring().nodes()).isEmpty();
        eventually("the listener told", WAIT, () -> swaps.size() == 1); // told just after the ring is held
        assertThat(swaps).hasSize(1);
        assertThat(swaps.get(0)[0]).as("told as a first ring").isNull();
        long again = putInto(A, "gb-1:1:z1", "gb-2:2:z2");
        assertThat(a.awaitVersion(again, WAIT)).isTrue();
        assertThat(a.held().incarnation()).isEqualTo(getJson("/rings/" + A + "/ring").get("incarnation").asString());
        assertRoutesLikeTheServersRing(a, A, keys(100));
        assertThat(gone).hasSize(1);
    }

    @Test
    void aRingNeverMade_isGoneFromTheFirstConnect() throws Exception {
        RingClient c = client("rc-never-made");
        eventually("the client says the ring is gone", Duration.ofSeconds(5), c::isGone);
        assertThat(c.awaitReady(Duration.ofSeconds(5))).isFalse();
        assertThatThrownBy(() -> c.route("k")).isInstanceOf(RingGoneException.class)
                .hasMessageContaining("rc-never-made").hasMessageContaining("never made");
        assertThat(c.toString()).contains("rc-never-made").contains("gone");
    }

    // ------------------------------------------------------------ names

    @Test
    void theBuilder_takesOnlyRingNames() {
        for (String bad : new String[] {"", "A", "Sessions", "-a", "a-", "a_b", "a/b", "a.b", "a b", "é",
                "a".repeat(64)}) {
            assertThatThrownBy(() -> RingClient.builder("http://127.0.0.1:" + port).ring(bad))
                    .as("ring name \"%s\"", bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("a ring name is 1 to 63 characters");
        }
        assertThatThrownBy(() -> RingClient.builder("http://127.0.0.1:" + port).ring(null))
                .isInstanceOf(NullPointerException.class);
        for (String good : new String[] {"a", "0", "a-b", "sessions", "a--9", "a".repeat(63)}) {
            RingClient.builder("http://127.0.0.1:" + port).ring(good); // taken
        }
    }

    // ------------------------------------------------------------ the command line

    @Test
    void theCli_routesByTheRingNamed() throws Exception {
        makeRing(A, "sha256");
        long v = putInto(A, "ca-1:1:z1", "ca-2:1:z2", "ca-3:2");
        List<String> keys = keys(100);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = RingClientCli.run(new String[] {"http://127.0.0.1:" + port, "--ring", A, "--await-version",
                Long.toString(v), "--timeout", "20"},
                new ByteArrayInputStream((String.join("\n", keys) + "\n").getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).as("stderr: %s", err.toString(StandardCharsets.UTF_8)).isZero();
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(keys.size() + 1);
        JsonNode ring = getJson("/rings/" + A + "/ring");
        assertThat(lines.get(0)).isEqualTo("version " + v + " " + ring.get("fingerprint").asString() + " ring " + A);
        for (int i = 0; i < keys.size(); i++) {
            assertThat(lines.get(i + 1)).as("route %s", keys.get(i))
                    .isEqualTo(fastGet("/rings/" + A + "/route/" + enc(keys.get(i))).get("node").asString());
        }
    }

    @Test
    void theCli_saysSoOfARingThatDoesNotExist_andOfABadName() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long started = System.nanoTime();
        int status = RingClientCli.run(new String[] {"http://127.0.0.1:" + port, "--ring", "rc-no-such-ring"},
                new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).isEqualTo(1);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("not the whole timeout")
                .isLessThan(Duration.ofSeconds(10));
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("the ring rc-no-such-ring does not exist");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();

        err.reset();
        status = RingClientCli.run(new String[] {"http://127.0.0.1:" + port, "--ring", "Bad_Name"},
                new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("a ring name is 1 to 63 characters")
                .contains("usage:");
    }
}
