package io.ringd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;

import io.ringd.ring.Change;
import io.ringd.ring.Node;
import io.ringd.state.RingService;
import io.ringd.state.Rings;
import io.ringd.state.RingSettings;
import io.ringd.state.StateFailureAnalyzer;
import io.ringd.store.FileRingStore;

/**
 * The whole application started on a data folder in each state a crash, a
 * full disk or a slip can leave it: a clear start-up decision every time,
 * never a silently empty ring. Refused starts leave the folder as it was,
 * and the start-up report (StateFailureAnalyzer) names the file, the problem
 * and what to do.
 */
class DamagedStateFolderTest {

    static final String STATE = FileRingStore.STATE_FILE;

    @TempDir
    static Path shared;
    static byte[] good;
    static byte[] versionOne;

    @TempDir
    Path dataDir;

    /** A good state file at version 4, and the state file of a ring's first write (version 1). */
    @BeforeAll
    static void states() throws Exception {
        Path first = shared.resolve("first");
        try (FileRingStore store = new FileRingStore(first)) {
            RingService s = new RingService(store, RingSettings.defaults(), 128, List.of());
            s.put(new Node("a", 1, "eu-1a"), null);
            versionOne = Files.readAllBytes(first.resolve(STATE));
            s.put(Node.of("b", 2), null);
            s.apply(List.of(Change.put(Node.of("c", 1)), Change.remove("a")), null);
            s.put(Node.of("b", 3), null);
            good = Files.readAllBytes(first.resolve(STATE));
        }
    }

    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(RingdApplication.class).run("--server.port=0",
                "--server.address=127.0.0.1", "--ringd.data-dir=" + dataDir, "--spring.main.banner-mode=off",
                "--ringd.admin.token=damaged-state-test-token-0123", "--logging.level.root=WARN");
    }

    private TreeMap<String, String> folder() throws Exception {
        TreeMap<String, String> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(dataDir)) {
            for (Path p : list.toList()) {
                files.put(p.getFileName().toString(), Arrays.toString(Files.readAllBytes(p)));
            }
        }
        return files;
    }

    /** The start is refused; the report names the file and {@code problem}; the folder is left as it was. */
    private void assertRefused(String problem) throws Exception {
        new FileRingStore(dataDir).close(); // the lock file, so that the folder compares equal
        TreeMap<String, String> before = folder();
        Throwable failure = catchThrowable(this::start);
        assertThat(failure).as("the start is refused").isNotNull();
        FailureAnalysis analysis = new StateFailureAnalyzer().analyze(failure);
        assertThat(analysis).as("a start-up report for %s", failure).isNotNull();
        Path file = dataDir.toAbsolutePath().normalize().resolve(STATE);
        assertThat(analysis.getDescription()).contains(file.toString()).contains(problem);
        assertThat(analysis.getAction()).contains("Restore " + file).contains("move it away");
        assertThat(folder()).as("the folder is left as it was").isEqualTo(before);
    }

    @Test
    void aTruncatedStateFile_isRefused() throws Exception {
        Files.write(dataDir.resolve(STATE), Arrays.copyOf(good, good.length - 17));
        assertRefused("truncated after " + (good.length - 17) + " bytes");
    }

    @Test
    void anEmptyStateFile_isRefused() throws Exception {
        Files.write(dataDir.resolve(STATE), new byte[0]);
        assertRefused("the state is empty (0 bytes)");
    }

    @Test
    void aGarbageStateFile_isRefused() throws Exception {
        byte[] garbage = good.clone();
        for (int i = 40; i < garbage.length; i += 7) {
            garbage[i] = (byte) (garbage[i] ^ 0x5a);
        }
        Files.write(dataDir.resolve(STATE), garbage);
        assertRefused("not valid JSON at line 1");
    }

    @Test
    void aStateFileFromANewerFormat_isRefused() throws Exception {
        Files.writeString(dataDir.resolve(STATE), new String(good, StandardCharsets.UTF_8)
                .replace("\"format\":1", "\"format\":2"));
        assertRefused("format 2 was written by a newer ringd");
    }

    @Test
    void aHistoryEntryInconsistentWithTheState_isRefused() throws Exception {
        // version 3 removes "a": make it remove "zz", which is not a member
        String text = new String(good, StandardCharsets.UTF_8);
        assertThat(text).contains("{\"op\":\"remove\",\"id\":\"a\"}");
        Files.writeString(dataDir.resolve(STATE), text.replace("{\"op\":\"remove\",\"id\":\"a\"}",
                "{\"op\":\"remove\",\"id\":\"zz\"}"));
        assertRefused("version 3 removes node \"zz\", which is not a member of version 2");
    }

    @Test
    void aLeftoverTempFile_besideAGoodStateFile_isIgnoredAndRemoved() throws Exception {
        Files.write(dataDir.resolve(STATE), good);
        Path cutShort = dataDir.resolve(STATE + ".3f6c.tmp");
        Files.write(cutShort, Arrays.copyOf(good, 100));
        Path whole = dataDir.resolve(STATE + ".9a1e.tmp");
        Files.writeString(whole, new String(good, StandardCharsets.UTF_8).replace("\"version\":4,", "\"version\":5,"));
        try (ConfigurableApplicationContext app = start()) {
            RingService ring = app.getBean(Rings.class).defaultRing().service();
            assertThat(ring.current().version()).isEqualTo(4);
            assertThat(ring.current().nodes()).containsExactly(Node.of("b", 3), Node.of("c", 1));
        }
        assertThat(cutShort).doesNotExist();
        assertThat(whole).doesNotExist();
        assertThat(Files.readAllBytes(dataDir.resolve(STATE))).isEqualTo(good);
    }

    @Test
    void aLeftoverTempFile_ofTheFirstWrite_withNoStateFile_startsANewRing() throws Exception {
        // a crash during the very first write: nothing was ever acknowledged
        Path first = dataDir.resolve(STATE + ".0b2d.tmp");
        Files.write(first, versionOne);
        Path cutShort = dataDir.resolve(STATE + ".77aa.tmp");
        Files.write(cutShort, Arrays.copyOf(versionOne, versionOne.length / 2));
        try (ConfigurableApplicationContext app = start()) {
            RingService ring = app.getBean(Rings.class).defaultRing().service();
            assertThat(ring.current().version()).isZero();
            assertThat(ring.current().nodes()).isEmpty();
        }
        assertThat(first).doesNotExist();
        assertThat(cutShort).doesNotExist();
    }

    @Test
    void aLeftoverTempFile_ofALaterVersion_withNoStateFile_isRefused() throws Exception {
        // only a state file that was moved away or lost leaves this behind
        Path later = dataDir.resolve(STATE + ".5d5d.tmp");
        Files.write(later, good);
        assertRefused("is missing, but " + later.toAbsolutePath().normalize() + ", left over from an interrupted "
                + "write, holds version 4");
    }

    @Test
    void aFolderWithAGoodStateFile_startsAtItsVersion() throws Exception {
        Files.write(dataDir.resolve(STATE), good);
        try (ConfigurableApplicationContext app = start()) {
            assertThat(app.getBean(Rings.class).defaultRing().service().current().version()).isEqualTo(4);
        }
    }

    @Test
    void aGarbagePlansFile_isRefused_namingIt() throws Exception {
        Files.write(dataDir.resolve(STATE), good);
        Path plans = dataDir.toAbsolutePath().normalize().resolve("plans.json");
        Files.writeString(plans, "{\"format\":1,\"plans\":[{\"id\":");
        new FileRingStore(dataDir).close();
        TreeMap<String, String> before = folder();
        Throwable failure = catchThrowable(this::start);
        assertThat(failure).as("the start is refused").isNotNull();
        FailureAnalysis analysis = new StateFailureAnalyzer().analyze(failure);
        assertThat(analysis).as("a start-up report for %s", failure).isNotNull();
        assertThat(analysis.getDescription()).contains(plans.toString()).contains("plans");
        assertThat(analysis.getAction()).contains("Restore " + plans);
        assertThat(folder()).as("the folder is left as it was").isEqualTo(before);
    }
}
