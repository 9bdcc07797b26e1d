package io.ringd.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.ringd.ring.Node;
import io.ringd.state.RingService;
import io.ringd.state.RingSettings;
import io.ringd.state.RingState;
import io.ringd.watch.EventStream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Named rings (docs/ring.md section 22) on ZooKeeper: two ringd instances on
 * one real ZooKeeper server (curator-test), over a path first written as a
 * ringd before named rings wrote it (just {@code <path>/state}): that ring
 * is {@code default}; rings made, written, deleted and made again through
 * one instance are served, changed and dropped by the other within seconds,
 * and a restarted instance serves them all again.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ZooKeeperNamedRingsTest {

    static final String TOKEN = "zookeeper-named-rings-admin-token-0123456789";
    static final String PATH = "/ringd-named";
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    static final Duration SOON = Duration.ofSeconds(10);
    static final Duration WRITE = Duration.ofSeconds(15);

    static TestingServer zk;
    static final List<ConfigurableApplicationContext> instances = new ArrayList<>();
    /** The ring default as the code before named rings stored it. */
    static RingState old;

    @BeforeAll
    static void anOldPathAndTwoInstances() throws Exception {
        zk = new TestingServer(true);
        ZooKeeperProperties props = new ZooKeeperProperties(zk.getConnectString(), PATH, Duration.ofSeconds(10),
                Duration.ofSeconds(3), Duration.ofSeconds(1), Duration.ZERO, null);
        try (ZooKeeperRingStore store = new ZooKeeperRingStore(props)) {
            RingService service = new RingService(store, RingSettings.defaults(), 128, List.of());
            awaitTrue("the old store writable", store::writable);
            service.put(Node.of("old-a", 1), null);
            service.put(Node.of("old-b", 2), null);
            old = service.put(Node.of("old-c", 1), null).state();
        }
        try (CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            c.start();
            assertThat(c.checkExists().forPath(PATH + "/rings")).as("an old path has no rings").isNull();
            assertThat(c.checkExists().forPath(PATH + "/state")).isNotNull();
        }
        instances.add(start());
        instances.add(start());
        awaitTrue("both instances writable", () -> health(0).equals("UP") && health(1).equals("UP"));
    }

    @AfterAll
    static void stopAll() throws IOException {
        for (ConfigurableApplicationContext c : instances) {
            if (c != null && c.isActive()) {
                c.close();
            }
        }
        if (zk != null) {
            zk.close();
        }
    }

    static ConfigurableApplicationContext start() {
        return ZooKeeperStoreTest.start(zk.getConnectString(), PATH, TOKEN);
    }

    // ------------------------------------------------------------ tests

    @Test
    @Order(1)
    void aPathWrittenBeforeNamedRings_isTheRingDefault_sameVersionETagAndHistory() {
        String etag = "\"" + old.version() + "-" + old.fingerprint().substring(0, 16) + "\"";
        for (int i = 0; i < 2; i++) {
            Answer a = send(i, "GET", "/ring", null);
            assertThat(a.status()).isEqualTo(200);
            assertThat(a.body().get("version").asLong()).as("instance %d", i).isEqualTo(old.version());
            assertThat(a.body().get("fingerprint").asString()).isEqualTo(old.fingerprint());
            assertThat(a.etag()).isEqualTo(etag);
            assertThat(send(i, "GET", "/rings/default/ring", null).etag()).isEqualTo(etag);
            assertThat(status(i, "/diff?from=0&to=" + old.version())).as("the history kept").isEqualTo(200);
            assertThat(names(i)).containsExactly("default");
        }
    }

    @Test
    @Order(2)
    void aRingMadeThroughOne_isServedByTheOther_andWritesGoBothWays_defaultUntouched() throws Exception {
        long defaultVersion = version(1, "/ring");
        Answer made = send(0, "POST", "/rings", "{\"name\":\"alpha\",\"settings\":{\"hash\":\"murmur3\"}}");
        assertThat(made.status()).as("%s", made.body()).isEqualTo(201);
        assertThat(made.body().get("version").asLong()).isZero();
        assertThat(send(0, "POST", "/rings", "{\"name\":\"alpha\"}").status()).isEqualTo(409);
        awaitTrue("alpha served by the other", () -> status(1, "/rings/alpha/ring") == 200);
        assertThat(getJson(1, "/rings/alpha/settings").get("settings").get("hash").asString()).isEqualTo("murmur3");
        try (EventStream defaults = EventStream.open(uri(1, "/ring/events"), "Last-Event-ID",
                Long.toString(defaultVersion))) {
            long v1 = retryWrite(1, "PUT", "/rings/alpha/nodes/a1", "{\"weight\":1}").get("version").asLong();
            long v2 = retryWrite(0, "PUT", "/rings/alpha/nodes/a2", "{\"weight\":2}").get("version").asLong();
            assertThat(List.of(v1, v2)).containsExactly(1L, 2L);
            awaitTrue("both at alpha's version 2", () -> version(0, "/rings/alpha/ring") == 2
                    && version(1, "/rings/alpha/ring") == 2);
            assertThat(defaults.drainEvents(Duration.ofSeconds(1))).as("the stream of default").isEmpty();
        }
        for (int i = 0; i < 2; i++) {
            assertThat(version(i, "/ring")).as("default on instance %d", i).isEqualTo(defaultVersion);
            assertThat(getJson(i, "/rings/alpha/nodes").get("nodes")).hasSize(2);
            assertThat(names(i)).containsExactly("alpha", "default");
        }
    }

    @Test
    @Order(3)
    void aRingDeletedThroughOne_is404OnTheOther_andItsStreamsThereEnd() throws Exception {
        try (EventStream s = EventStream.open(uri(1, "/rings/alpha/ring/events"))) {
            assertThat(s.status).isEqualTo(200);
            assertThat(send(0, "DELETE", "/rings/alpha", null).status()).isEqualTo(204);
            awaitTrue("alpha gone from the other", () -> status(1, "/rings/alpha/ring") == 404);
            Answer gone = send(1, "GET", "/rings/alpha/ring", null);
            assertThat(gone.body().get("field").asString()).isEqualTo("ring");
            assertThat(s.endsWithin(SOON)).as("alpha's stream on the other instance ended").isTrue();
        }
        assertThat(send(1, "PUT", "/rings/alpha/nodes/x", "{\"weight\":1}").status()).isEqualTo(404);
        for (int i = 0; i < 2; i++) {
            assertThat(names(i)).containsExactly("default");
            assertThat(health(i)).as("instance %d: no store lost", i).isEqualTo("UP");
        }
    }

    @Test
    @Order(4)
    void aRingDeletedAndMadeAgainThroughOne_isTheNewRingOnBoth_notALostStore() throws Exception {
        assertThat(send(0, "POST", "/rings", "{\"name\":\"beta\"}").status()).isEqualTo(201);
        awaitTrue("beta served by the other", () -> status(1, "/rings/beta/ring") == 200);
        retryWrite(1, "PUT", "/rings/beta/nodes/old-1", "{\"weight\":1}");
        retryWrite(1, "PUT", "/rings/beta/nodes/old-2", "{\"weight\":1}");
        awaitTrue("both at beta's version 2", () -> version(0, "/rings/beta/ring") == 2
                && version(1, "/rings/beta/ring") == 2);
        // deleted and made again at once: the other instance may never see the ring missing
        assertThat(send(0, "DELETE", "/rings/beta", null).status()).isEqualTo(204);
        assertThat(send(0, "POST", "/rings", "{\"name\":\"beta\"}").status()).isEqualTo(201);
        awaitTrue("both at version 0 of the new beta", () -> version(0, "/rings/beta/ring") == 0
                && version(1, "/rings/beta/ring") == 0);
        awaitTrue("the other writable", () -> health(1).equals("UP"));
        long v = retryWrite(1, "PUT", "/rings/beta/nodes/new-1", "{\"weight\":1}").get("version").asLong();
        assertThat(v).isEqualTo(1);
        awaitTrue("both at the new beta's version 1", () -> version(0, "/rings/beta/ring") == 1);
        Set<String> ids = new HashSet<>();
        getJson(0, "/rings/beta/nodes").get("nodes").forEach(n -> ids.add(n.get("id").asString()));
        assertThat(ids).containsExactly("new-1");
        assertThat(status(1, "/rings/beta/diff?from=0&to=1")).isEqualTo(200);
        for (int i = 0; i < 2; i++) {
            assertThat(health(i)).as("instance %d", i).isEqualTo("UP");
        }
    }

    @Test
    @Order(5)
    void anInstanceRestarted_servesEveryRingAgain() throws Exception {
        assertThat(send(1, "POST", "/rings", "{\"name\":\"gamma\"}").status()).isEqualTo(201);
        long g = retryWrite(1, "PUT", "/rings/gamma/nodes/g1", "{\"weight\":3}").get("version").asLong();
        awaitTrue("gamma on the first", () -> status(0, "/rings/gamma/ring") == 200
                && version(0, "/rings/gamma/ring") == g);
        String fingerprint = getJson(0, "/rings/gamma/ring").get("fingerprint").asString();
        instances.get(1).close();
        long b = retryWrite(0, "PUT", "/rings/beta/nodes/new-2", "{\"weight\":1}").get("version").asLong();
        instances.set(1, start());
        awaitTrue("the restarted instance writable", () -> health(1).equals("UP"));
        assertThat(names(1)).containsExactly("beta", "default", "gamma");
        assertThat(version(1, "/rings/beta/ring")).isEqualTo(b);
        assertThat(version(1, "/rings/gamma/ring")).isEqualTo(g);
        assertThat(getJson(1, "/rings/gamma/ring").get("fingerprint").asString()).isEqualTo(fingerprint);
        assertThat(version(1, "/ring")).isEqualTo(version(0, "/ring"));
        long w = retryWrite(1, "PUT", "/rings/gamma/nodes/g2", "{\"weight\":1}").get("version").asLong();
        awaitTrue("gamma's write through the restarted one on the first", () -> version(0, "/rings/gamma/ring") == w);
    }

    // ------------------------------------------------------------ helpers

    static URI uri(int i, String path) {
        return URI.create("http://localhost:" + ((WebServerApplicationContext) instances.get(i)).getWebServer()
                .getPort() + path);
    }

    record Answer(int status, JsonNode body, String etag) {
    }

    static Answer send(int i, String method, String path, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(i, path)).timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + TOKEN);
        b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        try {
            HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
            String text = r.body();
            return new Answer(r.statusCode(), text.isEmpty() || text.charAt(0) != '{' ? null : JSON.readTree(text),
                    r.headers().firstValue("ETag").orElse(null));
        } catch (IOException e) {
            return new Answer(-1, null, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static int status(int i, String path) {
        return send(i, "GET", path, null).status();
    }

    static JsonNode getJson(int i, String path) {
        Answer a = send(i, "GET", path, null);
        assertThat(a.status()).as("GET %s on instance %d: %s", path, i, a.body()).isEqualTo(200);
        return a.body();
    }

    /** The version of the ring at {@code path}, or -1 when it is not served. */
    static long version(int i, String path) {
        Answer a = send(i, "GET", path, null);
        return a.status() == 200 ? a.body().get("version").asLong() : -1;
    }

    static List<String> names(int i) {
        List<String> names = new ArrayList<>();
        getJson(i, "/rings").get("rings").forEach(r -> names.add(r.get("name").asString()));
        return names;
    }

    /** The status of the ring's health component (every ring's writability in it). */
    static String health(int i) {
        Answer a = send(i, "GET", "/actuator/health", null);
        return a.body() == null ? "" : a.body().path("components").path("ring").path("status").asString("");
    }

    /** A write retried while the instance cannot write yet (503: catching up), within a few seconds. */
    static JsonNode retryWrite(int i, String method, String path, String body) throws InterruptedException {
        long end = System.nanoTime() + WRITE.toNanos();
        Answer a;
        do {
            a = send(i, method, path, body);
            if (a.status() == 200 || a.status() == 201) {
                return a.body();
            }
            assertThat(a.status()).as("%s %s through instance %d: %s", method, path, i, a.body()).isIn(503, -1);
            Thread.sleep(200);
        } while (System.nanoTime() < end);
        throw new AssertionError(method + " " + path + " through instance " + i + " kept failing: " + a);
    }

    static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + SOON.toNanos();
        while (System.nanoTime() < end) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("not within " + SOON + ": " + what);
    }
}
