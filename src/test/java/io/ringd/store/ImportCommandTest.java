package io.ringd.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringd.ring.Node;
import io.ringd.state.ExpensiveReads;
import io.ringd.state.HandoffProperties;
import io.ringd.state.PersistedState;
import io.ringd.state.RingService;
import io.ringd.state.Rings;
import io.ringd.state.SettingsPatch;
import io.ringd.state.RingSettings;

/** {@code ringd.jar import}: a file store into an empty ZooKeeper path, and nothing else. */
class ImportCommandTest {

    @TempDir
    Path dataDir;

    TestingServer zk;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void zookeeper() throws Exception {
        zk = new TestingServer(true);
    }

    @AfterEach
    void stop() throws Exception {
        zk.close();
    }

    int run(String... args) {
        out.reset();
        err.reset();
        return ImportCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    /** A file store with a few versions, made as ringd makes them. */
    PersistedState fileStoreWithARing() {
        try (FileRingStore store = new FileRingStore(dataDir)) {
            RingService ring = new RingService(store, RingSettings.defaults(), 128, List.of());
            ring.put(new Node("a", 1, "z1"), null);
            ring.put(new Node("b", 2, null), null);
            ring.remove("a", null);
            return store.load().orElseThrow();
        }
    }

    ZooKeeperRingStore zookeeperStore(String path) {
        return new ZooKeeperRingStore(new ZooKeeperProperties(zk.getConnectString(), path, Duration.ofSeconds(15),
                Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ZERO, null));
    }

    @Test
    void importsTheWholeState_intoAnEmptyPath() {
        PersistedState file = fileStoreWithARing();
        int code = run("--ringd.data-dir=" + dataDir, "--ringd.zookeeper.connect=" + zk.getConnectString(),
                "--ringd.zookeeper.path=/imported");
        assertThat(code).as(err.toString()).isEqualTo(ImportCommand.OK);
        assertThat(out.toString()).contains("version 3").contains("1 nodes").contains("4 versions kept");
        try (ZooKeeperRingStore store = zookeeperStore("/imported")) {
            PersistedState stored = store.load().orElseThrow();
            assertThat(stored).isEqualTo(file);
            assertThat(stored.history().committedAt(3)).isEqualTo(file.history().committedAt(3)).isNotNull();
        }
    }

    @Test
    void importsEveryNamedRingToo_eachWithItsHistory() {
        PersistedState file = fileStoreWithARing();
        PersistedState sessions;
        try (FileRingStores stores = new FileRingStores(dataDir)) {
            Rings rings = new Rings(stores, RingSettings.defaults(), 128, List.of(), List.of(),
                    java.time.Clock.systemUTC(), ExpensiveReads.unlimited(),
                    new HandoffProperties(Duration.ofMinutes(10)), 10);
            RingService s = rings.create("sessions", new SettingsPatch("murmur3", 32, null, null)).service();
            s.put(new Node("x", 1, null), null);
            s.put(new Node("y", 1, null), null);
            sessions = stores.store("sessions").load().orElseThrow();
        }
        int code = run("--ringd.data-dir=" + dataDir, "--ringd.zookeeper.connect=" + zk.getConnectString(),
                "--ringd.zookeeper.path=/with-rings");
        assertThat(code).as(err.toString()).isEqualTo(ImportCommand.OK);
        assertThat(out.toString()).contains("the ring sessions, version 2 (2 nodes, 3 versions kept)");
        try (ZooKeeperRingStores target = new ZooKeeperRingStores(new ZooKeeperProperties(zk.getConnectString(),
                "/with-rings", Duration.ofSeconds(15), Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ZERO, null))) {
            assertThat(target.names()).containsExactly("sessions");
            assertThat(target.store("sessions").load().orElseThrow()).isEqualTo(sessions);
            assertThat(target.store("default").load().orElseThrow()).isEqualTo(file);
        }
        // a path that holds named rings is refused whole
        assertThat(run("--ringd.data-dir=" + dataDir, "--ringd.zookeeper.connect=" + zk.getConnectString(),
                "--ringd.zookeeper.path=/with-rings")).isEqualTo(ImportCommand.REFUSED);
    }

    @Test
    void refusesAPathThatHoldsARing_andChangesNothing() {
        fileStoreWithARing();
        String[] args = {"--ringd.data-dir=" + dataDir, "--ringd.zookeeper.connect=" + zk.getConnectString()};
        assertThat(run(args)).isEqualTo(ImportCommand.OK);
        PersistedState before;
        try (ZooKeeperRingStore store = zookeeperStore("/ringd")) {
            before = store.load().orElseThrow();
        }
        assertThat(run(args)).isEqualTo(ImportCommand.REFUSED);
        assertThat(err.toString()).contains("already holds a ring").contains("nothing was changed");
        try (ZooKeeperRingStore store = zookeeperStore("/ringd")) {
            assertThat(store.load().orElseThrow()).isEqualTo(before);
        }
    }

    @Test
    void refusesNothingToImport_badArguments_andAFolderInUse() {
        assertThat(run("--ringd.data-dir=" + dataDir, "--ringd.zookeeper.connect=" + zk.getConnectString()))
                .isEqualTo(ImportCommand.FAILED);
        assertThat(err.toString()).contains("nothing to import");
        assertThat(run("--ringd.data-dir=" + dataDir)).isEqualTo(ImportCommand.FAILED);
        assertThat(err.toString()).contains("--ringd.zookeeper.connect");
        assertThat(run("--data=" + dataDir, "--ringd.zookeeper.connect=x:1")).isEqualTo(ImportCommand.FAILED);
        assertThat(err.toString()).contains("unknown argument --data=");
        fileStoreWithARing();
        try (FileRingStore running = new FileRingStore(dataDir)) { // a ringd holds the folder
            assertThat(run("--ringd.data-dir=" + dataDir, "--ringd.zookeeper.connect=" + zk.getConnectString()))
                    .isEqualTo(ImportCommand.FAILED);
            assertThat(err.toString()).contains("in use by another ringd process");
        }
    }
}
