package io.ringd.store;

import static io.ringd.store.ZooKeeperInstances.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

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

import tools.jackson.databind.JsonNode;

/**
 * Followers on ZooKeeper (docs/ring.md section 23): two ringd instances on one real
 * ZooKeeper server share one view of the followers. A report made to either is seen by
 * the other within 2 s, a convergence question asked of one is answered by reports made
 * to the other, a follower that moves between them is listed once, a post too large for
 * one znode travels in parts, and an instance that stops takes its followers with it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ZooKeeperFollowersTest {

    static final String TOKEN = "zookeeper-followers-admin-token-0123456789";
    static final String PATH = "/ringd-followers";
    static final HttpClient HTTP = ZooKeeperInstances.HTTP;
    /** The contract's bound on a report reaching every instance. */
    static final Duration SHARED_WITHIN = Duration.ofSeconds(2);

    static TestingServer zk;
    static final ZooKeeperInstances ZK = new ZooKeeperInstances(TOKEN);

    @BeforeAll
    static void twoInstances() throws Exception {
        zk = new TestingServer(true);
        ZK.start(zk.getConnectString(), PATH);
        ZK.start(zk.getConnectString(), PATH);
        awaitTrue("both instances writable", () -> ZK.writable(0) && ZK.writable(1), Duration.ofSeconds(20));
        ZK.retry(0, "PUT", "/nodes/zf-a", "{\"weight\":1}");
        long v = ZK.retry(0, "PUT", "/nodes/zf-b", "{\"weight\":1}").get("version").asLong();
        awaitTrue("instance 1 at the version", () -> ZK.version(1) == v, Duration.ofSeconds(10));
    }

    @AfterAll
    static void stopAll() throws IOException {
        ZK.close();
        if (zk != null) {
            zk.close();
        }
    }

    @Test
    @Order(1)
    void aReportToOneInstance_isSeenByTheOther_within2s() throws Exception {
        JsonNode ring = ZK.getJson(0, "/ring");
        long worst = 0;
        for (int i = 0; i < 10; i++) {
            String id = "spread-" + i;
            int to = i % 2;
            assertThat(ZK.report(to, "", id, ring.get("version").asLong(), ring.get("fingerprint").asString()))
                    .isEqualTo(204);
            long t0 = System.nanoTime();
            awaitTrue(id + " on instance " + (1 - to), () -> state(1 - to, "", id).equals("current"),
                    SHARED_WITHIN.plusSeconds(1));
            worst = Math.max(worst, System.nanoTime() - t0);
        }
        assertThat(Duration.ofNanos(worst)).isLessThan(SHARED_WITHIN);
        assertThat(ZK.getJson(0, "/followers").get("summary").toString())
                .isEqualTo(ZK.getJson(1, "/followers").get("summary").toString());
        assertThat(ZK.getJson(1, "/followers?state=current").get("followers")).hasSize(10);
    }

    @Test
    @Order(2)
    void convergenceAskedOfOne_isAnsweredByReportsToTheOther() throws Exception {
        long v = ZK.retry(0, "PUT", "/nodes/zf-c", "{\"weight\":1}").get("version").asLong();
        awaitTrue("instance 1 at the version", () -> ZK.version(1) == v, Duration.ofSeconds(10));
        CompletableFuture<HttpResponse<String>> waiting = HTTP.sendAsync(HttpRequest.newBuilder(ZK.uri(1,
                "/followers/converged?version=" + v + "&wait=PT30S")).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode ring = ZK.getJson(0, "/ring");
        Thread.sleep(300);
        assertThat(waiting).isNotDone();
        long t0 = System.nanoTime();
        for (int i = 0; i < 10; i++) {
            ZK.report(i % 2, "", "spread-" + i, v, ring.get("fingerprint").asString());
        }
        HttpResponse<String> r = waiting.get(10, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(SHARED_WITHIN.plusSeconds(1));
        JsonNode c = ZooKeeperInstances.JSON.readTree(r.body());
        assertThat(c.get("converged").asBoolean()).as(r.body()).isTrue();
        assertThat(c.get("followers").asInt()).isEqualTo(10);
    }

    @Test
    @Order(3)
    void aFollowerThatMoves_isListedOnce_atItsNewestReport() throws Exception {
        JsonNode before = ZK.getJson(0, "/ring");
        ZK.report(0, "", "mover", before.get("version").asLong(), before.get("fingerprint").asString());
        long v = ZK.retry(0, "PUT", "/nodes/zf-d", "{\"weight\":1}").get("version").asLong();
        awaitTrue("instance 1 at the version", () -> ZK.version(1) == v, Duration.ofSeconds(10));
        awaitTrue("mover seen by 1", () -> state(1, "", "mover").equals("behind"), SHARED_WITHIN);
        ZK.report(1, "", "mover", v, ZK.getJson(1, "/ring").get("fingerprint").asString());
        for (int i = 0; i < 2; i++) {
            int at = i;
            awaitTrue("mover current on " + at, () -> state(at, "", "mover").equals("current"), SHARED_WITHIN);
            long n = 0;
            for (JsonNode f : ZK.getJson(at, "/followers?limit=10000").get("followers")) {
                n += f.get("id").asString().equals("mover") ? 1 : 0;
            }
            assertThat(n).isEqualTo(1);
        }
    }

    @Test
    @Order(4)
    void aNamedRing_sharesItsOwnFollowers_inPartsWhenLarge() throws Exception {
        ZK.retry(0, "POST", "/rings", "{\"name\":\"zf-big\"}");
        awaitTrue("zf-big on 1", () -> ZK.send(1, "GET", "/rings/zf-big/ring", null).status() == 200,
                Duration.ofSeconds(10));
        JsonNode ring = ZK.getJson(0, "/rings/zf-big/ring");
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        int n = 4000;
        List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        for (int i = 0; i < n; i++) { // ids of random letters, 190 to 200 long: a post of over 512 KiB gzipped
            StringBuilder id = new StringBuilder(String.format("%05d-", i));
            int len = 185 + rnd.nextInt(10);
            for (int k = 0; k < len; k++) {
                id.append((char) ('a' + rnd.nextInt(26)));
            }
            sent.add(HTTP.sendAsync(ZK.reportRequest(0, "/rings/zf-big", id.toString(), ring.get("version").asLong(),
                    ring.get("fingerprint").asString()), HttpResponse.BodyHandlers.ofString()));
            if (sent.size() % 200 == 0) {
                CompletableFuture.allOf(sent.toArray(new CompletableFuture[0])).get(30, TimeUnit.SECONDS);
            }
        }
        for (CompletableFuture<HttpResponse<String>> f : sent) {
            assertThat(f.get(30, TimeUnit.SECONDS).statusCode()).as("seed %d", seed).isEqualTo(204);
        }
        awaitTrue("4000 followers of zf-big on 1", () -> ZK.getJson(1, "/rings/zf-big/followers?limit=1")
                .get("summary").get("current").asInt() == n, Duration.ofSeconds(10));
        try (CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            c.start();
            List<String> parts = c.getChildren().forPath(PATH + "/rings/zf-big/followers");
            assertThat(parts).as("one instance's post in parts").hasSizeGreaterThan(1);
        }
        assertThat(ZK.getJson(1, "/followers?limit=10000").get("followers")).as("the ring default has its own")
                .hasSizeLessThan(100);
        assertThat(ZK.send(0, "DELETE", "/rings/zf-big", null).status()).isEqualTo(204);
    }

    @Test
    @Order(5)
    void anInstanceThatStops_takesItsFollowersWithIt() throws Exception {
        JsonNode ring = ZK.getJson(1, "/ring");
        ZK.report(1, "", "leaves-with-1", ring.get("version").asLong(), ring.get("fingerprint").asString());
        awaitTrue("seen by 0", () -> state(0, "", "leaves-with-1").equals("current"), SHARED_WITHIN);
        ZK.instances.get(1).close();
        awaitTrue("gone from 0", () -> state(0, "", "leaves-with-1").isEmpty(), Duration.ofSeconds(20));
        assertThat(state(0, "", "spread-0")).as("reported to 0: stays").isNotEmpty();
    }

    // ------------------------------------------------------------ helpers

    /** The state instance {@code i} shows for follower {@code id}, or "" when it does not list it. */
    static String state(int i, String prefix, String id) {
        for (JsonNode f : ZK.getJson(i, prefix + "/followers?limit=10000").get("followers")) {
            if (f.get("id").asString().equals(id)) {
                return f.get("state").asString();
            }
        }
        return "";
    }
}
