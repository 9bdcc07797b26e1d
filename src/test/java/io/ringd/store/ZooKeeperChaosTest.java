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
 * the write lock. Random choices are seeded ({@code -Dringd.seed=N}, printed
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
