package io.ringd.bench;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.ringd.RingdApplication;
import io.ringd.client.RingClient;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;

/**
 * A key routed by a {@link RingClient} that follows a real ringd (in this
 * JVM, loopback), against the library's own {@code HashRing.route} on the
 * same ring, and against asking the server over HTTP ({@code GET /route/{key}}
 * with java.net.http): 100 nodes x 128 points, md5.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class ClientLookupBenchmark {

    static final String TOKEN = "client-bench-admin-token-0123456789";

    private ConfigurableApplicationContext server;
    private RingClient client;
    private HashRing ring;
    private HttpClient http;
    private String base;
    private String[] keys;
    private String[] encoded;
    private int i;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        server = new SpringApplicationBuilder(RingdApplication.class).run("--server.port=0",
                "--spring.main.banner-mode=off", "--ringd.store=memory", "--ringd.admin.token=" + TOKEN,
                "--logging.level.root=WARN");
        int port = ((WebServerApplicationContext) server).getWebServer().getPort();
        base = "http://127.0.0.1:" + port;
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        StringBuilder changes = new StringBuilder("{\"changes\":[");
        List<Node> nodes = Fixtures.nodes(100);
        for (int n = 0; n < nodes.size(); n++) {
            changes.append(n == 0 ? "" : ",").append("{\"op\":\"put\",\"id\":\"").append(nodes.get(n).id())
                    .append("\",\"weight\":").append(nodes.get(n).weight()).append('}');
        }
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/membership"))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(changes.append("]}").toString())).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(r.body());
        }
        client = RingClient.builder(base).build();
        if (!client.awaitVersion(1, Duration.ofSeconds(30))) {
            throw new IllegalStateException("the client did not reach version 1");
        }
        ring = client.ring();
        keys = Fixtures.keys();
        encoded = new String[keys.length];
        List<String> check = new ArrayList<>();
        for (int k = 0; k < keys.length; k++) {
            encoded[k] = URLEncoder.encode(keys[k], StandardCharsets.UTF_8).replace("+", "%20");
            if (k < 64) {
                check.add(keys[k]);
            }
        }
        for (String key : check) { // the three ways agree before anything is measured
            String body = http.send(HttpRequest.newBuilder(URI.create(base + "/route?key="
                    + URLEncoder.encode(key, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString()).body();
            if (!client.route(key).equals(ring.route(key)) || !body.contains("\"node\":\"" + ring.route(key) + "\"")) {
                throw new IllegalStateException("client, library and server disagree on " + key);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        client.close();
        server.close();
    }

    @Benchmark
    public String library_route() {
        return ring.route(keys[i++ & Fixtures.KEY_MASK]);
    }

    @Benchmark
    public String client_route() {
        return client.route(keys[i++ & Fixtures.KEY_MASK]);
    }

    @Benchmark
    public String http_route() throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + "/route/" + encoded[i++ & Fixtures.KEY_MASK]))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
