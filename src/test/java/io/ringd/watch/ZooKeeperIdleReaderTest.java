package io.ringd.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.ringd.RingdApplication;

/**
 * A change-stream client that never reads, on one of two instances sharing a
 * ring through ZooKeeper: writes through either instance go on being
 * answered (the stalled instance never holds the shared write lock while it
 * waits on a socket), and a new stream still gets its snapshot.
 */
class ZooKeeperIdleReaderTest {

    static final String TOKEN = "zookeeper-idle-reader-token-0123456789";
    /**
     * Nodes a write puts or removes: 6 KB events, 6 MB for the writes with the idle client, past what
     * the connection's buffers hold. Each write through the
     * ZooKeeper store reads and stores the whole state, kept history
     * included, so the 20 KB events of the file store's test would make
     * every write cost megabytes of JSON.
     */
    static final int NODES = 30;
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    static TestingServer zookeeper;
    static final List<ConfigurableApplicationContext> instances = new ArrayList<>();

    @BeforeAll
    static void ensembleAndTwoInstances() throws Exception {
        zookeeper = new TestingServer(true);
        for (int i = 0; i < 2; i++) {
            instances.add(new SpringApplicationBuilder(RingdApplication.class).run("--server.port=0",
                    "--spring.main.banner-mode=off", "--ringd.store=zookeeper",
                    "--ringd.zookeeper.connect=" + zookeeper.getConnectString(),
                    "--ringd.zookeeper.path=/ringd-idle-reader", "--ringd.zookeeper.connect-timeout=3s",
                    "--ringd.zookeeper.new-ring-wait=1s", "--ringd.history.versions=101",
                    "--ringd.watch.max-queued=200",
                    "--ringd.admin.token=" + TOKEN, "--logging.level.io.ringd=WARN",
                    "--logging.level.org.apache.zookeeper=ERROR", "--logging.level.org.apache.curator=ERROR"));
        }
    }

    @AfterAll
    static void stopAll() throws IOException {
        instances.forEach(ConfigurableApplicationContext::close);
        if (zookeeper != null) {
            zookeeper.close();
        }
    }

    static int port(int i) {
        return ((WebServerApplicationContext) instances.get(i)).getWebServer().getPort();
    }

    static URI base(int i) {
        return URI.create("http://localhost:" + port(i));
    }

    /** The {@code ringd_watch_streams} gauge of instance {@code i}. */
    static String openStreams(int i) throws Exception {
        String metrics = HTTP.send(HttpRequest.newBuilder(base(i).resolve("/actuator/prometheus")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return metrics.lines().filter(l -> l.startsWith("ringd_watch_streams ") || l.startsWith("ringd_watch_streams{"))
                .map(l -> l.substring(l.lastIndexOf(' ') + 1)).findFirst().orElse("absent");
    }

    @Test
    void aClientThatNeverReads_holdsUpNoWrite_throughEitherInstance() throws Exception {
        HttpResponse<String> settings = HTTP.send(HttpRequest.newBuilder(base(0).resolve("/settings"))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"vnodesPerWeight\":1}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(settings.statusCode()).as(settings.body()).isEqualTo(200);
        TimedWrites.run(i -> base(i % 2), TOKEN, 50, "z-q", NODES); // warming up
        List<Long> without = TimedWrites.run(i -> base(i % 2), TOKEN, 150, "z-q", NODES);
        List<Long> with;
        try (Socket idle = new Socket()) {
            idle.setReceiveBufferSize(4096);
            idle.connect(new InetSocketAddress("localhost", port(0)), 5000);
            idle.getOutputStream().write(("GET /ring/events HTTP/1.1\r\nHost: localhost\r\n"
                    + "Accept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            idle.getOutputStream().flush();
            // ~6 KB a change event: a few hundred fill the socket's buffers of instance 0, then its queue
            // passes max-queued (200 here) and the stream is closed; writes through both instances go on
            with = TimedWrites.run(i -> base(i % 2), TOKEN, 1_000, "z-i", NODES);
            assertThat(openStreams(0)).as("the idle client's stream, closed as too slow").isEqualTo("0.0");
            try (EventStream fresh = EventStream.open(base(0).resolve("/ring/events"))) {
                assertThat(fresh.status).isEqualTo(200);
                EventStream.Event snapshot = fresh.nextEvent(Duration.ofSeconds(10));
                assertThat(snapshot).as("a new stream's snapshot on the instance with the idle client").isNotNull();
                assertThat(snapshot.name()).isEqualTo("snapshot");
            }
        }
        System.out.println("writes through two ZooKeeper instances, a client that never reads on one: "
                + TimedWrites.figures(without, with));
    }
}
