package io.ringd.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import io.ringd.RealServerTest;

/**
 * A {@code /ring/events} slot is freed within about a second of its client
 * going away where the connection is not watched for it
 * ({@code ringd.watch.notice-closes=false}), on a server with the default
 * keep-alive period (15 s) and probe interval (300 ms): the idle streams'
 * probes find the closed connection, not the keep-alive.
 * {@link WatchNoticedClosesApiTest} is the same where it is watched.
 */
@TestPropertySource(properties = { "ringd.watch.notice-closes=false", "ringd.watch.keep-alive=15s",
        "ringd.watch.probe-interval=300ms" })
class WatchSlotsApiTest extends RealServerTest {

    private final List<EventStream> open = new ArrayList<>();

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
    void theLimitsWorthOfClosedStreams_freeTheirSlotsWithinASecond() throws Exception {
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
                s.close();
            }
        }
        long closed = System.nanoTime();
        Thread.sleep(1_000);
        List<EventStream> again = new ArrayList<>();
        for (int i = 0; i < MAX_STREAMS; i++) {
            again.add(events(""));
        }
        double seconds = (System.nanoTime() - closed) / 1e9;
        assertThat(again).as("%d streams opened %.2f s after as many were closed", MAX_STREAMS, seconds)
                .allSatisfy(s -> assertThat(s.status).isEqualTo(200));
    }

    /** A stream opened on a socket of its own, its answer's status line read: closing the socket ends it. */
    private Socket rawStream() throws IOException {
        return rawStream(port, new StringBuilder());
    }

    /**
     * A stream opened on a socket of its own to the server at {@code port}, read through its headers (into
     * {@code headers}) and its snapshot: closing the socket ends it.
     */
    static Socket rawStream(int port, StringBuilder headers) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("localhost", port), 5000);
        s.setSoTimeout(5000);
        s.getOutputStream().write(("GET /ring/events HTTP/1.1\r\nHost: localhost\r\n"
                + "Accept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        byte[] status = s.getInputStream().readNBytes(12);
        assertThat(new String(status, StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 200");
        // read through the snapshot, so that closing sends a plain FIN (a socket closed with unread data
        // resets the connection, which the server would notice at its first write rather than its second)
        StringBuilder seen = new StringBuilder();
        int headersEnd = -1;
        while (headersEnd < 0 || seen.indexOf("\n\n", headersEnd + 4) < 0) {
            int b = s.getInputStream().read();
            assertThat(b).as("the stream's snapshot").isNotNegative();
            seen.append((char) b);
            if (headersEnd < 0) {
                headersEnd = seen.indexOf("\r\n\r\n");
                if (headersEnd >= 0) {
                    headers.append("HTTP/1.1 200").append(seen, 0, headersEnd + 4);
                }
            }
        }
        return s;
    }

}
