package io.ringd.soak;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.ringd.Membership;
import io.ringd.RingdProcess;
import io.ringd.ring.HashRing;
import io.ringd.watch.EventStream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A bounded soak of the real jar on loopback: {@code target/ringd.jar}
 * (file store, a temp data folder, a free port) under a mix of {@code /route}
 * lookups, {@code POST /route} batches, {@code /preference}, change-stream
 * clients on {@code /ring/events} that reconnect with {@code Last-Event-ID},
 * and membership changes, for a given time. Every answer is checked against
 * the library's ring for the version it reports (the one writer knows each
 * version's membership); the heap after a full GC and the open files of the
 * server are sampled. Fails on any 5xx, any wrong answer, any error, or a heap
 * or file count that keeps growing. Run by bench/soak.sh, and briefly by SoakIT.
 */
public final class Soak {

    static final String TOKEN = "soak-admin-token-0123456789abcdef";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The last line of a class histogram: instances and bytes of every live object. */
    private static final Pattern HEAP_TOTAL = Pattern.compile("Total\\s+\\d+\\s+(\\d+)");

    /** What a soak found. */
    public record Result(boolean ok, List<String> report) {
    }

    private final int seconds;
    private final int readers;
    private final int streams;
    private final List<String> jvmOptions;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Map<Long, Membership> versions = new ConcurrentHashMap<>();
    private final Map<Long, HashRing> rings = new ConcurrentHashMap<>();
    private final AtomicLong latest = new AtomicLong();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final LongAdder routes = new LongAdder();
    private final LongAdder batches = new LongAdder();
    private final LongAdder preferences = new LongAdder();
    private final LongAdder events = new LongAdder();
    private final LongAdder reconnects = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final LongAdder serverErrors = new LongAdder();
    private final LongAdder wrong = new LongAdder();
    private volatile boolean running = true;
    private int port;

    /**
     * @param seconds    how long the load runs
     * @param readers    threads of lookups
     * @param streams    change-stream clients
     * @param jvmOptions the server JVM's options
     */
    public Soak(int seconds, int readers, int streams, List<String> jvmOptions) {
        this.seconds = seconds;
        this.readers = readers;
        this.streams = streams;
        this.jvmOptions = List.copyOf(jvmOptions);
    }

    public static void main(String[] args) throws Exception {
        int seconds = 60;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--seconds") && i + 1 < args.length) {
                seconds = Integer.parseInt(args[++i]);
            } else {
                System.err.println("usage: Soak [--seconds N]");
                System.exit(2);
            }
        }
        if (seconds < 5 || seconds > 3600) {
            System.err.println("--seconds must be between 5 and 3600: " + seconds);
            System.exit(2);
        }
        Result r = new Soak(seconds, 6, 4, List.of("-Xmx512m")).run();
        r.report().forEach(System.out::println);
        System.exit(r.ok() ? 0 : 1);
    }

    /** Runs the soak: starts the jar, drives the load for the given time, stops it; the findings. */
    public Result run() throws Exception {
        Path dataDir = Files.createTempDirectory("ringd-soak");
        List<String> report = new ArrayList<>();
        List<long[]> samples = new ArrayList<>(); // seconds, heap KiB after GC, open files, threads
        RingdProcess ringd = RingdProcess.start(dataDir, TOKEN, jvmOptions,
                List.of("--logging.level.root=WARN", "--logging.level.org.springframework.boot.jetty=INFO",
                        "--ringd.watch.keep-alive=1s"));
        List<Thread> threads = new ArrayList<>();
        try {
            port = ringd.awaitStarted(120);
            seed();
            threads.add(thread("soak-writer", this::writer));
            for (int i = 0; i < readers; i++) {
                long seed = 1000 + i;
                threads.add(thread("soak-reader-" + i, () -> reader(new Random(seed))));
            }
            for (int i = 0; i < streams; i++) {
                long seed = 2000 + i;
                threads.add(thread("soak-stream-" + i, () -> follower(new Random(seed))));
            }
            long begin = System.nanoTime();
            long end = begin + TimeUnit.SECONDS.toNanos(seconds);
            long every = Math.max(1, seconds / 12);
            while (System.nanoTime() < end && failures.size() < 20 && ringd.isAlive()) {
                samples.add(sample(ringd.pid(), (System.nanoTime() - begin) / 1_000_000_000L));
                Thread.sleep(Math.min(TimeUnit.SECONDS.toMillis(every),
                        Math.max(0, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()))));
            }
            running = false;
            for (Thread t : threads) {
                t.join(30_000);
                if (t.isAlive()) {
                    failures.add(t.getName() + " did not stop");
                }
            }
            samples.add(sample(ringd.pid(), (System.nanoTime() - begin) / 1_000_000_000L));
        } finally {
            running = false;
            ringd.close();
            deleteAll(dataDir);
        }
        return result(report, samples);
    }

    private Result result(List<String> report, List<long[]> samples) {
        long requests = routes.sum() + batches.sum() + preferences.sum() + writes.sum();
        report.add(String.format("soak: %d s, %d readers, %d stream clients, one writer", seconds, readers, streams));
        report.add(String.format("requests: %d (%.0f/s): /route %d, POST /route %d (50 keys each), /preference %d, "
                + "membership writes %d", requests, requests / (double) seconds, routes.sum(), batches.sum(),
                preferences.sum(), writes.sum()));
        report.add(String.format("change stream: %d events received, %d reconnects with Last-Event-ID", events.sum(),
                reconnects.sum()));
        report.add("5xx answers: " + serverErrors.sum() + "; wrong answers: " + wrong.sum() + "; other failures: "
                + failures.size());
        failures.stream().limit(10).forEach(f -> report.add("  failure: " + f));
        report.add("samples (s, live heap after a full GC in KiB, open files, threads):");
        samples.forEach(s -> report.add(String.format("  %4d %8d %5d %5d", s[0], s[1], s[2], s[3])));
        boolean heapStable = stable(samples, 1, true, 1.25, 8 * 1024);
        boolean filesStable = stable(samples, 2, false, 1.0, 10);
        List<long[]> s = underLoad(samples);
        int half = s.size() / 2;
        report.add(String.format("live heap: lowest %d KiB in the earlier half, %d KiB in the later half: %s",
                extreme(s.subList(0, half), 1, true), extreme(s.subList(half, s.size()), 1, true),
                heapStable ? "stable" : "GROWING") + (samples.isEmpty() ? ""
                        : "; after the load " + samples.get(samples.size() - 1)[1] + " KiB"));
        report.add(String.format("open files: at most %d in the earlier half, %d in the later half: %s",
                extreme(s.subList(0, half), 2, false), extreme(s.subList(half, s.size()), 2, false),
                filesStable ? "stable" : "GROWING"));
        boolean ok = serverErrors.sum() == 0 && wrong.sum() == 0 && failures.isEmpty() && heapStable && filesStable
                && writes.sum() > 0 && events.sum() > 0 && routes.sum() > 0 && samples.size() >= 4;
        report.add(ok ? "soak: OK" : "soak: FAILED");
        return new Result(ok, report);
    }

    /**
     * Stable: of the samples taken under load (the first, before the load,
     * and the last, after it, left out), the later half is within
     * {@code factor} and {@code slack} of the earlier half, compared by their
     * lowest values ({@code floor}: the live heap, which a leak raises while
     * requests in flight make single samples vary) or their highest (open
     * files, exact counts).
     */
    static boolean stable(List<long[]> samples, int column, boolean floor, double factor, long slack) {
        List<long[]> s = underLoad(samples);
        if (s.size() < 2) {
            return true;
        }
        int half = s.size() / 2;
        long early = extreme(s.subList(0, half), column, floor);
        long late = extreme(s.subList(half, s.size()), column, floor);
        return late <= early * factor + slack;
    }

    static List<long[]> underLoad(List<long[]> samples) {
        return samples.size() < 3 ? samples : samples.subList(1, samples.size() - 1);
    }

    private static long extreme(List<long[]> samples, int column, boolean floor) {
        return floor ? samples.stream().mapToLong(x -> x[column]).min().orElse(0)
                : samples.stream().mapToLong(x -> x[column]).max().orElse(0);
    }

    /**
     * Seconds since the start, the live heap (KiB), open files and threads of
     * the server. The live heap is the total of a class histogram, which
     * {@code jcmd} takes right after a full GC in one step: under load, a
     * {@code GC.heap_info} taken after a separate {@code GC.run} would count
     * the garbage made in between.
     */
    private long[] sample(long pid, long at) throws Exception {
        String histogram = jcmd(pid, "GC.class_histogram");
        Matcher m = HEAP_TOTAL.matcher(histogram);
        long heap = m.find() ? Long.parseLong(m.group(1)) / 1024 : -1;
        if (heap < 0) {
            failures.add("no total in jcmd GC.class_histogram: "
                    + histogram.substring(Math.max(0, histogram.length() - 300)));
        }
        return new long[] {at, heap, count(Path.of("/proc", Long.toString(pid), "fd")),
                count(Path.of("/proc", Long.toString(pid), "task"))};
    }

    private static long count(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    private static String jcmd(long pid, String command) throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("jcmd " + command + " failed: " + out);
        }
        return out;
    }

    // ------------------------------------------------------------ load

    /** Eight nodes in three zones before the load starts: every lookup has an answer from the first. */
    private void seed() {
        ObjectNode batch = JSON.createObjectNode();
        ArrayNode changes = batch.putArray("changes");
        for (int i = 0; i < 8; i++) {
            changes.addObject().put("op", "put").put("id", "cache-" + i).put("weight", 1 + i % 3)
                    .put("zone", "zone-" + i % 3);
        }
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/membership")).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(batch.toString())), "seed");
        if (r == null || !ok(r, "seed")) {
            throw new IllegalStateException("cannot add the first nodes: " + failures);
        }
        Membership start = Membership.of(getJson("/ring"));
        versions.put(start.version(), start);
        latest.set(start.version());
    }

    /** One writer: a membership change every 50 ms, with If-Match; it records each version's membership. */
    private void writer() {
        Random rnd = new Random(7);
        Membership cur = versions.get(latest.get());
        while (running) {
            Membership.Write w = cur.randomWrite(rnd, 60);
            HttpRequest.Builder b = HttpRequest.newBuilder(uri(w.path())).timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Bearer " + TOKEN).header("If-Match", "\"" + cur.version() + "\"");
            b = w.body() == null ? b.method(w.method(), HttpRequest.BodyPublishers.noBody())
                    : b.header("Content-Type", "application/json")
                            .method(w.method(), HttpRequest.BodyPublishers.ofString(w.body()));
            HttpResponse<String> r = send(b, "write " + w);
            if (r == null) {
                return;
            }
            if (r.statusCode() != 200 && r.statusCode() != 201) {
                failures.add(w + " at v" + cur.version() + " -> " + r.statusCode() + " " + r.body());
                return;
            }
            long v = JSON.readTree(r.body()).get("version").asLong();
            if (v != cur.version() + 1) {
                wrong.increment();
                failures.add(w + " at v" + cur.version() + " made version " + v);
                return;
            }
            cur = w.result();
            versions.put(v, cur);
            latest.set(v);
            writes.increment();
            rings.keySet().removeIf(k -> k < latest.get() - 300);
            pause(50);
        }
    }

    private void reader(Random rnd) {
        while (running) {
            String key = "user:" + rnd.nextInt(1_000_000);
            switch (rnd.nextInt(3)) {
                case 0 -> {
                    boolean inPath = rnd.nextBoolean();
                    String path = inPath ? "/route/" + URLEncoder.encode(key, StandardCharsets.UTF_8)
                            .replace("+", "%20") : "/route?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8);
                    JsonNode j = get(path);
                    if (j != null) {
                        routes.increment();
                        check(j, "/route " + key, ring -> List.of(ring.route(key)), List.of(j.get("node").asString()));
                    }
                }
                case 1 -> {
                    boolean zones = rnd.nextBoolean();
                    int n = 1 + rnd.nextInt(4);
                    JsonNode j = get("/preference?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8) + "&n=" + n
                            + "&distinctZones=" + zones);
                    if (j != null) {
                        preferences.increment();
                        List<String> nodes = new ArrayList<>();
                        j.get("nodes").forEach(x -> nodes.add(x.asString()));
                        check(j, "/preference " + key, ring -> ring.preference(key, n, zones), nodes);
                    }
                }
                default -> {
                    ObjectNode body = JSON.createObjectNode();
                    ArrayNode keys = body.putArray("keys");
                    List<String> asked = new ArrayList<>();
                    for (int i = 0; i < 50; i++) {
                        asked.add("batch:" + rnd.nextInt(1_000_000));
                        keys.add(asked.get(i));
                    }
                    HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/route")).timeout(Duration.ofSeconds(30))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body.toString())), "POST /route");
                    if (r == null || !ok(r, "POST /route")) {
                        continue;
                    }
                    batches.increment();
                    JsonNode j = JSON.readTree(r.body());
                    List<String> nodes = new ArrayList<>();
                    j.get("routes").forEach(x -> nodes.add(x.get("node").asString()));
                    check(j, "POST /route", ring -> asked.stream().map(ring::route).toList(), nodes);
                }
            }
        }
    }

    /** A change-stream client: reads for a while, drops the stream, resumes with Last-Event-ID. */
    private void follower(Random rnd) {
        String lastId = null;
        while (running) {
            List<String> headers = lastId == null ? List.of() : List.of("Last-Event-ID", lastId);
            try (EventStream s = EventStream.open(uri("/ring/events"), headers.toArray(String[]::new))) {
                if (s.status != 200) {
                    if (s.status >= 500) {
                        serverErrors.increment();
                    }
                    failures.add("/ring/events -> " + s.status);
                    return;
                }
                long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500 + rnd.nextInt(3000));
                while (running && System.nanoTime() < until) {
                    EventStream.Event e = s.nextEvent(Duration.ofMillis(200));
                    if (e == null) {
                        continue;
                    }
                    JsonNode data = JSON.readTree(e.data());
                    long v = data.get("version").asLong();
                    if (e.name().equals("change") && lastId != null && v != Long.parseLong(lastId) + 1) {
                        wrong.increment();
                        failures.add("change event " + v + " after " + lastId);
                    } else if (!e.name().equals("change") && !e.name().equals("snapshot")) {
                        wrong.increment();
                        failures.add("unexpected event " + e);
                    }
                    if (!Long.toString(v).equals(e.id())) {
                        wrong.increment();
                        failures.add("event id " + e.id() + " for version " + v);
                    }
                    HashRing ring = ringAt(v);
                    if (ring != null && !ring.fingerprint().equals(data.get("fingerprint").asString())) {
                        wrong.increment();
                        failures.add(e.name() + " event of version " + v + " has fingerprint "
                                + data.get("fingerprint").asString() + ", the library " + ring.fingerprint());
                    }
                    lastId = Long.toString(v);
                    events.increment();
                }
            } catch (Exception e) {
                if (running) {
                    failures.add("/ring/events: " + e);
                }
                return;
            }
            reconnects.increment();
        }
    }

    private interface Answer {
        List<String> of(HashRing ring);
    }

    private void check(JsonNode j, String what, Answer expected, List<String> actual) {
        long v = j.get("version").asLong();
        HashRing ring = ringAt(v);
        if (ring == null) {
            wrong.increment();
            failures.add(what + " reports version " + v + ", which no write made");
        } else if (!expected.of(ring).equals(actual)) {
            wrong.increment();
            failures.add(what + " at v" + v + ": " + actual + ", the library " + expected.of(ring));
        }
    }

    /** The library's ring at {@code version}, once the writer knows it (an answer may come before its ack). */
    private HashRing ringAt(long version) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!versions.containsKey(version) && System.nanoTime() < until) {
            pause(1);
        }
        Membership m = versions.get(version);
        return m == null ? null : rings.computeIfAbsent(version, v -> m.ring());
    }

    // ------------------------------------------------------------ HTTP

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private JsonNode get(String path) {
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).GET(), path);
        return r != null && ok(r, path) ? JSON.readTree(r.body()) : null;
    }

    private JsonNode getJson(String path) {
        JsonNode j = get(path);
        if (j == null) {
            throw new IllegalStateException("GET " + path + " failed: " + failures);
        }
        return j;
    }

    private boolean ok(HttpResponse<String> r, String what) {
        if (r.statusCode() == 200) {
            return true;
        }
        if (r.statusCode() >= 500) {
            serverErrors.increment();
        }
        failures.add(what + " -> " + r.statusCode() + " " + r.body());
        return false;
    }

    private HttpResponse<String> send(HttpRequest.Builder b, String what) {
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            failures.add(what + ": " + e);
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private Thread thread(String name, Runnable body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (RuntimeException e) {
                failures.add(name + ": " + e);
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void deleteAll(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            List<Path> all = new ArrayList<>(s.toList());
            Collections.reverse(all);
            for (Path p : all) {
                Files.deleteIfExists(p);
            }
        }
    }
}
