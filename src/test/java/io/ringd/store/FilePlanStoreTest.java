package io.ringd.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringd.state.PlanStore;

/**
 * The plans file beside a ring's state (docs/ring.md section 24): replaced
 * only by a write that read the latest, kept across a new store on the same
 * folder (a restart), and a temp file left by a write cut short is removed,
 * never read.
 */
class FilePlanStoreTest {

    @TempDir
    Path dir;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aWrite_replacesTheDocument_onlyOverTheStampItRead() {
        FilePlanStore store = new FilePlanStore(dir);
        PlanStore.Stored empty = store.read();
        assertThat(empty.document()).isNull();
        assertThat(store.write(bytes("{\"a\":1}"), empty.stamp())).isTrue();
        assertThat(store.write(bytes("{\"b\":2}"), empty.stamp())).as("a stale stamp").isFalse();
        PlanStore.Stored now = store.read();
        assertThat(new String(now.document(), StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}");
        assertThat(store.write(bytes("{\"c\":3}"), now.stamp())).isTrue();
        assertThat(new String(store.read().document(), StandardCharsets.UTF_8)).isEqualTo("{\"c\":3}");
    }

    @Test
    void theDocument_outlivesTheStore_andALeftoverTempFileIsRemoved() throws Exception {
        FilePlanStore first = new FilePlanStore(dir);
        assertThat(first.write(bytes("{\"kept\":true}"), first.read().stamp())).isTrue();
        Path leftover = dir.resolve(FilePlanStore.FILE + ".0b1c.tmp");
        Files.writeString(leftover, "{\"half");
        FilePlanStore again = new FilePlanStore(dir);
        assertThat(new String(again.read().document(), StandardCharsets.UTF_8)).isEqualTo("{\"kept\":true}");
        assertThat(leftover).doesNotExist();
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly(FilePlanStore.FILE);
        }
    }
}
