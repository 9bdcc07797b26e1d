package io.ringd.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import io.ringd.RealServerTest;

/**
 * A {@code /ring/events} slot is freed as soon as its client closes the
 * connection, without a write: the connection is watched for it
 * ({@code ringd.watch.notice-closes}, the default). The probes and the
 * keep-alive are made too rare here (15 s) to find anything within the
 * test, so what frees the slots is the connection alone.
 */
@TestPropertySource(properties = { "ringd.watch.keep-alive=15s", "ringd.watch.probe-interval=15s",
        "ringd.watch.probe-rate=10" })
class WatchNoticedClosesApiTest extends RealServerTest {

    private final List<EventStream> open = new ArrayList<>();
    /** The status line and headers of the last stream {@link #rawStream()} opened. */
    private String headers;

    @AfterEach
    void closeStreams() {
        open.forEach(EventStream::close);
    }

    EventStream events(String query) {
        EventStream s = EventStream.open(uri("/ring/events" + query));
        open.add(s);
        return s;
    }

    @Test
    void theLimitsWorthOfClosedStreams_freeTheirSlotsAtOnce() throws Exception {
        closeAllAndOpenAgain(false);
    }

    @Test
    void theLimitsWorthOfResetStreams_freeTheirSlotsAtOnce() throws Exception {
        closeAllAndOpenAgain(true);
    }

    @Test
    void aStreamsAnswer_closesItsConnection() throws Exception {
        awaitNoStreams();
        try (Socket s = rawStream()) {
            assertThat(headers).containsIgnoringCase("\r\nConnection: close\r\n");
        }
    }

    /** The limit's worth of streams closed (or reset) at once, and as many opened 300 ms later. */
    private void closeAllAndOpenAgain(boolean reset) throws Exception {
        awaitNoStreams();
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < MAX_STREAMS; i++) {
                sockets.add(rawStream());
            }
            EventStream refused = events("");
            assertThat(refused.status).as("a stream past the limit while %d are open", MAX_STREAMS).isEqualTo(503);
        } finally {
            for (Socket s : sockets) {
                if (reset) {
                    s.setSoLinger(true, 0); // closing sends a reset, not a FIN
                }
                s.close();
            }
        }
        long closed = System.nanoTime();
        Thread.sleep(300);
        List<EventStream> again = new ArrayList<>();
        for (int i = 0; i < MAX_STREAMS; i++) {
            again.add(events(""));
        }
        double seconds = (System.nanoTime() - closed) / 1e9;
        assertThat(again).as("%d streams opened %.2f s after as many were %s", MAX_STREAMS, seconds,
                reset ? "reset" : "closed").allSatisfy(s -> assertThat(s.status).isEqualTo(200));
    }

    private Socket rawStream() throws IOException {
        StringBuilder h = new StringBuilder();
        Socket s = WatchSlotsApiTest.rawStream(port, h);
        headers = h.toString();
        return s;
    }
}
