package io.ringd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.ringd.ring.Node;
import io.ringd.state.RingService;
import io.ringd.state.Rings;
import io.ringd.state.RingState;
import io.ringd.state.SettingsPatch;
import io.ringd.store.FileRingStore;
import io.ringd.admin.AdminToken;

/** The embedded default: a restart on the same data folder serves what was acknowledged. */
class RestartTest {

    @TempDir
    Path dataDir;

    private ConfigurableApplicationContext start(String... extra) {
        String[] args = new String[extra.length + 3];
        args[0] = "--server.port=0";
        args[1] = "--ringd.data-dir=" + dataDir;
        args[2] = "--spring.main.banner-mode=off";
        System.arraycopy(extra, 0, args, 3, extra.length);
        return new SpringApplicationBuilder(RingdApplication.class).run(args);
    }

    @Test
    void restart_onTheSameFolder_keepsVersionFingerprintSettingsAndHistory() throws Exception {
        RingState before;
        String[] fingerprints = new String[5];
        try (ConfigurableApplicationContext app = start()) {
            RingService ring = app.getBean(Rings.class).defaultRing().service();
            fingerprints[0] = ring.current().fingerprint();
            ring.put(new Node("a", 1, "eu-1a"), null);
            fingerprints[1] = ring.current().fingerprint();
            ring.put(Node.of("b:11211", 2.5), null);
            fingerprints[2] = ring.current().fingerprint();
            ring.updateSettings(new SettingsPatch("murmur3", 32, null, null), null);
            fingerprints[3] = ring.current().fingerprint();
            ring.remove("a", null);
            fingerprints[4] = ring.current().fingerprint();
            before = ring.current();
        }
        Path tokenFile = dataDir.resolve(AdminToken.FILE);
        assertThat(tokenFile).exists();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile))).isEqualTo("rw-------");
        String token = Files.readString(tokenFile).trim();
        // a leftover temp file from an interrupted write is ignored
        Files.writeString(dataDir.resolve(FileRingStore.STATE_FILE + ".leftover.tmp"), "{\"format\":1,\"vers");
        try (ConfigurableApplicationContext app = start()) {
            RingService ring = app.getBean(Rings.class).defaultRing().service();
            RingState after = ring.current();
            assertThat(after.version()).isEqualTo(4);
            assertThat(after.fingerprint()).isEqualTo(before.fingerprint());
            assertThat(after.settings()).isEqualTo(before.settings());
            assertThat(after.nodes()).isEqualTo(before.nodes());
            for (int v = 0; v <= 4; v++) {
                assertThat(ring.ringAt(v).fingerprint()).as("version %d", v).isEqualTo(fingerprints[v]);
            }
            assertThat(app.getBean(AdminToken.class).matches(token)).isTrue();
        }
        assertThat(dataDir.resolve(FileRingStore.STATE_FILE + ".leftover.tmp")).doesNotExist();
    }

    @Test
    void damagedStateFile_stopsTheStart_namingTheFile() throws Exception {
        try (ConfigurableApplicationContext app = start()) {
            app.getBean(Rings.class).defaultRing().service().put(Node.of("a", 1), null);
        }
        Path state = dataDir.resolve(FileRingStore.STATE_FILE);
        byte[] good = Files.readAllBytes(state);
        Files.write(state, java.util.Arrays.copyOf(good, good.length / 2));
        assertThatThrownBy(this::start).hasStackTraceContaining(state.toString())
                .hasStackTraceContaining("will not start with an empty ring");
        Throwable failure = org.assertj.core.api.Assertions.catchThrowable(this::start);
        org.springframework.boot.diagnostics.FailureAnalysis analysis =
                new io.ringd.state.StateFailureAnalyzer().analyze(failure);
        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).contains(state.toString());
        assertThat(analysis.getAction()).contains("Restore " + state).contains("move it away");
        // the damaged file is left for the operator, untouched
        assertThat(Files.size(state)).isEqualTo(good.length / 2);
    }
}
