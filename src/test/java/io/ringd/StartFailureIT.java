package io.ringd;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringd.store.FileRingStore;

/**
 * What an operator sees when ringd cannot start for a reason they can fix:
 * the real jar, started on a data folder another process holds and with a
 * setting out of range, exits with status 1 and a short failure report
 * (what is wrong, what to do), not a stack trace.
 */
class StartFailureIT {

    static final String TOKEN = "start-failure-test-token-0123";

    @TempDir
    Path dataDir;

    @Test
    void aDataFolderAnotherProcessHolds_isAShortReport() throws Exception {
        try (FileRingStore holder = new FileRingStore(dataDir)) { // holds the folder's lock, as a running ringd does
            String log = refused(List.of());
            assertThat(log).contains("is in use by another ringd process")
                    .contains(dataDir.toAbsolutePath().normalize().resolve("ringd.lock").toString())
                    .contains("Stop the other process first, or give this one a folder of its own with "
                            + "ringd.data-dir (RINGD_DATA_DIR)");
        }
    }

    @Test
    void aSettingOutOfRange_isAShortReport_namingTheSetting() throws Exception {
        String log = refused(List.of("--ringd.watch.max-streams=0"));
        assertThat(log).contains("Invalid setting: ringd.watch.max-streams must be in [1, 100000]: 0")
                .contains("docs/settings.md lists every setting").doesNotContain("IllegalArgumentException");
    }

    /** Starts the jar with {@code args}; asserts it exits 1 with a failure report and no stack trace; its log. */
    private String refused(List<String> args) throws Exception {
        try (RingdProcess ringd = RingdProcess.start(dataDir, TOKEN, List.of("-XX:TieredStopAtLevel=1"), args)) {
            assertThat(ringd.awaitExit(90)).as(ringd.log()).isEqualTo(1);
            String log = ringd.log();
            assertThat(log).contains("APPLICATION FAILED TO START").contains("Action:");
            assertThat(log.lines().filter(l -> l.startsWith("\tat ") || l.startsWith("Caused by:")))
                    .as("stack trace lines in:%n%s", log).isEmpty();
            assertThat(log.lines().count()).as(log).isLessThan(40);
            return log;
        }
    }
}
