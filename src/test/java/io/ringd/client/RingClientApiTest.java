package io.ringd.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.ringd.RealServerTest;
import io.ringd.ring.HashRing;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The client against the real server: it converges on the server's ring, version by version. */
@Timeout(180)
class RingClientApiTest extends RealServerTest {

    private static final int WRITERS = 4;
    private static final int OPS_EACH = 250; // 1,000 random changes in all
    private static final String[] HASHES = {"md5", "murmur3", "sha256"};

    @Test
    void clientsConvergeOnTheServersRing_throughRandomChangesByConcurrentWriters() throws Exception {
        reset();
        putAll("cc-0:1:z0", "cc-1:2:z1", "cc-2:1");
        long start = version();
        long seed = Long.getLong("ringd.seed", 20_261_130L); // fixed, so a run replays; -Dringd.seed=N for others
        List<Long> versionsSeen = new CopyOnWriteArrayList<>();
        try (RingClient steady = RingClient.builder("http://127.0.0.1:" + port).metrics(false)
                .listener((previous, current) -> versionsSeen.add(current.version())).build();
                // drops its stream whenever writers pause for 300 ms: it resumes with Last-Event-ID, many times
                RingClient flappy = RingClient.builder("http://127.0.0.1:" + port).metrics(false)
                        .idleTimeout(Duration.ofMillis(300)).backoff(Duration.ofMillis(20), Duration.ofMillis(200))
                        .build()) {
            assertThat(steady.awaitVersion(start, Duration.ofSeconds(20))).isTrue();
            assertThat(flappy.awaitVersion(start, Duration.ofSeconds(20))).isTrue();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < WRITERS; t++) {
                    Random random = new Random(seed + t);
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < OPS_EACH; i++) {
                            HttpResponse<String> r = randomChange(random);
                            if (r.statusCode() != 200 && r.statusCode() != 201 && r.statusCode() != 404) {
                                failures.add(r.statusCode() + " " + r.body());
                            }
                            if (random.nextInt(32) == 0) {
                                Thread.sleep(350 + random.nextInt(200)); // a pause: the flappy client drops
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(120, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(failures).as("seed %d", seed).isEmpty();

            JsonNode ring = getJson("/ring");
            long last = ring.get("version").asLong();
            String fingerprint = ring.get("fingerprint").asString();
            assertThat(last).as("seed %d: writes made versions", seed).isGreaterThan(start + 500);
            for (RingClient c : List.of(steady, flappy)) {
                assertThat(c.awaitVersion(last, Duration.ofSeconds(30))).as("seed %d: %s reaches v%d", seed, c, last)
                        .isTrue();
                assertThat(c.ring().fingerprint()).as("seed %d", seed).isEqualTo(fingerprint);
                assertThat(c.reloads()).as("seed %d: %s followed every change, never reloaded", seed, c).isZero();
                assertRoutesLikeTheServer(c.ring());
            }
            assertThat(flappy.reconnects()).as("seed %d: the flappy client resumed", seed).isPositive();
            Thread.sleep(100); // the listener runs just after the swap
            List<Long> expected = new ArrayList<>();
            for (long v = start; v <= last; v++) {
                expected.add(v);
            }
            assertThat(versionsSeen).as("seed %d: every version, in order", seed).isEqualTo(expected);
        }
    }

    private HttpResponse<String> randomChange(Random random) {
        int what = random.nextInt(20);
        HttpRequest.Builder request;
        if (what < 8) {
            request = adminRequest("/nodes/cc-" + random.nextInt(24)).PUT(HttpRequest.BodyPublishers.ofString(
                    nodeJson(random).toString()));
        } else if (what < 12) {
            request = adminRequest("/nodes/cc-" + random.nextInt(24)).DELETE();
        } else if (what < 18) {
            ObjectNode body = JSON.createObjectNode();
            ArrayNode changes = body.putArray("changes");
            int first = random.nextInt(24);
            for (int k = 0; k < 2 + random.nextInt(2); k++) {
                String id = "cc-" + (first + 7 * k) % 24;
                if (random.nextInt(3) == 0) {
                    changes.addObject().put("op", "remove").put("id", id);
                } else {
                    changes.add(nodeJson(random).put("op", "put").put("id", id));
                }
            }
            request = adminRequest("/membership").POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        } else {
            String body = "{\"hash\":\"" + HASHES[random.nextInt(3)] + "\",\"vnodesPerWeight\":"
                    + (16 << random.nextInt(3)) + "}";
            request = adminRequest("/settings").PUT(HttpRequest.BodyPublishers.ofString(body));
        }
        return send(request);
    }

    private static ObjectNode nodeJson(Random random) {
        ObjectNode n = JSON.createObjectNode().put("weight", 0.5 * (1 + random.nextInt(6)));
        if (random.nextBoolean()) {
            n.put("zone", "z" + random.nextInt(4));
        }
        return n;
    }

    private HttpRequest.Builder adminRequest(String path) {
        return HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + TOKEN)
                .header("Content-Type", "application/json");
    }

    /** The server's POST /route and zone-aware /preference answer as {@code ring} does, at its version. */
    private void assertRoutesLikeTheServer(HashRing ring) {
        ObjectNode body = JSON.createObjectNode();
        ArrayNode keys = body.putArray("keys");
        for (int i = 0; i < 1000; i++) {
            keys.add("key-" + i);
        }
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/route")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())));
        JsonNode answer = json(r.body());
        assertThat(answer.get("version").asLong()).isEqualTo(ring.version());
        JsonNode routes = answer.get("routes");
        for (int i = 0; i < 1000; i++) {
            assertThat(ring.route("key-" + i)).as("key-%d", i).isEqualTo(routes.get(i).get("node").asString());
        }
        for (int i = 0; i < 20; i++) {
            JsonNode p = fastGet("/preference/key-" + i + "?n=3&distinctZones=true");
            assertThat(ring.preference("key-" + i, 3, true)).isEqualTo(strings(p.get("nodes")));
        }
    }
}
