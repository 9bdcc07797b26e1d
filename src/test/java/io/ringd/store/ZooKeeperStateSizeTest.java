package io.ringd.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.state.HistoryDelta;
import io.ringd.state.PersistedState;
import io.ringd.state.RingHistory;
import io.ringd.state.RingSettings;

/**
 * How large a ring's encoded state gets against ZooKeeper's jute.maxbuffer (1 MiB by default): the whole
 * state of one ring for the largest ring the limits allow ({@link HashRing#MAX_NODES} nodes), with the
 * default kept history ({@code ringd.history.versions} 128). The sizes are printed; the assertions pin which
 * shapes fit in one znode, that the limits allow some that do not, and that those are stored all the same in
 * znodes each under 1 MiB (chunks: see the design note of {@link ZooKeeperStateNodes}).
 */
class ZooKeeperStateSizeTest {

    static final int ONE_MIB = 1 << 20;
    static final int HISTORY = 128;
    static final String ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:@-";
    final Random random = new Random(42);

    @Test
    void theLargestRingWithTypicalIds_andSinglePutVersions_fitsWellUnderOneMiB() {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < HashRing.MAX_NODES; i++) {
            nodes.add(new Node(String.format("cache-%05d.zone-%d.example.internal:11211", i, i % 3), 1 + i % 4,
                    "zone-" + i % 3));
        }
        int size = size("10,000 nodes, typical ids, 127 single puts", nodes, 1);
        assertThat(size).isLessThan(ONE_MIB / 2);
    }

    @Test
    void theLargestRingWithTheLongestIds_exceedsOneMiB() {
        assertThat(size("10,000 nodes, 200-char random ids, 127 single puts", longestIds(random), 1))
                .isGreaterThan(ONE_MIB);
    }

    @Test
    void theLargestRingWithTheLongestIds_isStoredInZnodesEachUnderOneMiB_andReadBack() throws Exception {
        PersistedState state = state(longestIds(random), 1);
        try (TestingServer zk = new TestingServer(true);
                ZooKeeperRingStore store = new ZooKeeperRingStore(new ZooKeeperProperties(zk.getConnectString(),
                        "/ringd-size", Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ofSeconds(1),
                        Duration.ZERO, null));
                ZooKeeperRingStore reader = new ZooKeeperRingStore(new ZooKeeperProperties(zk.getConnectString(),
                        "/ringd-size", Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ofSeconds(1),
                        Duration.ZERO, null))) {
            store.create(state, Duration.ZERO);
            assertThat(reader.load()).hasValueSatisfying(loaded -> assertThat(digest(loaded))
                    .isEqualTo(digest(state)));
            try (CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
                c.start();
                long largest = ZooKeeperChunkedStateTest.largestZnode(c, "/ringd-size");
                System.out.printf("ZooKeeper state, 10,000 nodes with 200-char ids: largest znode %,d bytes%n",
                        largest);
                assertThat(largest).isLessThan(ONE_MIB).isLessThanOrEqualTo(ZooKeeperStateNodes.CHUNK_BYTES);
            }
        }
    }

    @Test
    void theLargestRingWithTheLongestHashKeys_exceedsOneMiBManyTimes() {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < HashRing.MAX_NODES; i++) {
            nodes.add(new Node("n" + i, 1, null, randomText(Node.MAX_HASH_KEY_BYTES)));
        }
        int size = size("10,000 nodes, 4096-byte random hashKeys, 127 single puts", nodes, 1);
        assertThat(size).isGreaterThan(10 * ONE_MIB);
        // still under the default cap: stored (not written here, some 60 MiB is slow on a shared machine) as
        // a manifest and chunks of at most 512 KiB, as the 3 MiB shape above is on a real ZooKeeper
        assertThat((long) size).isLessThan(ZooKeeperProperties.DEFAULT_MAX_STATE.toBytes());
    }

    @Test
    void typicalIds_andEveryKeptVersionABatchOfAThousandChanges_stillFits() {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < HashRing.MAX_NODES; i++) {
            nodes.add(new Node(String.format("cache-%05d.zone-%d.example.internal:11211", i, i % 3), 1, null));
        }
        // about 0.56 MiB: batches of the most changes a batch may hold (10,000) would be some ten times that
        assertThat(size("10,000 nodes, typical ids, 127 batches of 1,000 weight changes", nodes, 1_000))
                .isLessThan(ONE_MIB);
    }

    /** The encoded (gzipped StateCodec JSON) size of {@code nodes} with 127 kept deltas of {@code batch} puts. */
    int size(String what, List<Node> nodes, int batch) {
        byte[] json = new StateCodec().encode(state(nodes, batch));
        int gz = ZooKeeperStateNodes.gzip(json).length;
        System.out.printf("ZooKeeper state size, %s: JSON %,d bytes, gzipped %,d bytes (%.2f MiB; jute.maxbuffer "
                + "1 MiB)%n", what, json.length, gz, gz / (double) ONE_MIB);
        return gz;
    }

    /** A ring of {@code nodes} at version 1,127, with 127 kept deltas of {@code batch} puts each. */
    static PersistedState state(List<Node> nodes, int batch) {
        RingSettings settings = RingSettings.defaults();
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        List<HistoryDelta> deltas = new ArrayList<>();
        long base = 1_000;
        for (int v = 1; v < HISTORY; v++) {
            List<Change> changes = new ArrayList<>();
            for (int c = 0; c < batch; c++) {
                Node n = nodes.get((v * batch + c) % nodes.size());
                changes.add(Change.put(new Node(n.id(), 1 + (v + c) % 7, n.zone(), n.hashKey())));
            }
            deltas.add(new HistoryDelta(base + v, changes, null, t.plusSeconds(v), "0123456789abcdef".repeat(4)));
        }
        RingHistory history = new RingHistory(base, settings, nodes, deltas, t);
        return new PersistedState(base + HISTORY - 1, settings, nodes, history, "0123456789abcdef");
    }

    /** The largest ring with the longest ids (200 characters, random): some 3 MiB gzipped. */
    static List<Node> longestIds(Random random) {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < HashRing.MAX_NODES; i++) {
            nodes.add(Node.of(randomText(random, Node.MAX_ID_LENGTH), 1));
        }
        nodes.sort(java.util.Comparator.comparing(Node::id)); // as a stored ring's are
        return nodes;
    }

    /** The SHA-256 of {@code state}'s StateCodec JSON: equal for equal states. */
    static String digest(PersistedState state) {
        return ZooKeeperStateNodes.sha256(new StateCodec().encode(state));
    }

    String randomText(int length) {
        return randomText(random, length);
    }

    static String randomText(Random random, int length) {
        StringBuilder b = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            b.append(ID_CHARS.charAt(random.nextInt(ID_CHARS.length())));
        }
        return b.toString();
    }
}
