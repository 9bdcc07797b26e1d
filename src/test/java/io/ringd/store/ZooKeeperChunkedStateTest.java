package io.ringd.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.unit.DataSize;

import io.ringd.RingdApplication;
import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.state.PersistedState;
import io.ringd.state.RingService;
import io.ringd.state.RingSettings;
import io.ringd.state.RingState;
import io.ringd.state.StateTooLargeException;

/**
 * A ring's state too large for one znode on a real ZooKeeper server (curator-test): written as chunks and a
 * manifest (see the design note of {@link ZooKeeperStateNodes}), read back whole, followed by another
 * instance, cleaned up after, refused over the cap (through the API too: 400, nothing changed); a small
 * state stays one plain gzipped znode.
 */
class ZooKeeperChunkedStateTest {

    static final int ONE_MIB = 1 << 20;
    static final Duration SOON = Duration.ofSeconds(30);
    static final String TOKEN = "zookeeper-chunked-state-admin-token-0123456789";
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    static TestingServer zk;
    static CuratorFramework look;
    final Random random = new Random(7);

    @BeforeAll
    static void server() throws Exception {
        zk = new TestingServer(true);
        look = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100));
        look.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (look != null) {
            look.close();
        }
        if (zk != null) {
            zk.close();
        }
    }

    static ZooKeeperRingStore store(String path, DataSize cap) {
        return new ZooKeeperRingStore(new ZooKeeperProperties(zk.getConnectString(), path, Duration.ofSeconds(10),
                Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ZERO, cap));
    }

    @Test
    void aStateOfSeveralMiB_roundTripsThroughSaveAndLoad_inZnodesEachUnderOneMiB() throws Exception {
        String path = "/chunked-roundtrip";
        PersistedState big = ZooKeeperStateSizeTest.state(ZooKeeperStateSizeTest.longestIds(random), 1);
        PersistedState small = at(big.version() - 1, big, List.of());
        try (ZooKeeperRingStore writer = store(path, null); ZooKeeperRingStore reader = store(path, null)) {
            writer.create(small, Duration.ZERO);
            assertThat(gzipped(path)).as("a small state is one plain gzipped znode").isTrue();
            assertThat(look.checkExists().forPath(path + "/chunks")).isNull();
            writer.save(big, small.version());
            assertThat(gzipped(path)).as("a manifest").isFalse();
            assertThat(ZooKeeperStateNodes.isManifest(look.getData().forPath(path + "/state"))).isTrue();
            assertThat(look.getChildren().forPath(path + "/chunks")).hasSizeGreaterThan(4);
            assertThat(reader.load()).hasValueSatisfying(loaded -> assertThat(ZooKeeperStateSizeTest.digest(loaded))
                    .isEqualTo(ZooKeeperStateSizeTest.digest(big)));
            assertThat(largestZnode(look, path)).isLessThanOrEqualTo(ZooKeeperStateNodes.CHUNK_BYTES);
            assertOnlyCurrentChunks(path);

            // small, then large again: each write leaves the chunks of its own state only
            PersistedState smallAgain = at(big.version() + 1, big, List.of());
            writer.save(smallAgain, big.version());
            assertThat(gzipped(path)).isTrue();
            assertOnlyCurrentChunks(path);
            assertThat(reader.load()).hasValueSatisfying(l -> assertThat(l.version()).isEqualTo(smallAgain.version()));
            PersistedState largeAgain = at(big.version() + 2, big, big.nodes());
            writer.save(largeAgain, smallAgain.version());
            assertThat(gzipped(path)).isFalse();
            assertOnlyCurrentChunks(path);
            assertThat(reader.load()).hasValueSatisfying(loaded -> assertThat(ZooKeeperStateSizeTest.digest(loaded))
                    .isEqualTo(ZooKeeperStateSizeTest.digest(largeAgain)));
            assertThat(largestZnode(look, path)).isLessThan(ONE_MIB);
        }
    }

    /** A state at {@code version} of {@code nodes}, with no kept deltas, in {@code like}'s ring. */
    static PersistedState at(long version, PersistedState like, List<Node> nodes) {
        return new PersistedState(version, like.settings(), nodes, io.ringd.state.RingHistory.startingAt(version,
                like.settings(), nodes, java.time.Instant.parse("2026-01-02T00:00:00Z")), like.incarnation());
    }

    @Test
    void twoInstances_oneWritesLargeSmallLarge_theOtherFollows_noChunksLeftButTheCurrent() throws Exception {
        String path = "/chunked-follow";
        try (ZooKeeperRingStore storeA = store(path, null); ZooKeeperRingStore storeB = store(path, null)) {
            RingService a = new RingService(storeA, RingSettings.defaults(), 128, List.of());
            awaitTrue("a writable", storeA::writable);
            RingService b = new RingService(storeB, RingSettings.defaults(), 128, List.of());
            awaitTrue("b writable", storeB::writable);
            a.put(Node.of("small-1", 1), null);
            assertThat(gzipped(path)).isTrue();

            List<Node> big = ZooKeeperStateSizeTest.longestIds(random).subList(0, HashRing.MAX_NODES - 1);
            List<Change> puts = new ArrayList<>();
            big.forEach(n -> puts.add(Change.put(n)));
            RingState large = a.apply(puts, null);
            awaitFollowed(b, large);
            assertThat(gzipped(path)).as("chunked").isFalse();
            assertOnlyCurrentChunks(path);

            List<Change> removes = new ArrayList<>();
            big.forEach(n -> removes.add(Change.remove(n.id())));
            RingState smallAgain = a.apply(removes, null); // its history still holds the big batch: chunked
            awaitFollowed(b, smallAgain);
            assertOnlyCurrentChunks(path);

            RingState larger = a.apply(puts, null);
            awaitFollowed(b, larger);
            assertOnlyCurrentChunks(path);

            RingState throughB = b.put(Node.of("small-1", 2), null).state(); // b writes over a chunked state
            awaitFollowed(a, throughB);
            assertOnlyCurrentChunks(path);
            assertThat(largestZnode(look, path)).isLessThan(ONE_MIB);
        }
    }

    @Test
    void aStateOverTheCap_isRefusedBeforeAnythingIsWritten() throws Exception {
        String path = "/chunked-cap";
        try (ZooKeeperRingStore store = store(path, DataSize.ofMegabytes(1))) {
            RingService service = new RingService(store, RingSettings.defaults(), 128, List.of());
            awaitTrue("writable", store::writable);
            RingState before = service.put(Node.of("only", 1), null).state();
            Stat stat = look.checkExists().forPath(path + "/state");
            List<Change> puts = new ArrayList<>();
            ZooKeeperStateSizeTest.longestIds(random).subList(0, HashRing.MAX_NODES - 1)
                    .forEach(n -> puts.add(Change.put(n)));
            assertThatThrownBy(() -> service.apply(puts, null)).isInstanceOf(StateTooLargeException.class)
                    .hasMessageContaining("over the store's cap of 1048576 bytes")
                    .hasMessageContaining("ringd.zookeeper.max-state-bytes");
            assertThat(look.checkExists().forPath(path + "/state").getVersion()).isEqualTo(stat.getVersion());
            assertThat(look.checkExists().forPath(path + "/chunks")).as("no chunk written").isNull();
            assertThat(service.current().version()).isEqualTo(before.version());
            assertThat(service.current().fingerprint()).isEqualTo(before.fingerprint());
            assertThat(service.put(Node.of("after", 1), null).state().version()).isEqualTo(before.version() + 1);
        }
    }

    @Test
    void aWriteOverTheCap_throughTheApi_is400LimitExceeded_andChangesNothing() throws Exception {
        String path = "/chunked-api";
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(RingdApplication.class).run(
                "--server.port=0", "--spring.main.banner-mode=off", "--ringd.store=zookeeper",
                "--ringd.zookeeper.connect=" + zk.getConnectString(), "--ringd.zookeeper.path=" + path,
                "--ringd.zookeeper.new-ring-wait=0s", "--ringd.zookeeper.max-state-bytes=1MB",
                "--ringd.admin.token=" + TOKEN, "--logging.level.io.ringd=WARN",
                "--logging.level.org.apache.zookeeper=ERROR", "--logging.level.org.apache.curator=ERROR")) {
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            awaitTrue("the ring made", () -> {
                try {
                    return look.checkExists().forPath(path + "/state") != null;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Stat before = look.checkExists().forPath(path + "/state");
            StringBuilder body = new StringBuilder("{\"changes\":[");
            List<Node> nodes = ZooKeeperStateSizeTest.longestIds(random).subList(0, HashRing.MAX_NODES);
            for (int i = 0; i < nodes.size(); i++) {
                body.append(i == 0 ? "" : ",").append("{\"op\":\"put\",\"id\":\"").append(nodes.get(i).id())
                        .append("\",\"weight\":1}");
            }
            body.append("]}");
            HttpResponse<String> refused = HTTP.send(HttpRequest.newBuilder(
                    URI.create("http://localhost:" + port + "/membership")).timeout(Duration.ofSeconds(60))
                    .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
            assertThat(refused.body()).contains("urn:ringd:problem:limit-exceeded").contains("1048576 bytes")
                    .contains("ringd.zookeeper.max-state-bytes").contains("nothing was changed");
            Stat after = look.checkExists().forPath(path + "/state");
            assertThat(after.getVersion()).isEqualTo(before.getVersion());
            assertThat(look.checkExists().forPath(path + "/chunks")).isNull();
            HttpResponse<String> ring = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                    + "/ring")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(ring.statusCode()).isEqualTo(200);
            assertThat(ring.body()).contains("\"version\":0");
        }
    }

    @Test
    void aNamedRingWithAChunkedState_isDeletedWithItsChunks() throws Exception {
        String base = "/chunked-named";
        ZooKeeperProperties props = new ZooKeeperProperties(zk.getConnectString(), base, Duration.ofSeconds(10),
                Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ZERO, null);
        try (ZooKeeperRingStores stores = new ZooKeeperRingStores(props)) {
            PersistedState big = ZooKeeperStateSizeTest.state(ZooKeeperStateSizeTest.longestIds(random), 1);
            stores.create("big", big); // a large initial state: chunked first, committed in the multi-operation
            String ring = base + "/rings/big";
            assertThat(ZooKeeperStateNodes.isManifest(look.getData().forPath(ring + "/state"))).isTrue();
            assertThat(stores.names()).containsExactly("big");
            assertThat(stores.store("big").load()).hasValueSatisfying(loaded -> assertThat(loaded.version())
                    .isEqualTo(big.version()));
            assertThat(largestZnode(look, ring)).isLessThan(ONE_MIB);
            stores.delete("big");
            assertThat(look.checkExists().forPath(ring)).as("the ring, its chunks with it").isNull();
        }
    }

    @Test
    void leftoverChunks_areSweptAfterAWriteAndAtStart_neverThoseOfAWriteInProgress() throws Exception {
        String path = "/chunked-sweep";
        PersistedState big = ZooKeeperStateSizeTest.state(ZooKeeperStateSizeTest.longestIds(random), 1);
        ZooKeeperStateNodes nodes = new ZooKeeperStateNodes(look, path, 64 << 20);
        nodes.create(nodes.encode(at(1, big, List.of())));
        look.create().creatingParentsIfNeeded().forPath(path + "/chunks/aaaa-0", new byte[1]); // a writer died
        ZooKeeperStateNodes.Written first = nodes.replace(nodes.encode(at(2, big, big.nodes())), 0, null);
        assertOnlyCurrentChunks(path);
        look.create().forPath(path + "/chunks/bbbb-0", new byte[1]); // a write in progress: after the state
        nodes.sweep();
        assertThat(look.checkExists().forPath(path + "/chunks/bbbb-0")).as("in progress: left").isNotNull();
        ZooKeeperStateNodes.Written second = nodes.replace(nodes.encode(at(3, big, big.nodes())),
                first.stat().getVersion(), first.chunksId());
        assertOnlyCurrentChunks(path); // bbbb's writer can no longer commit: it compares against an older state
        ZooKeeperStateNodes.Written small = nodes.replace(nodes.encode(at(4, big, List.of())),
                second.stat().getVersion(), second.chunksId());
        assertOnlyCurrentChunks(path);
        look.create().forPath(path + "/chunks/cccc-0", new byte[1]);
        nodes.replace(nodes.encode(at(5, big, List.of())), small.stat().getVersion(), null); // small over small
        assertThat(look.getChildren().forPath(path + "/chunks")).containsExactly("cccc-0");
        try (ZooKeeperRingStore store = store(path, null)) {
            RingService service = new RingService(store, RingSettings.defaults(), 128, List.of());
            awaitTrue("writable", store::writable);
            assertThat(service.current().version()).isEqualTo(5);
            awaitTrue("the leftover swept at start", () -> {
                try {
                    return look.getChildren().forPath(path + "/chunks").isEmpty();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
    }

    /** Whether the state at {@code path} is a plain gzip stream, as before chunking. */
    static boolean gzipped(String path) throws Exception {
        byte[] data = look.getData().forPath(path + "/state");
        return data.length > 2 && (data[0] & 0xff) == 0x1f && (data[1] & 0xff) == 0x8b;
    }

    /** Every chunk under {@code path} is one of the current manifest's, and it has them all. */
    static void assertOnlyCurrentChunks(String path) throws Exception {
        byte[] data = look.getData().forPath(path + "/state");
        Set<String> expected = new TreeSet<>();
        if (ZooKeeperStateNodes.isManifest(data)) {
            ChunkManifest m = ChunkManifest.parse(data);
            for (int i = 0; i < m.chunks(); i++) {
                expected.add(m.id() + "-" + i);
            }
        }
        List<String> chunks = look.checkExists().forPath(path + "/chunks") == null ? List.of()
                : look.getChildren().forPath(path + "/chunks");
        assertThat(new TreeSet<>(chunks)).as("the chunks left").isEqualTo(expected);
    }

    /** The most data any znode at or under {@code path} holds. */
    static long largestZnode(CuratorFramework c, String path) throws Exception {
        Stat stat = c.checkExists().forPath(path);
        long largest = stat == null ? 0 : stat.getDataLength();
        if (stat != null) {
            for (String child : c.getChildren().forPath(path)) {
                largest = Math.max(largest, largestZnode(c, (path.equals("/") ? "" : path) + "/" + child));
            }
        }
        return largest;
    }

    static void awaitFollowed(RingService follower, RingState written) throws InterruptedException {
        awaitTrue("followed version " + written.version(), () -> follower.current().version() == written.version()
                && follower.current().fingerprint().equals(written.fingerprint()));
    }

    static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + SOON.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + SOON + ": " + what);
            }
            Thread.sleep(50);
        }
    }
}
