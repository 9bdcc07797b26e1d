package io.ringd;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.ringd.ring.HashRing;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Concurrent admin writers and readers against the real server (run with
 * each store by its subclasses). Writers read the ring, build a random write
 * on what they read and send it with {@code If-Match} of that version,
 * reading again and retrying on 412: every accepted write must make exactly
 * the next version from the one it named, the versions must run without gap,
 * and replaying the accepted writes in version order must give the final
 * ring. Readers meanwhile ask {@code /route}, {@code /preference} and
 * {@code POST /route}: each answer must be the library's answer for the
 * version it reports, on the membership that replay gives for that version.
 * Seeded ({@code -Dringd.seed=N}); the interleaving is the scheduler's.
 */
@Timeout(240)
abstract class ConcurrentAdminChecks extends RealServerTest {

    static final int WRITERS = 8;
    static final int WRITES_EACH = 12;
    static final int READERS = 3;

    /** One accepted write: the version it made, and the ring it was built on. */
    record Accepted(long version, Membership base, Membership.Write write) {
    }

    /** One reader's answer: what was asked, the version answered and the nodes. */
    record Read(String kind, List<String> keys, long version, List<String> nodes) {
    }

    @Test
    void writersWithIfMatchAndRetry_loseNoUpdate_makeContiguousVersions_andReadersGetTheLibrarysAnswers()
            throws Exception {
        String given = System.getProperty("ringd.seed");
        long seed = given == null || given.isBlank() ? 20_261_130L : Long.parseLong(given.trim());
        System.out.println(getClass().getSimpleName() + ": seed " + seed + " (replay with -Dringd.seed=" + seed + ")");
        reset();
        putAll("seed-a:1:zone-0", "seed-b:2:zone-1", "seed-c:1:zone-2", "seed-d:1.5");
        Membership start = Membership.of(getJson("/ring"));

        ConcurrentLinkedQueue<Accepted> accepted = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Read> reads = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicInteger conflicts = new AtomicInteger();
        AtomicBoolean writing = new AtomicBoolean(true);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < WRITERS; t++) {
                Random rnd = new Random(seed * 31 + t);
                writers.add(pool.submit(() -> {
                    go.await();
                    for (int done = 0; done < WRITES_EACH;) {
                        Membership base = Membership.of(fastGet("/ring"));
                        Membership.Write w = base.randomWrite(rnd, 30);
                        HttpResponse<String> r = send(write(w, base.version()));
                        if (r.statusCode() == 412) {
                            conflicts.incrementAndGet();
                            continue; // the ring moved on: read it again
                        }
                        if (r.statusCode() != 200 && r.statusCode() != 201) {
                            failures.add(w + " at v" + base.version() + " -> " + r.statusCode() + " " + r.body());
                            return null;
                        }
                        accepted.add(new Accepted(json(r.body()).get("version").asLong(), base, w));
                        done++;
                    }
                    return null;
                }));
            }
            List<Future<?>> readers = new ArrayList<>();
            for (int t = 0; t < READERS; t++) {
                Random rnd = new Random(seed * 17 + t);
                readers.add(pool.submit(() -> {
                    go.await();
                    while (writing.get()) {
                        read(rnd, reads, failures);
                    }
                    read(rnd, reads, failures);
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : writers) {
                f.get(180, TimeUnit.SECONDS);
            }
            writing.set(false);
            for (Future<?> f : readers) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(failures).as("seed %d", seed).isEmpty();

        // versions: each accepted write made the version after the one it named, each once, with no gap
        List<Accepted> inOrder = accepted.stream().sorted((a, b) -> Long.compare(a.version(), b.version())).toList();
        assertThat(inOrder).hasSize(WRITERS * WRITES_EACH);
        Map<Long, Membership> byVersion = new ConcurrentHashMap<>();
        byVersion.put(start.version(), start);
        Membership replayed = start;
        for (int i = 0; i < inOrder.size(); i++) {
            Accepted a = inOrder.get(i);
            assertThat(a.version()).as("seed %d: the %d-th accepted write", seed, i)
                    .isEqualTo(start.version() + 1 + i);
            assertThat(a.base().version()).as("seed %d: %s named If-Match", seed, a.write()).isEqualTo(a.version() - 1);
            assertThat(a.base().sameRing(replayed)).as("seed %d: v%d was built on %s; replay gives %s", seed,
                    a.version(), a.base(), replayed).isTrue();
            replayed = a.write().result();
            byVersion.put(a.version(), replayed);
        }
        // no lost update: the final ring is the accepted writes replayed in version order
        Membership last = Membership.of(getJson("/ring"));
        assertThat(last.version()).isEqualTo(replayed.version());
        assertThat(last.sameRing(replayed)).as("seed %d: %s, replay gives %s", seed, last, replayed).isTrue();
        assertThat(getJson("/ring").get("fingerprint").asString()).isEqualTo(replayed.ring().fingerprint());

        // every answer read meanwhile is the library's for the version it reports
        Map<Long, HashRing> rings = new ConcurrentHashMap<>();
        assertThat(reads.size()).as("answers read during the writes").isGreaterThan(50);
        for (Read r : reads) {
            Membership m = byVersion.get(r.version());
            assertThat(m).as("seed %d: %s reports a version that no write made", seed, r).isNotNull();
            HashRing ring = rings.computeIfAbsent(r.version(), v -> m.ring());
            List<String> expected = switch (r.kind()) {
                case "route", "batch" -> r.keys().stream().map(ring::route).toList();
                default -> ring.preference(r.keys().get(0), 3, true);
            };
            assertThat(r.nodes()).as("seed %d: %s at v%d", seed, r, r.version()).isEqualTo(expected);
        }
        System.out.printf("%s: %d writes accepted (versions %d..%d, %d refused with 412 and retried), %d answers "
                + "checked over %d versions%n", getClass().getSimpleName(), inOrder.size(), start.version() + 1,
                last.version(), conflicts.get(), reads.size(), reads.stream().map(Read::version).distinct().count());
    }

    private void read(Random rnd, ConcurrentLinkedQueue<Read> reads, ConcurrentLinkedQueue<String> failures) {
        int kind = rnd.nextInt(3);
        String key = "user:" + rnd.nextInt(100_000);
        if (kind == 0) {
            HttpResponse<String> r = httpGet("/route?key=" + form(key));
            if (r.statusCode() != 200) {
                failures.add("/route " + key + " -> " + r.statusCode() + " " + r.body());
                return;
            }
            JsonNode j = json(r.body());
            reads.add(new Read("route", List.of(key), j.get("version").asLong(), List.of(j.get("node").asString())));
            assertThat(r.headers().firstValue("X-Ring-Version").orElseThrow()).isEqualTo(j.get("version").asString());
        } else if (kind == 1) {
            HttpResponse<String> r = httpGet("/preference?key=" + form(key) + "&n=3&distinctZones=true");
            if (r.statusCode() != 200) {
                failures.add("/preference " + key + " -> " + r.statusCode() + " " + r.body());
                return;
            }
            JsonNode j = json(r.body());
            reads.add(new Read("preference", List.of(key), j.get("version").asLong(), strings(j.get("nodes"))));
        } else {
            ObjectNode body = JSON.createObjectNode();
            ArrayNode keys = body.putArray("keys");
            List<String> asked = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                asked.add("batch:" + rnd.nextInt(100_000));
                keys.add(asked.get(i));
            }
            HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/route")).header("Content-Type",
                    "application/json").POST(HttpRequest.BodyPublishers.ofString(body.toString())));
            if (r.statusCode() != 200) {
                failures.add("POST /route -> " + r.statusCode() + " " + r.body());
                return;
            }
            JsonNode j = json(r.body());
            List<String> nodes = new ArrayList<>();
            j.get("routes").forEach(x -> nodes.add(x.get("node").asString()));
            reads.add(new Read("batch", asked, j.get("version").asLong(), nodes));
        }
    }

    private HttpRequest.Builder write(Membership.Write w, long ifMatch) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(w.path())).header("Authorization", "Bearer " + TOKEN)
                .header("If-Match", "\"" + ifMatch + "\"");
        return w.body() == null ? b.method(w.method(), HttpRequest.BodyPublishers.noBody())
                : b.header("Content-Type", "application/json")
                        .method(w.method(), HttpRequest.BodyPublishers.ofString(w.body()));
    }
}
