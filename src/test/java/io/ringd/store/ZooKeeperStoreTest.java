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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.zookeeper.client.FourLetterWordMain;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.ringd.RingdApplication;
import io.ringd.watch.EventStream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Three ringd instances sharing one ring through a real three-server
 * ZooKeeper ensemble (curator-test's TestingCluster, inside this JVM):
 * convergence, concurrent writers through different instances, the change
 * stream across instances, a leader killed, quorum lost and restored, an
 * instance restarted, and an instance started while the ensemble is down.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ZooKeeperStoreTest {

    static final String TOKEN = "zookeeper-test-admin-token-0123456789";
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    static final Duration CONVERGE = Duration.ofSeconds(20);

    static TestingCluster cluster;
    static final List<ConfigurableApplicationContext> instances = new ArrayList<>();

    @BeforeAll
    static void ensembleAndThreeInstances() throws Exception {
        cluster = new TestingCluster(3);
        cluster.start();
        for (int i = 0; i < 3; i++) {
            instances.add(start());
        }
        awaitTrue("every instance writable", () -> instances.stream()
                .allMatch(c -> health(c).path("components").path("ring").path("status").asString("").equals("UP")));
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

    @AfterEach
    void ensembleWhole() throws Exception {
        for (InstanceSpec spec : cluster.getInstances()) {
            cluster.restartServer(spec); // no-op for a running server
        }
        awaitTrue("every instance writable again", () -> instances.stream()
                .allMatch(c -> health(c).path("components").path("ring").path("status").asString("").equals("UP")));
    }

    static ConfigurableApplicationContext start() {
        return start(cluster.getConnectString(), "/ringd-test", TOKEN);
    }

    /** A ringd instance on the ensemble {@code connect}, at {@code path}, with the admin token {@code token}. */
    static ConfigurableApplicationContext start(String connect, String path, String token) {
        // command-line arguments: they win over application.yml, as an operator's would
        return new SpringApplicationBuilder(RingdApplication.class).run(
                "--server.port=0",
                "--spring.main.banner-mode=off",
                "--ringd.store=zookeeper",
                "--ringd.zookeeper.connect=" + connect,
                "--ringd.zookeeper.path=" + path,
                "--ringd.zookeeper.session-timeout=10s",
                "--ringd.zookeeper.connect-timeout=3s",
                // a fresh ensemble: no instance can be coming back to it, so the first need not wait for one
                "--ringd.zookeeper.new-ring-wait=1s",
                "--ringd.admin.token=" + token,
                "--ringd.watch.keep-alive=1s",
                "--management.endpoint.health.show-details=always",
                "--logging.level.io.ringd=WARN",
                "--logging.level.org.apache.zookeeper=ERROR",
                "--logging.level.org.apache.curator=ERROR");
    }

    // ------------------------------------------------------------ tests

    @Test
    @Order(1)
    void aWriteThroughOneInstance_reachesEveryInstance_sameVersionAndFingerprint() throws Exception {
        long v = put(0, "zk-a", 1);
        put(1, "zk-b", 2);
        long last = put(2, "zk-c", 3);
        assertThat(last).isEqualTo(v + 2);
        awaitConverged(last);
        JsonNode ring = getJson(0, "/ring");
        assertThat(ring.get("nodes")).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(getJson(i, "/route/user%3A42").get("node").asString())
                    .isEqualTo(getJson(0, "/route/user%3A42").get("node").asString());
        }
    }

    @Test
    @Order(2)
    void concurrentWritersThroughDifferentInstances_contiguousVersions_noLostUpdate() throws Exception {
        long start = version(0);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<Future<List<Long>>> writers = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            int instance = w;
            writers.add(pool.submit(() -> {
                List<Long> made = new ArrayList<>();
                for (int i = 0; i < 15; i++) {
                    made.add(put(instance, "zk-w" + instance + "-" + i, 1 + i % 3));
                }
                return made;
            }));
        }
        Set<Long> versions = new HashSet<>();
        for (Future<List<Long>> f : writers) {
            for (long v : f.get(120, TimeUnit.SECONDS)) {
                assertThat(versions.add(v)).as("version %d answered twice", v).isTrue();
            }
        }
        pool.shutdown();
        assertThat(versions).hasSize(45);
        assertThat(versions.stream().mapToLong(Long::longValue).min().orElseThrow()).isEqualTo(start + 1);
        assertThat(versions.stream().mapToLong(Long::longValue).max().orElseThrow()).isEqualTo(start + 45);
        awaitConverged(start + 45);
        Set<String> ids = new HashSet<>();
        getJson(1, "/nodes").get("nodes").forEach(n -> ids.add(n.get("id").asString()));
        for (int w = 0; w < 3; w++) {
            for (int i = 0; i < 15; i++) {
                assertThat(ids).contains("zk-w" + w + "-" + i);
            }
        }
        // every instance keeps every version: a diff across all of them answers everywhere
        for (int i = 0; i < 3; i++) {
            assertThat(status(i, "/diff?from=" + start + "&to=" + (start + 45))).isEqualTo(200);
        }
    }

    @Test
    @Order(3)
    void theChangeStreamOfOneInstance_deliversWritesMadeThroughAnother() throws Exception {
        long from = version(2);
        try (EventStream s = EventStream.open(uri(2, "/ring/events"), "Last-Event-ID", Long.toString(from))) {
            long v1 = put(0, "zk-s1", 1);
            long v2 = put(1, "zk-s2", 1);
            List<Long> seen = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                EventStream.Event e = s.nextEvent(Duration.ofSeconds(15));
                assertThat(e).isNotNull();
                seen.add(Long.parseLong(e.id()));
                assertThat(JSON.readTree(e.data()).get("fingerprint").asString())
                        .isEqualTo(fingerprintAt(0, Long.parseLong(e.id())));
            }
            assertThat(seen).containsExactly(v1, v2);
        }
    }

    @Test
    @Order(3)
    void aKetamaFlavorAndHashKeys_writtenThroughOneInstance_areTheRingOfEvery() throws Exception {
        Duration limit = Duration.ofSeconds(10);
        retryWrite(0, "PUT", "/settings", "{\"hash\":\"ketama\",\"ketamaFlavor\":\"libmemcached\"}", limit);
        retryWrite(1, "PUT", "/nodes/zk-h1", "{\"weight\":3,\"hashKey\":\"localhost/10.9.0.1:11211\"}", limit);
        long v = retryWrite(2, "PUT", "/nodes/zk-h2", "{\"weight\":1,\"hashKey\":\"/10.9.0.2:11211\"}", limit)
                .get("version").asLong();
        awaitConverged(v);
        for (int i = 0; i < 3; i++) {
            JsonNode ring = getJson(i, "/ring");
            assertThat(ring.get("settings").get("ketamaFlavor").asString()).as("instance %d", i)
                    .isEqualTo("libmemcached");
            assertThat(getJson(i, "/nodes/zk-h1").get("node").get("hashKey").asString()).as("instance %d", i)
                    .isEqualTo("localhost/10.9.0.1:11211");
            assertThat(ring.get("fingerprint").asString()).isEqualTo(fingerprintAt(0, v));
        }
        // back to md5 for the tests after this one; the hashKeys stay, placing md5 points
        retryWrite(0, "PUT", "/settings", "{\"hash\":\"md5\"}", limit);
        awaitConverged(v + 1);
        assertThat(getJson(1, "/settings").get("settings").has("ketamaFlavor")).isFalse();
    }

    @Test
    @Order(3)
    void handoffAnswers_areTheSameOnEveryInstance_afterAJoinThroughAnother() throws Exception {
        Duration limit = Duration.ofSeconds(10);
        long v = retryWrite(1, "PUT", "/nodes/zk-join", "{\"weight\":4}", limit).get("version").asLong();
        awaitConverged(v);
        int moved = 0;
        for (int k = 0; k < 60; k++) {
            JsonNode first = getJson(0, "/route/hk-" + k + "?handoff=true");
            for (int i = 1; i < 3; i++) {
                assertThat(getJson(i, "/route/hk-" + k + "?handoff=true").toString()).as("instance %d, key hk-%d", i, k)
                        .isEqualTo(first.toString());
            }
            if (first.get("node").asString().equals("zk-join")) {
                moved++;
                assertThat(first.get("handoff").get("movedAt").asLong()).isEqualTo(v);
                assertThat(first.get("handoff").get("previous")).isNotEmpty();
            }
        }
        assertThat(moved).as("keys that moved to the node that joined").isPositive();
    }

    @Test
    @Order(4)
    void theEnsembleLeaderKilled_writesGoOnAndInstancesConverge() throws Exception {
        InstanceSpec leader = leader();
        assertThat(cluster.killServer(leader)).isTrue();
        long v = retryPut(0, "zk-l1", 1, Duration.ofSeconds(30));
        long w = retryPut(1, "zk-l2", 1, Duration.ofSeconds(30));
        assertThat(w).isGreaterThan(v);
        awaitConverged(w);
    }

    @Test
    @Order(5)
    void quorumLost_lookupsGoOn_writesAre503_healthDegraded_thenCatchUpAfter() throws Exception {
        long before = version(0);
        String node = getJson(0, "/route/k1").get("node").asString();
        List<InstanceSpec> specs = new ArrayList<>(cluster.getInstances());
        cluster.killServer(specs.get(0));
        cluster.killServer(specs.get(1));
        awaitTrue("writes refused", () -> putStatus(0, "zk-q1") == 503);
        for (int i = 0; i < 3; i++) {
            assertThat(getJson(i, "/route/k1").get("node").asString()).isEqualTo(node);
            assertThat(version(i)).isEqualTo(before);
            int instance = i;
            awaitTrue("instance " + i + " degraded", () -> health(instances.get(instance)).path("components")
                    .path("ring").path("status").asString("").equals("DEGRADED"));
            assertThat(status(i, "/actuator/health/readiness")).isEqualTo(200);
        }
        JsonNode refused = send(0, "PUT", "/nodes/zk-q2", "{\"weight\":1}").body();
        assertThat(refused.get("type").asString()).isEqualTo("urn:ringd:problem:store-unavailable");
        assertThat(metric(0, "ringd_store_writable")).isEqualTo(0.0);
        cluster.restartServer(specs.get(0));
        cluster.restartServer(specs.get(1));
        long v = retryPut(2, "zk-q3", 1, Duration.ofSeconds(40));
        // a write refused at the moment quorum went may still have been stored (its outcome was unknown)
        assertThat(v).isBetween(before + 1, before + 2);
        awaitConverged(v);
        assertThat(metric(0, "ringd_store_writable")).isEqualTo(1.0);
    }

    @Test
    @Order(6)
    void anInstanceRestarted_loadsTheSharedRing() throws Exception {
        instances.get(2).close();
        long v = put(0, "zk-r1", 2);
        instances.set(2, start());
        awaitConverged(v);
        assertThat(getJson(2, "/ring").get("fingerprint").asString()).isEqualTo(getJson(0, "/ring").get("fingerprint")
                .asString());
    }

    @Test
    @Order(7)
    void anInstanceStartedWhileTheEnsembleIsDown_servesNothingUntilItLoadsTheRing() throws Exception {
        long v = version(0);
        for (InstanceSpec spec : cluster.getInstances()) {
            cluster.killServer(spec);
        }
        ConfigurableApplicationContext late = start();
        instances.add(late);
        int index = instances.size() - 1;
        assertThat(status(index, "/route/k1")).isEqualTo(503);
        assertThat(status(index, "/actuator/health/readiness")).isEqualTo(503);
        assertThat(status(index, "/actuator/health/liveness")).isEqualTo(200);
        Answer health = send(index, "GET", "/actuator/health", null);
        assertThat(health.status()).isEqualTo(503);
        assertThat(health.body().path("components").path("ring").path("status").asString()).isEqualTo("OUT_OF_SERVICE");
        for (InstanceSpec spec : cluster.getInstances()) {
            cluster.restartServer(spec);
        }
        awaitTrue("the late instance loads the ring", () -> status(index, "/actuator/health/readiness") == 200);
        assertThat(version(index)).isEqualTo(v);
        assertThat(getJson(index, "/ring").get("fingerprint").asString())
                .isEqualTo(getJson(0, "/ring").get("fingerprint").asString());
        long w = retryPut(index, "zk-late", 1, Duration.ofSeconds(30));
        awaitConverged(w);
    }

    // ------------------------------------------------------------ helpers

    /** The server that leads the ensemble now, by its "srvr" four-letter word (waiting out an election). */
    static InstanceSpec leader() throws Exception {
        long end = System.nanoTime() + CONVERGE.toNanos();
        while (System.nanoTime() < end) {
            for (InstanceSpec spec : cluster.getInstances()) {
                try {
                    if (FourLetterWordMain.send4LetterWord("localhost", spec.getPort(), "srvr").contains("Mode: leader")) {
                        return spec;
                    }
                } catch (Exception e) {
                    // that server is down or electing
                }
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("no leader within " + CONVERGE);
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

    static int status(int i, String path) {
        return send(i, "GET", path, null).status();
    }

    static JsonNode getJson(int i, String path) {
        Answer a = send(i, "GET", path, null);
        assertThat(a.status()).as("GET %s on instance %d: %s", path, i, a.body()).isEqualTo(200);
        return a.body();
    }

    static JsonNode health(ConfigurableApplicationContext c) {
        int i = instances.indexOf(c);
        Answer a = send(i, "GET", "/actuator/health", null);
        return a.body() == null ? JSON.createObjectNode() : a.body();
    }

    static long version(int i) {
        return getJson(i, "/ring").get("version").asLong();
    }

    static String fingerprintAt(int i, long version) throws Exception {
        // the fingerprint of a kept version, from the change events of a stream resumed just before it
        try (EventStream s = EventStream.open(uri(i, "/ring/events"), "Last-Event-ID", Long.toString(version - 1))) {
            return JSON.readTree(s.nextEvent(Duration.ofSeconds(10)).data()).get("fingerprint").asString();
        }
    }

    /**
     * A put through instance {@code i}. A 503 (nothing applied: the store out of reach for a moment, as on
     * a loaded machine) is tried again, as a client would, for a few seconds.
     */
    static long put(int i, String id, double weight) {
        try {
            return retryPut(i, id, weight, Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static int putStatus(int i, String id) {
        return send(i, "PUT", "/nodes/" + id, "{\"weight\":1}").status();
    }

    /** A put retried while the ensemble recovers (503), within {@code limit}. */
    static long retryPut(int i, String id, double weight, Duration limit) throws InterruptedException {
        return retryWrite(i, "PUT", "/nodes/" + id, "{\"weight\":" + weight + "}", limit).get("version").asLong();
    }

    /**
     * A write retried while the instance cannot write yet (503: the ensemble recovering, or the
     * instance catching up with a write made through another), within {@code limit}; the body of
     * its 200 or 201.
     */
    static JsonNode retryWrite(int i, String method, String path, String body, Duration limit)
            throws InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
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
        throw new AssertionError("not within " + CONVERGE + ": " + what);
    }
}
