package io.ringd.membership;

import io.ringd.RealServerTest;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;

/** Writers racing: every accepted change makes exactly one version and none is lost. */
class ConcurrentWritersApiTest extends RealServerTest {

    private static final int THREADS = 8;
    private static final int PUTS_EACH = 25;

    @Test
    void concurrentPutsOfDistinctNodes_endAtStartPlusNTimesM_withEveryNodePresent() throws Exception {
        reset();
        long start = version();
        ConcurrentLinkedQueue<Long> versions = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < PUTS_EACH; i++) {
                        String id = "cw-" + thread + "-" + i;
                        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/nodes/" + id))
                                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                                .PUT(HttpRequest.BodyPublishers.ofString("{\"weight\":1,\"zone\":\"t" + thread + "\"}")));
                        if (r.statusCode() != 201) {
                            failures.add(id + " -> " + r.statusCode() + " " + r.body());
                        } else {
                            versions.add(json(r.body()).get("version").asLong());
                        }
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(failures).isEmpty();
        int total = THREADS * PUTS_EACH;
        // every answer names its own version: start + 1 .. start + N*M, each once
        assertThat(new TreeSet<>(versions)).hasSize(total).first().isEqualTo(start + 1);
        assertThat(new TreeSet<>(versions).last()).isEqualTo(start + total);
        assertThat(version()).isEqualTo(start + total);
        JsonNode nodes = getJson("/nodes").get("nodes");
        Set<String> ids = new TreeSet<>();
        nodes.forEach(n -> ids.add(n.get("id").asString()));
        assertThat(ids).hasSize(total);
        for (int t = 0; t < THREADS; t++) {
            for (int i = 0; i < PUTS_EACH; i++) {
                assertThat(ids).contains("cw-" + t + "-" + i);
            }
        }
        assertThat(getJson("/ring").get("fingerprint").asString()).isEqualTo(libraryRing().fingerprint());
        long sum = 0;
        for (JsonNode n : getJson("/ownership").get("nodes")) {
            sum += n.get("count").asLong();
        }
        assertThat(sum).isEqualTo(SPACE);
    }

    @Test
    void concurrentPutsOfOneNewNode_exactlyOneIs201() throws Exception {
        reset();
        long start = version();
        List<HttpResponse<String>> answers = race(t -> HttpRequest.newBuilder(uri("/nodes/contended"))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"weight\":" + (t + 1) + "}")));
        assertThat(answers).extracting(HttpResponse::statusCode).containsOnly(200, 201);
        assertThat(answers.stream().filter(r -> r.statusCode() == 201)).hasSize(1);
        assertThat(version()).as("eight distinct weights, eight versions").isEqualTo(start + THREADS);
    }

    @Test
    void concurrentIfMatchOnOneVersion_exactlyOneWins_theOthersAre412() throws Exception {
        reset();
        long start = version();
        List<HttpResponse<String>> answers = race(t -> HttpRequest.newBuilder(uri("/nodes/im-" + t))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .header("If-Match", "\"" + start + "\"")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"weight\":1}")));
        assertThat(answers.stream().filter(r -> r.statusCode() == 201)).hasSize(1);
        assertThat(answers.stream().filter(r -> r.statusCode() == 412)).hasSize(THREADS - 1);
        assertThat(version()).isEqualTo(start + 1);
        assertThat(getJson("/nodes").get("nodes")).hasSize(1);
    }

    /** One request per thread, all released at once. */
    private List<HttpResponse<String>> race(java.util.function.IntFunction<HttpRequest.Builder> request)
            throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<HttpResponse<String>>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    go.await();
                    return send(request.apply(thread));
                }));
            }
            go.countDown();
            List<HttpResponse<String>> out = new ArrayList<>();
            for (Future<HttpResponse<String>> f : futures) {
                out.add(f.get(60, TimeUnit.SECONDS));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
