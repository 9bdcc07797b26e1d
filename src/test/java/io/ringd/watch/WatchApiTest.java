package io.ringd.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ringd.RealServerTest;
import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import tools.jackson.databind.JsonNode;

/** {@code GET /ring/events} against a real server: the change stream of the contract (resume, order, limits). */
class WatchApiTest extends RealServerTest {

    static final Duration WAIT = Duration.ofSeconds(10);
    static final Duration QUIET = Duration.ofMillis(700);

    private final List<EventStream> open = new ArrayList<>();

    @BeforeEach
    void threeNodes() {
        reset();
        putAll("w-a:1:z1", "w-b:2:z2", "w-c:1");
    }

    @AfterEach
    void closeStreams() {
        open.forEach(EventStream::close);
    }

    EventStream events(String query, String... headers) {
        EventStream s = EventStream.open(uri("/ring/events" + query), headers);
        open.add(s);
        return s;
    }

    @Test
    void noVersion_startsWithASnapshotEqualToGetRing_thenEveryChange() throws Exception {
        JsonNode ring = getJson("/ring");
        EventStream s = events("");
        assertThat(s.status).isEqualTo(200);
        assertThat(s.header("Content-Type")).startsWith("text/event-stream");
        assertThat(s.header("X-Ring-Version")).isEqualTo(ring.get("version").asString());
        EventStream.Event snapshot = s.nextEvent(WAIT);
        assertThat(snapshot.name()).isEqualTo("snapshot");
        assertThat(snapshot.id()).isEqualTo(ring.get("version").asString());
        assertThat(json(snapshot.data())).isEqualTo(ring);

        HashRing local = fromSnapshot(json(snapshot.data()));
        long v1 = putNode("w-d", 3, "z1");
        long v2 = admin().delete("/nodes/w-a").then().statusCode(200).extract().jsonPath().getLong("version");
        long v3 = adminJson("{\"vnodesPerWeight\":64}").put("/settings").then().statusCode(200)
                .extract().jsonPath().getLong("version");
        for (long v : new long[] {v1, v2, v3}) {
            EventStream.Event e = s.nextEvent(WAIT);
            assertThat(e.name()).isEqualTo("change");
            assertThat(e.id()).isEqualTo(Long.toString(v));
            local = applyChange(local, json(e.data()));
            assertThat(local.version()).isEqualTo(v);
        }
        assertThat(local.fingerprint()).isEqualTo(fingerprint());
        assertThat(s.nextEvent(QUIET)).as("nothing more").isNull();
    }

    @Test
    void changeEvent_hasTheContractsFields_changesById_settingsOnlyWhenChanged() throws Exception {
        EventStream s = events("", "Last-Event-ID", Long.toString(version()));
        batch("[{\"op\":\"put\",\"id\":\"w-z\",\"weight\":1},{\"op\":\"remove\",\"id\":\"w-b\"},"
                + "{\"op\":\"put\",\"id\":\"w-0\",\"weight\":2.5,\"zone\":\"z9\"}]").then().statusCode(200);
        JsonNode change = json(s.nextEvent(WAIT).data());
        assertThat(change.propertyNames()).containsExactly("version", "incarnation", "committedAt", "fingerprint",
                "changes");
        assertThat(change.get("incarnation").asString()).isEqualTo(getJson("/ring").get("incarnation").asString());
        assertThat(change.get("version").asLong()).isEqualTo(version());
        assertThat(change.get("fingerprint").asString()).isEqualTo(fingerprint());
        assertThat(change.get("committedAt").asString()).isEqualTo(getJson("/ring").get("committedAt").asString());
        assertThat(change.get("changes").toString()).isEqualTo("[{\"op\":\"put\",\"id\":\"w-0\",\"weight\":2.5,"
                + "\"zone\":\"z9\"},{\"op\":\"remove\",\"id\":\"w-b\"},{\"op\":\"put\",\"id\":\"w-z\",\"weight\":1.0,"
                + "\"zone\":null}]");

        adminJson("{\"hash\":\"murmur3\"}").put("/settings").then().statusCode(200);
        JsonNode settings = json(s.nextEvent(WAIT).data());
        assertThat(settings.get("changes")).isEmpty();
        assertThat(settings.get("settings")).isEqualTo(getJson("/settings").get("settings"));
    }

    @Test
    void keptVersion_resumesWithOneChangePerLaterVersion_inOrder_andAHeaderBeatsAfter() throws Exception {
        long from = version();
        HashRing local = libraryRing();
        List<Long> made = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            made.add(putNode("w-r" + i, 1 + i, i % 2 == 0 ? "z1" : null));
        }
        made.add(adminJson("{\"vnodesPerWeight\":100}").put("/settings").then().statusCode(200).extract()
                .jsonPath().getLong("version"));
        List<EventStream> streams = List.of(events("", "Last-Event-ID", Long.toString(from)),
                events("?after=" + from), events("?after=garbage", "Last-Event-ID", Long.toString(from)));
        List<List<EventStream.Event>> received = new ArrayList<>();
        for (EventStream s : streams) {
            List<EventStream.Event> got = new ArrayList<>();
            for (int i = 0; i < made.size(); i++) {
                EventStream.Event e = s.nextEvent(WAIT);
                assertThat(e).as("event %d of %d", i + 1, made.size()).isNotNull();
                got.add(e);
            }
            received.add(got);
        }
        List<List<EventStream.Event>> more = EventStream.eventsWithin(QUIET, streams); // then silence on each
        for (int k = 0; k < streams.size(); k++) {
            List<EventStream.Event> got = new ArrayList<>(received.get(k));
            got.addAll(more.get(k));
            assertThat(got).extracting(EventStream.Event::name).containsOnly("change");
            assertThat(got).extracting(e -> Long.parseLong(e.id())).containsExactlyElementsOf(made);
            HashRing replay = local;
            for (EventStream.Event e : got) {
                JsonNode change = json(e.data());
                replay = applyChange(replay, change);
                assertThat(replay.fingerprint()).as("version %s", e.id()).isEqualTo(change.get("fingerprint").asString());
            }
            assertThat(replay.fingerprint()).isEqualTo(fingerprint());
        }
    }

    @Test
    void currentVersion_startsWithNothing_thenTheNextChange() throws Exception {
        EventStream s = events("", "Last-Event-ID", Long.toString(version()));
        assertThat(s.nextEvent(QUIET)).isNull();
        long v = putNode("w-n", 1, null);
        EventStream.Event e = s.nextEvent(WAIT);
        assertThat(e.name()).isEqualTo("change");
        assertThat(e.id()).isEqualTo(Long.toString(v));
    }

    @Test
    void futureGoneOrGarbageVersion_startsWithASnapshot() throws Exception {
        for (int i = 0; i < 105; i++) { // the shared server keeps 101 versions
            putNode("w-g", 1 + (i % 2), null);
        }
        long now = version();
        List<String> sent = List.of(Long.toString(now + 1), "99999999999999999999", "0", "-1", "x7", "", "7 ");
        List<EventStream> streams = new ArrayList<>();
        for (String id : sent) {
            EventStream s = events("", "Last-Event-ID", id);
            EventStream.Event e = s.nextEvent(WAIT);
            assertThat(e.name()).as("Last-Event-ID %s", id).isEqualTo("snapshot");
            assertThat(e.id()).isEqualTo(Long.toString(now));
            streams.add(s);
        }
        List<List<EventStream.Event>> more = EventStream.eventsWithin(QUIET, streams); // one silence for all seven
        for (int k = 0; k < sent.size(); k++) {
            assertThat(more.get(k)).as("only the snapshot for %s", sent.get(k)).isEmpty();
        }
    }

    @Test
    void concurrentWriters_everyVersionOnce_inOrder_noneSkipped() throws Exception {
        EventStream fresh = events("");
        EventStream.Event snapshot = fresh.nextEvent(WAIT);
        HashRing local = fromSnapshot(json(snapshot.data()));
        long start = local.version();
        EventStream resumed = events("", "Last-Event-ID", Long.toString(start));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> writers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int writer = t;
            writers.add(pool.submit(() -> {
                for (int i = 0; i < 25; i++) {
                    putNode("w-cw" + writer + "-" + (i % 5), 1 + i, null);
                }
            }));
        }
        for (Future<?> f : writers) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        long end = version();
        for (EventStream s : List.of(fresh, resumed)) {
            HashRing replay = local;
            Set<Long> seen = new HashSet<>();
            for (long v = start + 1; v <= end; v++) {
                EventStream.Event e = s.nextEvent(WAIT);
                assertThat(e).as("event for version %d", v).isNotNull();
                assertThat(Long.parseLong(e.id())).isEqualTo(v);
                assertThat(seen.add(v)).isTrue();
                replay = applyChange(replay, json(e.data()));
                assertThat(replay.fingerprint()).isEqualTo(json(e.data()).get("fingerprint").asString());
            }
            assertThat(replay.fingerprint()).isEqualTo(fingerprint());
        }
        for (List<EventStream.Event> more : EventStream.eventsWithin(QUIET, List.of(fresh, resumed))) {
            assertThat(more).as("no version twice").isEmpty();
        }
    }

    @Test
    void keepAlive_comesWhenNothingHappens() throws Exception {
        EventStream s = events("", "Last-Event-ID", Long.toString(version()));
        EventStream.Event e = s.next(Duration.ofSeconds(5)); // the shared server sends one every second
        while (e != null && e.isComment() && e.data().isEmpty()) { // an idle stream's probes come in between
            e = s.next(Duration.ofSeconds(5));
        }
        assertThat(e).isNotNull();
        assertThat(e.isComment()).isTrue();
        assertThat(e.data()).isEqualTo(" keep-alive");
    }

    @Test
    void streamsPastTheLimit_are503_andASlotFreesWhenAStreamCloses() throws Exception {
        List<EventStream> full = new ArrayList<>();
        EventStream refused = null;
        for (int i = 0; i <= MAX_STREAMS + 5 && refused == null; i++) {
            EventStream s = events("");
            if (s.status == 200) {
                full.add(s);
            } else {
                refused = s;
            }
        }
        assertThat(refused).as("a stream past %d open ones", MAX_STREAMS).isNotNull();
        assertThat(refused.status).isEqualTo(503);
        assertThat(refused.header("Content-Type")).startsWith(PROBLEM_JSON);
        assertProblem(new Answer(503, java.util.Map.of("content-type", List.of(refused.header("Content-Type"))), refused.body), 503,
                null);
        assertThat(full.size()).isLessThanOrEqualTo(MAX_STREAMS);
        full.forEach(EventStream::close);
        long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        int status = 0;
        while (System.nanoTime() < end && status != 200) { // the server notices a closed stream when it next writes
            Thread.sleep(300);
            EventStream again = events("");
            status = again.status;
            again.close();
        }
        assertThat(status).isEqualTo(200);
    }

    @Test
    void aClientThatNeverReads_neverHoldsUpAWrite_norANewStream() throws Exception {
        // one point per node: each write costs its HTTP, its commit and its event, not a large rebuild
        assertThat(adminJson("{\"vnodesPerWeight\":1}").put("/settings").statusCode()).isEqualTo(200);
        TimedWrites.run(uri(""), TOKEN, 100, "w-q"); // warming up
        List<Long> without = TimedWrites.run(uri(""), TOKEN, 300, "w-q"); // the same writes, with no stream open
        List<Long> with;
        try (Socket idle = new Socket()) {
            idle.setReceiveBufferSize(4096);
            idle.connect(new InetSocketAddress("localhost", port), 5000);
            idle.getOutputStream().write(("GET /ring/events HTTP/1.1\r\nHost: localhost\r\n"
                    + "Accept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            idle.getOutputStream().flush();
            // ~20 KB a change event: a few hundred fill the socket's buffers, then 1,000 queued (the
            // default ringd.watch.max-queued) close the stream as too slow, and every write goes on
            with = TimedWrites.run(uri(""), TOKEN, 1_500, "w-i");
            EventStream fresh = events("");
            assertThat(fresh.status).isEqualTo(200);
            EventStream.Event snapshot = fresh.nextEvent(WAIT);
            assertThat(snapshot).as("a new stream's snapshot while the idle client is connected").isNotNull();
            assertThat(snapshot.name()).isEqualTo("snapshot");
            assertThat(snapshot.id()).isEqualTo(Long.toString(version()));
        }
        System.out.println("writes with a client that never reads (file store): "
                + TimedWrites.figures(without, with));
    }

    // ------------------------------------------------------------ a client of the contract

    static HashRing fromSnapshot(JsonNode ring) {
        return libraryRing(ring.get("settings"), ring.get("nodes"), ring.get("version").asLong());
    }

    /** {@code ring} with one change event applied, as a client following the ring would. */
    static HashRing applyChange(HashRing ring, JsonNode change) {
        List<Change> changes = new ArrayList<>();
        for (JsonNode c : change.get("changes")) {
            String id = c.get("id").asString();
            if (c.get("op").asString().equals("put")) {
                JsonNode zone = c.get("zone");
                changes.add(Change.put(new Node(id, c.get("weight").asDouble(), zone.isNull() ? null : zone.asString())));
            } else {
                changes.add(Change.remove(id));
            }
        }
        HashRing next = changes.isEmpty() ? ring : ring.apply(changes);
        JsonNode settings = change.get("settings");
        if (settings != null) {
            next = next.withConfig(RingConfig.of(settings.get("hash").asString(), settings.get("vnodesPerWeight").asInt(),
                    settings.get("algorithm").asString(), settings.get("maglevTableSize").asInt()));
        }
        assertThat(next.version()).as("a change event makes exactly one version").isEqualTo(ring.version() + 1);
        return next;
    }
}
