package io.ringd.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.ringd.RingdApplication;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * ringd instances on a real three-server ZooKeeper ensemble (curator-test,
 * in this JVM) when things go wrong under them: a writer that dies holding
 * the write lock, the ring's path deleted, another ring written in its
 * place, the whole ensemble's data wiped. Random choices are seeded ({@code -Dringd.seed=N}, printed
 * and in every failure message) and repeated for a few rounds.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ZooKeeperChaosTest {

    static final String TOKEN = "zookeeper-chaos-admin-token-0123456789";
    static final String PATH = "/ringd-chaos";
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    static final Duration CONVERGE = Duration.ofSeconds(20);
    static final long SEED = Long.getLong("ringd.seed", 20261201L);
    static final int ROUNDS = Integer.getInteger("ringd.chaos.rounds", 3);

    static TestingCluster cluster;
    static final List<ConfigurableApplicationContext> instances = new ArrayList<>();
    static final Random random = new Random(SEED);

    @BeforeAll
    static void ensembleAndTwoInstances() throws Exception {
        System.out.println("ZooKeeperChaosTest: seed " + SEED + " (-Dringd.seed=" + SEED + " replays it), "
                + ROUNDS + " rounds");
        cluster = new TestingCluster(3);
        cluster.start();
        instances.add(start());
        instances.add(start());
        awaitTrue("both instances writable", () -> status(0, "ring").equals("UP") && status(1, "ring").equals("UP"));
    }

    @AfterAll
    static void stopAll() throws IOException {
        for (ConfigurableApplicationContext c : instances) {
            if (c != null && c.isActive()) {
                c.close();
            }
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    static ConfigurableApplicationContext start(String... more) {
        List<String> args = new ArrayList<>(List.of(
                "--server.port=0",
                "--spring.main.banner-mode=off",
                "--ringd.store=zookeeper",
                "--ringd.zookeeper.connect=" + cluster.getConnectString(),
                "--ringd.zookeeper.path=" + PATH,
                "--ringd.zookeeper.session-timeout=10s",
                "--ringd.zookeeper.connect-timeout=3s",
                "--ringd.admin.token=" + TOKEN,
                "--management.endpoint.health.show-details=always",
                "--logging.level.io.ringd=WARN",
                "--logging.level.org.apache.zookeeper=ERROR",
                "--logging.level.org.apache.curator=ERROR"));
        args.addAll(List.of(more));
        if (args.stream().noneMatch(a -> a.startsWith("--ringd.zookeeper.new-ring-wait="))) {
            args.add("--ringd.zookeeper.new-ring-wait=1s"); // a fresh ensemble: the first instance need not wait long
        }
        return new SpringApplicationBuilder(RingdApplication.class).run(args.toArray(String[]::new));
    }

    // ------------------------------------------------------------ a crashed writer

    /**
     * A writer that dies holding the write lock (its connection cut as a
     * SIGKILL cuts it: the ensemble keeps its session, and its lock znode,
     * for the 10 s session timeout) holds the others' writes up once, for
     * the lock wait (1 s by default), and no more: every write through either
     * instance is answered within 2 s, in order, while the dead holder's
     * znode is still there.
     */
    @Test
    @Order(1)
    void aWriterKilledHoldingTheLock_delaysOtherWritesByAtMostTwoSeconds() throws Exception {
        long worst = 0;
        for (int round = 1; round <= ROUNDS; round++) {
            String where = "seed " + SEED + ", round " + round;
            InstanceSpec through = cluster.getInstances().stream().toList()
                    .get(random.nextInt(cluster.getInstances().size()));
            String holderNode;
            try (TcpProxy proxy = new TcpProxy("127.0.0.1", through.getPort());
                    CuratorFramework dying = CuratorFrameworkFactory.builder().connectString(proxy.address())
                            .sessionTimeoutMs(10_000).connectionTimeoutMs(3_000).retryPolicy(new RetryOneTime(100))
                            .build()) {
                dying.start();
                InterProcessMutex lock = new InterProcessMutex(dying, PATH + "/write-lock");
                assertThat(lock.acquire(10, java.util.concurrent.TimeUnit.SECONDS)).as(where).isTrue();
                holderNode = lock.getParticipantNodes().iterator().next();
                proxy.kill(); // the holder is gone, its session (and lock) not yet
                int writes = 4 + random.nextInt(5);
                for (int w = 0; w < writes; w++) {
                    int i = random.nextInt(instances.size());
                    long t0 = System.nanoTime();
                    Answer a = send(i, "PUT", "/nodes/crash-" + round + "-" + w, "{\"weight\":1}");
                    long ms = (System.nanoTime() - t0) / 1_000_000;
                    worst = Math.max(worst, ms);
                    assertThat(a.status()).as("%s: write %d through instance %d: %s", where, w, i, a.body())
                            .isEqualTo(201);
                    assertThat(ms).as("%s: write %d through instance %d took %d ms", where, w, i, ms)
                            .isLessThan(2000);
                }
                try (CuratorFramework look = observer()) {
                    assertThat(look.checkExists().forPath(holderNode))
                            .as("%s: the dead holder's lock znode %s outlived the writes", where, holderNode)
                            .isNotNull();
                }
            }
        }
        System.out.println("ZooKeeperChaosTest: the slowest write behind a dead lock holder took " + worst + " ms");
        awaitConverged(version(0));
    }

    // ------------------------------------------------------------ a lost store

    /**
     * The ring's path deleted under two running instances, round after
     * round: both keep answering lookups from the ring they hold, refuse
     * writes with 503 store-lost naming the cause, report DEGRADED with it and
     * ringd_store_writable 0; a third instance started then does not make a
     * ring there (it fails to start, naming the incarnation); a re-seed
     * through one of them (chosen at random) restores writes through both,
     * with the same incarnation and history.
     */
    @Test
    @Order(2)
    void thePathDeleted_underRunningInstances_writesRefusedUntilReseeded_noNewRing() throws Exception {
        for (int round = 1; round <= ROUNDS; round++) {
            String where = "seed " + SEED + ", round " + round;
            long v = writeSome("del-" + round);
            String incarnation = getJson(0, "/ring").get("incarnation").asString();
            String fingerprint = getJson(0, "/ring").get("fingerprint").asString();
            String owner = getJson(0, "/route/user%3A42").get("node").asString();
            try (CuratorFramework zk = observer()) {
                zk.delete().deletingChildrenIfNeeded().forPath(PATH);
            }
            assertLost(where, v, incarnation, fingerprint, owner, "holds no ring");
            if (round == 1) {
                awaitTrue("both markers back", () -> markers() == 2);
                assertNoRingIsMade(where, incarnation, "--ringd.zookeeper.new-ring-wait=0s");
            }
            reseedAndWrite(where, v, incarnation, "del-" + round);
        }
    }

    /**
     * Another ring written into the path (another incarnation, at a version
     * past the one served, as a new instance on an empty path used to make):
     * never adopted, whatever its version; writes are refused naming it; a
     * re-seed that does not name it is refused (409), one that names it
     * ({@code ?replace=}) restores this ring.
     */
    @Test
    @Order(3)
    void anotherRingInThePath_isNeverAdopted_andOnlyAReseedNamingItReplacesIt() throws Exception {
        long v = writeSome("other");
        String incarnation = getJson(0, "/ring").get("incarnation").asString();
        String fingerprint = getJson(0, "/ring").get("fingerprint").asString();
        String owner = getJson(0, "/route/user%3A42").get("node").asString();
        String foreign = io.ringd.state.Incarnation.random();
        io.ringd.state.RingSettings settings = io.ringd.state.RingSettings.defaults();
        io.ringd.state.RingHistory history = io.ringd.state.RingHistory.startingAt(0, settings, List.of());
        List<io.ringd.ring.Node> nodes = new ArrayList<>();
        for (long w = 1; w <= v + 5; w++) {
            io.ringd.ring.Node n = io.ringd.ring.Node.of("foreign-" + w, 1);
            nodes.add(n);
            history = history.append(new io.ringd.state.HistoryDelta(w,
                    List.of(io.ringd.ring.Change.put(n)), null), 128);
        }
        nodes.sort(java.util.Comparator.comparing(io.ringd.ring.Node::id));
        io.ringd.state.PersistedState other = new io.ringd.state.PersistedState(v + 5, settings, nodes, history,
                foreign);
        try (CuratorFramework zk = observer()) {
            byte[] data;
            try (ZooKeeperRingStore codec = new ZooKeeperRingStore(new ZooKeeperProperties(cluster.getConnectString(),
                    "/ringd-codec-only", Duration.ofSeconds(10), Duration.ofSeconds(3), Duration.ofSeconds(1),
                    Duration.ZERO, null))) {
                data = codec.encode(other);
            }
            zk.setData().forPath(PATH + "/state", data);
        }
        assertLost("another ring", v, incarnation, fingerprint, owner, "holds another ring (incarnation " + foreign);
        Answer refused = send(random.nextInt(2), "POST", "/store/reseed", null);
        assertThat(refused.status()).as("%s", refused.body()).isEqualTo(409);
        assertThat(refused.body().get("type").asString()).isEqualTo("urn:ringd:problem:reseed-refused");
        assertThat(refused.body().get("detail").asString()).contains(foreign).contains("?replace=" + foreign);
        reseedAndWrite("another ring", v, incarnation, "other", "?replace=" + foreign);
    }

    /**
     * The whole ensemble's data wiped (the ensemble stopped, a fresh one
     * started on the same ports with empty data): the instances get new
     * sessions, find no ring, and refuse writes until re-seeded; a third
     * instance started at once, before they are back, waits new-ring-wait
     * for them and then does not make a ring.
     */
    @Test
    @Order(4)
    void theEnsembleWiped_underRunningInstances_writesRefusedUntilReseeded_noNewRing() throws Exception {
        long v = writeSome("wipe");
        String incarnation = getJson(0, "/ring").get("incarnation").asString();
        String fingerprint = getJson(0, "/ring").get("fingerprint").asString();
        String owner = getJson(0, "/route/user%3A42").get("node").asString();
        List<InstanceSpec> specs = new ArrayList<>(cluster.getInstances());
        cluster.close();
        List<InstanceSpec> fresh = new ArrayList<>();
        for (InstanceSpec s : specs) {
            fresh.add(new InstanceSpec(null, s.getPort(), s.getElectionPort(), s.getQuorumPort(), true,
                    s.getServerId()));
        }
        cluster = new TestingCluster(fresh);
        cluster.start();
        long t0 = System.nanoTime();
        assertNoRingIsMade("wipe", incarnation, "--ringd.zookeeper.new-ring-wait=25s");
        System.out.println("ZooKeeperChaosTest: after the wipe, a new instance was refused after "
                + (System.nanoTime() - t0) / 1_000_000 + " ms (the running instances came back with their markers)");
        assertLost("wipe", v, incarnation, fingerprint, owner, "holds no ring");
        reseedAndWrite("wipe", v, incarnation, "wipe");
    }

    /** A few writes (1 to 4) through instances chosen at random; the version all converge on. */
    static long writeSome(String prefix) throws InterruptedException {
        long v = 0;
        int n = 1 + random.nextInt(4);
        for (int w = 0; w < n; w++) {
            Answer a = send(random.nextInt(2), "PUT", "/nodes/" + prefix + "-" + w, "{\"weight\":" + (1 + w) + "}");
            assertThat(a.status()).as("seed %d: %s", SEED, a.body()).isIn(200, 201);
            v = a.body().get("version").asLong();
        }
        awaitConverged(v);
        return v;
    }

    /** Both instances: writes refused naming {@code cause}, DEGRADED, not writable; lookups as before. */
    static void assertLost(String where, long v, String incarnation, String fingerprint, String owner, String cause)
            throws InterruptedException {
        for (int i = 0; i < 2; i++) {
            int instance = i;
            awaitTrue(where + ": instance " + i + " degraded for \"" + cause + "\"", () -> {
                Answer h = send(instance, "GET", "/actuator/health", null);
                JsonNode ring = h.body() == null ? JSON.createObjectNode() : h.body().path("components").path("ring");
                return ring.path("status").asString("").equals("DEGRADED")
                        && ring.path("details").path("cause").asString("").contains(cause);
            });
            assertThat(metric(i, "ringd_store_writable")).as(where).isEqualTo(0.0);
            Answer refused = send(i, "PUT", "/nodes/refused-" + i, "{\"weight\":1}");
            assertThat(refused.status()).as("%s: %s", where, refused.body()).isEqualTo(503);
            assertThat(refused.body().get("type").asString()).isEqualTo("urn:ringd:problem:store-lost");
            assertThat(refused.body().get("detail").asString()).as(where).contains(cause)
                    .contains("POST /store/reseed").doesNotContain("could not be made durable");
            JsonNode ring = getJson(i, "/ring");
            assertThat(ring.get("version").asLong()).as(where).isEqualTo(v);
            assertThat(ring.get("incarnation").asString()).as(where).isEqualTo(incarnation);
            assertThat(ring.get("fingerprint").asString()).as(where).isEqualTo(fingerprint);
            assertThat(getJson(i, "/route/user%3A42").get("node").asString()).as(where).isEqualTo(owner);
            assertThat(send(i, "GET", "/actuator/health/readiness", null).status()).as(where).isEqualTo(200);
        }
    }

    /** A third instance, started now, refuses to make a ring (naming the incarnation); the path holds none. */
    static void assertNoRingIsMade(String where, String incarnation, String... more) throws Exception {
        Throwable failure = null;
        try {
            ConfigurableApplicationContext third = start(more);
            instances.add(third);
        } catch (RuntimeException e) {
            failure = e;
        }
        assertThat(failure).as(where + ": a third instance started on the empty path").isNotNull();
        Throwable root = failure;
        while (root.getCause() != null && !(root instanceof io.ringd.state.StoreLostException)) {
            root = root.getCause();
        }
        assertThat(root).as(where).isInstanceOf(io.ringd.state.StoreLostException.class);
        assertThat(root.getMessage()).as(where).contains(incarnation).contains("holds no ring");
        try (CuratorFramework zk = observer()) {
            assertThat(zk.checkExists().forPath(PATH + "/state")).as(where + ": a ring was made").isNull();
        }
    }

    /** A re-seed through an instance chosen at random; then both accept writes, on the same ring. */
    static void reseedAndWrite(String where, long v, String incarnation, String prefix, String... query)
            throws InterruptedException {
        int r = random.nextInt(2);
        Answer seeded = send(r, "POST", "/store/reseed" + (query.length > 0 ? query[0] : ""), null);
        assertThat(seeded.status()).as("%s: re-seed through %d: %s", where, r, seeded.body()).isEqualTo(200);
        assertThat(seeded.body().get("version").asLong()).isEqualTo(v);
        assertThat(seeded.body().get("incarnation").asString()).isEqualTo(incarnation);
        awaitTrue(where + ": both writable again", () -> status(0, "ring").equals("UP") && status(1, "ring").equals("UP"));
        assertThat(metric(1 - r, "ringd_store_writable")).as(where).isEqualTo(1.0);
        long last = v;
        for (int i : new int[] {1 - r, r}) {
            Answer a = send(i, "PUT", "/nodes/" + prefix + "-after-" + i, "{\"weight\":1}");
            assertThat(a.status()).as("%s: write through %d after the re-seed: %s", where, i, a.body()).isEqualTo(201);
            assertThat(a.body().get("version").asLong()).as(where).isEqualTo(++last);
        }
        awaitConverged(last);
        for (int i = 0; i < 2; i++) {
            assertThat(getJson(i, "/ring").get("incarnation").asString()).as(where).isEqualTo(incarnation);
            assertThat(send(i, "GET", "/diff?from=" + (v - 1) + "&to=" + last, null).status())
                    .as(where + ": the history before the loss is kept").isEqualTo(200);
        }
    }

    /** The live instance markers under the path. */
    static int markers() {
        try (CuratorFramework zk = observer()) {
            return zk.checkExists().forPath(PATH + "/instances") == null ? 0
                    : zk.getChildren().forPath(PATH + "/instances").size();
        } catch (Exception e) {
            return -1;
        }
    }

    // ------------------------------------------------------------ helpers

    static CuratorFramework observer() throws InterruptedException {
        CuratorFramework c = CuratorFrameworkFactory.newClient(cluster.getConnectString(), new RetryOneTime(100));
        c.start();
        c.blockUntilConnected(10, java.util.concurrent.TimeUnit.SECONDS);
        return c;
    }

    static int port(int i) {
        return ((WebServerApplicationContext) instances.get(i)).getWebServer().getPort();
    }

    static URI uri(int i, String path) {
        return URI.create("http://localhost:" + port(i) + path);
    }

    record Answer(int status, JsonNode body) {
    }

    static Answer send(int i, String method, String path, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(i, path)).timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + TOKEN);
        b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        try {
            HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
            String text = r.body();
            return new Answer(r.statusCode(), text.isEmpty() || text.charAt(0) != '{' ? null : JSON.readTree(text));
        } catch (IOException e) {
            return new Answer(-1, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static JsonNode getJson(int i, String path) {
        Answer a = send(i, "GET", path, null);
        assertThat(a.status()).as("GET %s on instance %d: %s", path, i, a.body()).isEqualTo(200);
        return a.body();
    }

    /** The status of a health component of instance {@code i} ("" when it does not answer). */
    static String status(int i, String component) {
        Answer a = send(i, "GET", "/actuator/health", null);
        return a.body() == null ? "" : a.body().path("components").path(component).path("status").asString("");
    }

    static long version(int i) {
        return getJson(i, "/ring").get("version").asLong();
    }

    static double metric(int i, String name) {
        HttpResponse<String> r;
        try {
            r = HTTP.send(HttpRequest.newBuilder(uri(i, "/actuator/prometheus")).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return r.body().lines().filter(l -> l.startsWith(name + "{") || l.startsWith(name + " ")).findFirst()
                .map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).orElseThrow();
    }

    static void awaitConverged(long version) throws InterruptedException {
        awaitTrue("every instance at version " + version, () -> {
            String fingerprint = null;
            for (int i = 0; i < instances.size(); i++) {
                if (!instances.get(i).isActive()) {
                    continue;
                }
                Answer a = send(i, "GET", "/ring", null);
                if (a.status() != 200 || a.body().get("version").asLong() != version) {
                    return false;
                }
                String f = a.body().get("fingerprint").asString();
                if (fingerprint != null && !fingerprint.equals(f)) {
                    return false;
                }
                fingerprint = f;
            }
            return true;
        });
    }

    static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + CONVERGE.toNanos();
        while (System.nanoTime() < end) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("not within " + CONVERGE + " (seed " + SEED + "): " + what);
    }
}
