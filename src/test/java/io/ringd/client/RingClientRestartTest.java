package io.ringd.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.ringd.RingdApplication;
import io.ringd.ring.HashRing;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A server restarted with the memory store starts a new history from
 * version 0: whatever version it reaches, a client following it must take
 * the new history's ring, never keep or build a wrong one.
 */
@Timeout(180)
class RingClientRestartTest {

    private static final String TOKEN = "restart-test-admin-token-0123456789";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dataDir;

    private int port;
    /** Every (version, fingerprint) any of the servers had. */
    private final Map<Long, Set<String>> histories = new ConcurrentHashMap<>();

    private ConfigurableApplicationContext start() throws Exception {
        ConfigurableApplicationContext app = new SpringApplicationBuilder(RingdApplication.class).run(
                "--server.port=" + port, "--ringd.store=memory", "--ringd.admin.token=" + TOKEN,
                "--ringd.data-dir=" + dataDir,
                // a restart as after a crash: no graceful wait for open streams
                "--server.shutdown=immediate", "--spring.main.banner-mode=off", "--logging.level.io.ringd=WARN");
        record(); // version 0, the empty ring
        return app;
    }

    @Test
    void aNewHistory_atTheSameVersion_behindOrAhead_isTakenWhole_neverMistakenForTheOld() throws Exception {
        port = StubRingServer.freePort();
        List<HashRing> seen = new CopyOnWriteArrayList<>();
        try (RingClient client = RingClient.builder("http://127.0.0.1:" + port).metrics(false)
                .backoff(Duration.ofMillis(50), Duration.ofMillis(500))
                .listener((previous, current) -> seen.add(current)).build()) {
            // no server yet: the client waits for one; then it follows it through three restarts
            try (ConfigurableApplicationContext app = start()) {
                put("a", 1, "z1");
                put("b", 1, "z2");
                put("c", 2, null);
                assertThat(client.awaitVersion(3, Duration.ofSeconds(30))).isTrue();
                assertThat(client.ring().fingerprint()).isEqualTo(ring().get("fingerprint").asString());
            }
            eventually("the client noticed", () -> client.reconnects() > 0);

            try (ConfigurableApplicationContext app = start()) { // the same version, another ring
                put("x", 1, "z1");
                put("y", 2, null);
                put("z", 1, "z3");
                String fp = ring().get("fingerprint").asString();
                eventually("the new history's version 3", () -> client.version() == 3
                        && client.ring().fingerprint().equals(fp));
                put("w", 1, null);
                assertThat(client.awaitVersion(4, Duration.ofSeconds(30))).as("followed again").isTrue();
                assertThat(client.ring().fingerprint()).isEqualTo(ring().get("fingerprint").asString());
            }
            long reloads = client.reloads();
            assertThat(reloads).isPositive();

            try (ConfigurableApplicationContext app = start()) { // behind
                put("p", 1, null);
                String fp = ring().get("fingerprint").asString();
                eventually("the new history's version 1", () -> client.version() == 1
                        && client.ring().fingerprint().equals(fp));
            }

            try (ConfigurableApplicationContext app = start()) { // ahead
                for (int i = 0; i < 6; i++) {
                    put("q" + i, 1 + i % 2, "z" + i % 3);
                }
                String fp = ring().get("fingerprint").asString();
                eventually("the new history's version 6", () -> client.version() == 6
                        && client.ring().fingerprint().equals(fp));
                assertRoutesLikeTheServer(client.ring());
            }
            assertThat(client.reloads()).isGreaterThan(reloads);
        }
        for (HashRing r : seen) {
            assertThat(histories.get(r.version())).as("v%d was a server's ring", r.version()).contains(r.fingerprint());
        }
    }

    private void put(String id, double weight, String zone) throws Exception {
        String body = "{\"weight\":" + weight + (zone == null ? "" : ",\"zone\":\"" + zone + "\"") + "}";
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/nodes/" + id)).header("Authorization", "Bearer " + TOKEN)
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body)));
        assertThat(r.statusCode()).as(r.body()).isIn(200, 201);
        record();
    }

    private void record() throws Exception {
        JsonNode ring = ring();
        histories.computeIfAbsent(ring.get("version").asLong(), v -> ConcurrentHashMap.newKeySet())
                .add(ring.get("fingerprint").asString());
    }

    private JsonNode ring() throws Exception {
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/ring")));
        assertThat(r.statusCode()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private void assertRoutesLikeTheServer(HashRing ring) throws Exception {
        for (int i = 0; i < 50; i++) {
            JsonNode route = JSON.readTree(send(HttpRequest.newBuilder(uri("/route/key-" + i))).body());
            assertThat(route.get("version").asLong()).isEqualTo(ring.version());
            assertThat(ring.route("key-" + i)).isEqualTo(route.get("node").asString());
        }
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return HTTP.send(request.timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() < deadline).as("within 60 s: %s", what).isTrue();
            Thread.sleep(20);
        }
    }
}
