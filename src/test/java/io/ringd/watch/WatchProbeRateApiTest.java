package io.ringd.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import io.ringd.RealServerTest;

/**
 * The idle streams' probes are bounded by {@code ringd.watch.probe-rate} over all streams, and
 * every idle stream is still probed (docs/ring.md section 20): 20 idle streams at a probe
 * interval of 50 ms would get 400 probes a second; at a rate of 10 a second each is probed about
 * every 2 s.
 */
@TestPropertySource(properties = { "ringd.watch.notice-closes=false", "ringd.watch.keep-alive=15s",
        "ringd.watch.probe-interval=50ms",
        "ringd.watch.probe-rate=10" })
class WatchProbeRateApiTest extends RealServerTest {

    static final int STREAMS = 20;

    private final List<EventStream> open = new ArrayList<>();

    @AfterEach
    void closeStreams() {
        open.forEach(EventStream::close);
    }

    @Test
    void probes_areBoundedByTheRate_overAllStreams_andReachEveryStream() throws Exception {
        awaitNoStreams();
        for (int i = 0; i < STREAMS; i++) {
            EventStream s = EventStream.open(uri("/ring/events"));
            assertThat(s.status).isEqualTo(200);
            open.add(s);
        }
        for (EventStream s : open) { // each stream's snapshot, so what follows is comments only
            assertThat(s.nextEvent(Duration.ofSeconds(10))).isNotNull();
        }
        Thread.sleep(1_000); // the streams opened at once all go idle at once: let the first round pass
        for (EventStream s : open) {
            drain(s);
        }
        long t0 = System.nanoTime();
        Thread.sleep(4_000);
        double seconds = (System.nanoTime() - t0) / 1e9;
        int total = 0;
        int reached = 0;
        for (EventStream s : open) {
            int probes = drain(s);
            total += probes;
            reached += probes > 0 ? 1 : 0;
        }
        assertThat(total / seconds).as("probes a second over %d streams, %d in %.2f s", STREAMS, total, seconds)
                .isLessThanOrEqualTo(10 * 1.5).isGreaterThanOrEqualTo(10 * 0.5);
        assertThat(reached).as("streams probed at least once in %.2f s (each every about 2 s)", seconds)
                .isEqualTo(STREAMS);
    }

    /** The probes (empty comments) received so far. */
    private static int drain(EventStream s) throws InterruptedException {
        int n = 0;
        for (EventStream.Event e; (e = s.next(Duration.ZERO)) != null;) {
            assertThat(e.isComment()).as("nothing but comments: %s", e).isTrue();
            n += e.data().isEmpty() ? 1 : 0;
        }
        return n;
    }
}
