package io.ringd.store;

import static io.ringd.store.ZooKeeperInstances.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.ringd.store.ZooKeeperInstances.Answer;
import tools.jackson.databind.JsonNode;

/**
 * Planned changes on ZooKeeper (docs/ring.md section 24): three ringd instances on one real
 * ZooKeeper server. A plan made through one is seen, paused, resumed and aborted through any;
 * while it holds the ring, writes through every instance are refused; it is driven by one
 * instance, and when instances stop mid-plan another takes over; each step is one version,
 * made once, whoever drives it; a gate is met by followers reporting to any instance.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ZooKeeperPlansTest {

    static final String TOKEN = "zookeeper-plans-admin-token-0123456789";
    static final String PATH = "/ringd-plans";
    static final ZooKeeperInstances ZK = new ZooKeeperInstances(TOKEN);
    static TestingServer zk;

    @BeforeAll
    static void threeInstances() throws Exception {
        zk = new TestingServer(true);
        for (int i = 0; i < 3; i++) {
            ZK.start(zk.getConnectString(), PATH);
        }
        awaitTrue("all instances writable", () -> ZK.writable(0) && ZK.writable(1) && ZK.writable(2),
                Duration.ofSeconds(30));
        StringBuilder nodes = new StringBuilder();
        for (int i = 1; i <= 9; i++) {
            nodes.append(i > 1 ? "," : "").append("{\"op\":\"put\",\"id\":\"zp-").append(i).append("\",\"weight\":1}");
        }
        long v = ZK.retry(0, "POST", "/membership", "{\"changes\":[" + nodes + "]}").get("version").asLong();
        awaitTrue("every instance at the version", () -> ZK.version(1) == v && ZK.version(2) == v,
                Duration.ofSeconds(10));
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
    void aPlanMadeThroughOne_holdsTheRingOnEvery_andIsSteeredThroughAny() throws Exception {
        long base = ZK.version(0);
        Answer made = ZK.send(0, "POST", "/plans", "{\"changes\":[{\"op\":\"put\",\"id\":\"zp-10\",\"weight\":1}],"
                + "\"maxMovedShare\":0.02,\"minStepInterval\":\"PT1H\"}");
        assertThat(made.status()).as("%s", made.body()).isEqualTo(201);
        String id = made.body().get("id").asString();
        awaitTrue("step 1 made", () -> currentStep(1, id) == 1, Duration.ofSeconds(10));
        awaitTrue("every instance at step 1's version", () -> ZK.version(0) == base + 1 && ZK.version(1) == base + 1
                && ZK.version(2) == base + 1, Duration.ofSeconds(10));
        for (int i = 0; i < 3; i++) {
            Answer refused = ZK.send(i, "PUT", "/nodes/zp-1", "{\"weight\":2}");
            assertThat(refused.status()).as("instance %d: %s", i, refused.body()).isEqualTo(409);
            assertThat(refused.body().get("plan").asString()).isEqualTo(id);
            Answer another = ZK.send(i, "POST", "/plans", "{\"changes\":[{\"op\":\"remove\",\"id\":\"zp-1\"}],"
                    + "\"maxMovedShare\":0.5}");
            assertThat(another.status()).as("instance %d: %s", i, another.body()).isEqualTo(409);
        }
        assertThat(ZK.send(2, "POST", "/plans/" + id + "/pause", null).status()).isEqualTo(200);
        for (int i = 0; i < 3; i++) {
            assertThat(ZK.getJson(i, "/plans/" + id).get("state").asString()).as("instance %d", i).isEqualTo("paused");
            assertThat(ZK.send(i, "POST", "/plans/" + id + "/pause", null).status()).isEqualTo(409);
        }
        assertThat(ZK.send(1, "POST", "/plans/" + id + "/resume", null).status()).isEqualTo(200);
        assertThat(ZK.getJson(0, "/plans/" + id).get("state").asString()).isEqualTo("running");
        Answer aborted = ZK.send(0, "POST", "/plans/" + id + "/abort", null);
        assertThat(aborted.status()).isEqualTo(200);
        assertThat(aborted.body().get("currentStep").asInt()).isEqualTo(1);
        for (int i = 0; i < 3; i++) {
            assertThat(ZK.getJson(i, "/plans").get("plans").get(0).get("state").asString()).isEqualTo("aborted");
        }
        assertThat(ZK.retry(1, "PUT", "/nodes/zp-1", "{\"weight\":2}").get("version").asLong()).isEqualTo(base + 2);
        ZK.retry(2, "PUT", "/nodes/zp-1", "{\"weight\":1}");
    }

    @Test
    @Order(2)
    void aPlanGoesOnWhenTheInstancesDrivingItStop_eachStepMadeOnce() throws Exception {
        long base = ZK.version(2);
        awaitTrue("every instance at the version", () -> ZK.version(0) == base && ZK.version(1) == base,
                Duration.ofSeconds(10));
        Answer made = ZK.send(2, "POST", "/plans", "{\"changes\":[{\"op\":\"remove\",\"id\":\"zp-10\"},"
                + "{\"op\":\"put\",\"id\":\"zp-11\",\"weight\":1}],\"maxMovedShare\":0.01,"
                + "\"minStepInterval\":\"PT0.3S\"}");
        assertThat(made.status()).as("%s", made.body()).isEqualTo(201);
        String id = made.body().get("id").asString();
        int n = made.body().get("steps").size();
        assertThat(n).isGreaterThanOrEqualTo(10);
        // stop two of the three, one after the other, while the plan runs: the last one finishes it
        for (int stop = 0; stop < 2; stop++) {
            int before = currentStep(2, id);
            awaitTrue("the plan moves on", () -> currentStep(2, id) > before, Duration.ofSeconds(30));
            ZK.instances.get(stop).close();
        }
        awaitTrue("the plan done through the last instance", () -> "done".equals(ZK.getJson(2, "/plans/" + id)
                .get("state").asString()), Duration.ofSeconds(60));
        JsonNode done = ZK.getJson(2, "/plans/" + id);
        for (int k = 1; k <= n; k++) {
            assertThat(done.get("steps").get(k - 1).get("version").asLong()).as("step %d", k).isEqualTo(base + k);
        }
        assertThat(ZK.version(2)).as("no step made twice, nothing else made").isEqualTo(base + n);
        // the history on the store says the same: each version one step, in order
        for (long v = base; v < base + n; v++) {
            JsonNode diff = ZK.getJson(2, "/diff?from=" + v + "&to=" + (v + 1) + "&maxRanges=0&maxFlows=0");
            assertThat(diff.get("movedShare").asDouble()).as("version %d", v + 1)
                    .isEqualTo(done.get("steps").get((int) (v - base)).get("movedShare").asDouble());
        }
        // a new instance sees the plan as done, and the ring writable
        ZK.instances.set(0, ZooKeeperStoreTest.start(zk.getConnectString(), PATH, TOKEN));
        awaitTrue("the new instance writable", () -> ZK.writable(0), Duration.ofSeconds(30));
        assertThat(ZK.getJson(0, "/plans/" + id).get("state").asString()).isEqualTo("done");
        assertThat(ZK.version(0)).isEqualTo(base + n);
    }

    @Test
    @Order(3)
    void theGate_isMetByFollowersReportingToAnotherInstance() throws Exception {
        long base = ZK.version(2);
        JsonNode ring = ZK.getJson(0, "/ring");
        assertThat(ZK.report(0, "", "gate-follower", base, ring.get("fingerprint").asString())).isEqualTo(204);
        Answer made = ZK.send(2, "POST", "/plans", "{\"changes\":[{\"op\":\"put\",\"id\":\"zp-12\",\"weight\":0.3}],"
                + "\"maxMovedShare\":0.01,\"gate\":{\"convergedShare\":1,\"timeout\":\"PT30S\"}}");
        assertThat(made.status()).as("%s", made.body()).isEqualTo(201);
        String id = made.body().get("id").asString();
        int n = made.body().get("steps").size();
        assertThat(n).isGreaterThanOrEqualTo(2);
        long seen = base;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!"done".equals(ZK.getJson(2, "/plans/" + id).get("state").asString()) && System.nanoTime() < end) {
            long v = ZK.version(0);
            if (v > seen) {
                assertThat(currentStep(2, id)).as("no step before the follower reports the last")
                        .isEqualTo((int) (v - base));
                assertThat(ZK.report(0, "", "gate-follower", v, ZK.getJson(0, "/ring").get("fingerprint").asString()))
                        .isEqualTo(204);
                seen = v;
            }
            Thread.sleep(30);
        }
        assertThat(ZK.getJson(2, "/plans/" + id).get("state").asString()).isEqualTo("done");
        assertThat(ZK.version(2)).isEqualTo(base + n);
    }

    // ------------------------------------------------------------ helpers

    static int currentStep(int i, String id) {
        Answer a = ZK.send(i, "GET", "/plans/" + id, null);
        return a.status() == 200 ? a.body().get("currentStep").asInt() : -1;
    }
}
