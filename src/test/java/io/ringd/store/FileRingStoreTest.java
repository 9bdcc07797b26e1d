package io.ringd.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringd.ring.Change;
import io.ringd.ring.Node;
import io.ringd.state.HistoryDelta;
import io.ringd.state.PersistedState;
import io.ringd.state.RingHistory;
import io.ringd.state.RingSettings;
import io.ringd.state.StoreUnavailableException;

class FileRingStoreTest {

    @TempDir
    Path dir;

    static PersistedState sample() {
        RingSettings s = RingSettings.defaults();
        RingHistory h = RingHistory.startingAt(0, s, List.of())
                .append(new HistoryDelta(1, List.of(Change.put(new Node("a", 1, "eu-1a"))), null), 128)
                .append(new HistoryDelta(2, List.of(Change.put(Node.of("b:11211", 0.001))), null), 128)
                .append(new HistoryDelta(3, List.of(), new RingSettings("murmur3", 64, "ring", 65537)), 128)
                .append(new HistoryDelta(4, List.of(Change.remove("a")), null), 128);
        return new PersistedState(4, new RingSettings("murmur3", 64, "ring", 65537),
                List.of(Node.of("b:11211", 0.001)), h);
    }

    @Test
    void save_thenLoad_givesTheSameState() {
        try (FileRingStore store = new FileRingStore(dir)) {
            assertThat(store.load()).isEmpty();
            store.save(sample());
            assertThat(store.load()).contains(sample());
        }
        try (FileRingStore again = new FileRingStore(dir)) {
            PersistedState loaded = again.load().orElseThrow();
            assertThat(loaded).isEqualTo(sample());
            loaded.checkConsistent();
            assertThat(loaded.history().at(1).nodes()).containsExactly(new Node("a", 1, "eu-1a"));
        }
    }

    @Test
    void commitTimesAndFingerprints_roundTrip() {
        Instant t0 = Instant.parse("2026-11-30T10:00:00.001Z");
        Instant t1 = Instant.parse("2026-11-30T10:00:01.250Z");
        RingSettings s = RingSettings.defaults();
        RingHistory h = RingHistory.startingAt(0, s, List.of(), t0)
                .append(new HistoryDelta(1, List.of(Change.put(Node.of("a", 1))), null, t1, "f".repeat(64)), 128);
        PersistedState state = new PersistedState(1, s, List.of(Node.of("a", 1)), h);
        try (FileRingStore store = new FileRingStore(dir)) {
            store.save(state);
        }
        try (FileRingStore again = new FileRingStore(dir)) {
            PersistedState loaded = again.load().orElseThrow();
            assertThat(loaded).isEqualTo(state);
            assertThat(loaded.history().committedAt(0)).isEqualTo(t0);
            assertThat(loaded.history().committedAt(1)).isEqualTo(t1);
            assertThat(loaded.history().delta(1).fingerprint()).isEqualTo("f".repeat(64));
        }
    }

    @Test
    void stateWrittenBeforeCommitTimes_stillLoads_withoutThem() throws Exception {
        // the format-1 file of a version that kept neither commit times nor fingerprints
        Files.writeString(dir.resolve("ring-state.json"), "{\"format\":1,\"version\":1,"
                + "\"settings\":{\"hash\":\"md5\",\"vnodesPerWeight\":128,\"algorithm\":\"ring\",\"maglevTableSize\":65537},"
                + "\"nodes\":[{\"id\":\"a\",\"weight\":1.0,\"zone\":null}],"
                + "\"history\":{\"baseVersion\":0,\"baseSettings\":{\"hash\":\"md5\",\"vnodesPerWeight\":128,"
                + "\"algorithm\":\"ring\",\"maglevTableSize\":65537},\"baseNodes\":[],"
                + "\"deltas\":[{\"version\":1,\"changes\":[{\"op\":\"put\",\"id\":\"a\",\"weight\":1.0,\"zone\":null}]}]}}");
        try (FileRingStore store = new FileRingStore(dir)) {
            PersistedState loaded = store.load().orElseThrow();
            loaded.checkConsistent();
            assertThat(loaded.history().committedAt(0)).isNull();
            assertThat(loaded.history().committedAt(1)).isNull();
            assertThat(loaded.history().delta(1).fingerprint()).isNull();
        }
    }

    @Test
    void save_leavesNoTempFileBehind() throws Exception {
        try (FileRingStore store = new FileRingStore(dir)) {
            store.save(sample());
            store.save(sample());
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("ring-state.json", "ringd.lock");
        }
    }

    @Test
    void load_ignoresAndRemovesLeftoverTempFiles() throws Exception {
        try (FileRingStore store = new FileRingStore(dir)) {
            store.save(sample());
        }
        Path leftover = dir.resolve("ring-state.json.1234.tmp");
        Files.writeString(leftover, "{\"format\":1,\"version\":99, truncated");
        try (FileRingStore store = new FileRingStore(dir)) {
            assertThat(store.load()).contains(sample());
        }
        assertThat(leftover).doesNotExist();
    }

    @Test
    void load_ofDamagedFile_failsNamingTheFile() throws Exception {
        Files.writeString(dir.resolve("ring-state.json"), "{\"format\":1,\"version\":", StandardCharsets.UTF_8);
        try (FileRingStore store = new FileRingStore(dir)) {
            assertThatThrownBy(store::load).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(dir.resolve("ring-state.json").toString())
                    .hasMessageContaining("will not start with an empty ring");
        }
    }

    @Test
    void load_ofUnreadableFile_failsNamingTheFile() throws Exception {
        // a folder where the file should be cannot be read, even by root
        Files.createDirectory(dir.resolve("ring-state.json"));
        try (FileRingStore store = new FileRingStore(dir)) {
            assertThatThrownBy(store::load).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(dir.resolve("ring-state.json").toString());
        }
    }

    @Test
    void load_ofOtherFormatOrInconsistentContent_fails() throws Exception {
        Files.writeString(dir.resolve("ring-state.json"), "{\"format\":2}");
        try (FileRingStore store = new FileRingStore(dir)) {
            assertThatThrownBy(store::load).hasMessageContaining("format 2 was written by a newer ringd");
        }
        Files.writeString(dir.resolve("ring-state.json"), "[]");
        try (FileRingStore store = new FileRingStore(dir)) {
            assertThatThrownBy(store::load).hasMessageContaining("not a JSON object");
        }
    }

    @Test
    void secondStoreOnOneFolder_isRefused() {
        try (FileRingStore first = new FileRingStore(dir)) {
            assertThatThrownBy(() -> new FileRingStore(dir)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("in use by another ringd process");
        }
        new FileRingStore(dir).close(); // released on close
    }

    @Test
    void save_thatCannotWrite_throwsAndKeepsTheOldFile() throws Exception {
        Path sub = dir.resolve("data");
        try (FileRingStore store = new FileRingStore(sub)) {
            store.save(sample());
            byte[] before = Files.readAllBytes(sub.resolve("ring-state.json"));
            // make the temp file's name taken by a folder: the write cannot happen
            Path blocker = sub.resolve("ring-state.json");
            Files.setPosixFilePermissions(sub, java.nio.file.attribute.PosixFilePermissions.fromString("r-xr-xr-x"));
            try {
                if (Files.isWritable(sub)) {
                    // root ignores folder permissions: delete the folder's contents' parent instead
                    Files.setPosixFilePermissions(sub,
                            java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
                    Path moved = dir.resolve("moved");
                    Files.move(sub, moved);
                    assertThatThrownBy(() -> store.save(sample())).isInstanceOf(StoreUnavailableException.class)
                            .hasMessageContaining("cannot write the ring state");
                    Files.move(moved, sub);
                } else {
                    assertThatThrownBy(() -> store.save(sample())).isInstanceOf(StoreUnavailableException.class);
                }
            } finally {
                Files.setPosixFilePermissions(sub,
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            }
            assertThat(Files.readAllBytes(blocker)).isEqualTo(before);
        }
    }
}
