package io.ringd.client;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.KeyHashes;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import io.ringd.wire.ChangeEventJson;
import io.ringd.wire.PlanMarkJson;
import io.ringd.wire.RingJson;
import io.ringd.wire.SettingsJson;
import io.ringd.wire.WireJson;
import io.ringd.wire.WireTime;
import tools.jackson.databind.json.JsonMapper;

/**
 * A stand-in ringd on loopback that serves {@code GET /ring} and
 * {@code GET /ring/events} as docs/ring.md sections 17 and 20 say, building its
 * rings with the library, with knobs to misbehave: skip or tamper with an
 * event, send raw text, refuse or drop streams, go silent. It takes follower
 * reports ({@code PUT /followers/{id}}, docs/ring.md section 23) and keeps
 * them, answering 204 or what a test sets; with {@link #serveRing} it serves
 * all of that under {@code /rings/<name>} too.
 */
final class StubRingServer implements AutoCloseable {

    /** One version of the stub's history, and the data of its change event (null for the first). */
    record Version(HashRing ring, SettingsJson settings, Instant committedAt, String changeEvent) {
        long version() {
            return ring.version();
        }
    }

    /** The settings of a new stub: the library's defaults. */
    static final SettingsJson DEFAULT_SETTINGS = new SettingsJson(KeyHashes.DEFAULT,
            RingConfig.DEFAULT_VNODES_PER_WEIGHT, RingConfig.DEFAULT_ALGORITHM, RingConfig.DEFAULT_MAGLEV_TABLE_SIZE);

    private static final JsonMapper JSON = WireJson.lenient();
    private static final String DROP = "\u0000drop";

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "stub-ringd");
        t.setDaemon(true);
        return t;
    });
    private final List<Version> history = new ArrayList<>();
    private final Set<BlockingQueue<String>> streams = ConcurrentHashMap.newKeySet();

    /** What clients sent: Last-Event-ID of each stream request, If-None-Match of each GET /ring ("" if none). */
    final List<String> lastEventIds = new CopyOnWriteArrayList<>();
    final List<String> ifNoneMatches = new CopyOnWriteArrayList<>();
    /** X-Ring-Incarnation of each stream request ("" if none). */
    final List<String> incarnationHeaders = new CopyOnWriteArrayList<>();
    final AtomicInteger ringRequests = new AtomicInteger();
    final AtomicInteger eventRequests = new AtomicInteger();
    /** Streams that were answered 200 and joined the live set (what a broadcast from now on reaches). */
    final AtomicInteger streamsOpened = new AtomicInteger();

    private volatile Duration keepAlive = Duration.ofMillis(200);
    private volatile boolean refuseStreams;
    /** X-Ring-Name sent on GET /ring and stream answers; null for none (a server without named rings). */
    private volatile String ringName;
    /** The incarnation sent with every answer and event from now on (null: none, as an older server). */
    private volatile String incarnation;
    private volatile UnaryOperator<String> ringBody = UnaryOperator.identity();
    private UnaryOperator<String> nextEvent; // guarded by this
    private boolean skipNextEvent; // guarded by this

    /** A follower report as the stub got it: the whole raw path, what it decodes to, and when (System.nanoTime). */
    record Report(String method, String rawPath, String path, String contentType, String body, long atNanos) {
    }

    /** Every follower report, in the order they came. */
    final List<Report> reports = new CopyOnWriteArrayList<>();
    private volatile int reportStatus = 204;
    private volatile String reportRetryAfter;
    private volatile String reportProblem = "";
    /** While set, a report is answered only once it is counted down (the report is kept at once). */
    private volatile CountDownLatch reportGate;
    /** The ring also served under /rings/<name>/; null: none. */
    private volatile String servedRing;

    private StubRingServer(int port, Version first) throws IOException {
        history.add(first);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.setExecutor(executor);
        server.createContext("/ring", this::handle);
        server.createContext("/rings/", this::handle);
        server.createContext("/followers", this::handle);
        server.start();
    }

    /** A stub at version 0 (empty, default settings) on a free loopback port. */
    static StubRingServer start() throws IOException {
        return start(0);
    }

    /** A stub at version 0 on {@code port} (0: any free one). */
    static StubRingServer start(int port) throws IOException {
        HashRing empty = HashRing.empty(DEFAULT_SETTINGS.toConfig());
        return new StubRingServer(port, new Version(empty, DEFAULT_SETTINGS, now(), null));
    }

    /** A free loopback port, to start a stub on later. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    int port() {
        return server.getAddress().getPort();
    }

    // ------------------------------------------------------------ history

    synchronized Version current() {
        return history.get(history.size() - 1);
    }

    synchronized Version at(long version) {
        for (Version v : history) {
            if (v.version() == version) {
                return v;
            }
        }
        throw new IllegalArgumentException("no version " + version);
    }

    synchronized List<Version> history() {
        return List.copyOf(history);
    }

    /** Commits one version: these changes and (if not null) these settings; sends its change event. */
    synchronized Version commit(List<Change> changes, SettingsJson settings) {
        return commit(changes, settings, null);
    }

    /** As {@link #commit(List, SettingsJson)}, the version marked as the step {@code plan} of a planned change. */
    synchronized Version commit(List<Change> changes, SettingsJson settings, PlanMarkJson plan) {
        Version cur = current();
        HashRing next = changes.isEmpty() ? cur.ring() : cur.ring().apply(changes);
        SettingsJson s = settings == null ? cur.settings() : settings;
        // The server's way: members from the batch, then a build at version + 1 with the settings.
        next = HashRing.of(s.toConfig(), cur.version() + 1, next.nodes());
        Instant at = now();
        ChangeEventJson data = ChangeEventJson.of(next.version(), incarnation, WireTime.format(at), next.fingerprint(),
                changes, settings, plan);
        Version v = new Version(next, s, at, JSON.writeValueAsString(data));
        history.add(v);
        if (skipNextEvent) {
            skipNextEvent = false;
        } else {
            String event = v.changeEvent();
            if (nextEvent != null) {
                event = nextEvent.apply(event);
                nextEvent = null;
            }
            broadcast(changeText(v.version(), event));
        }
        return v;
    }

    Version put(String id, double weight, String zone) {
        return commit(List.of(Change.put(new Node(id, weight, zone))), null);
    }

    Version remove(String id) {
        return commit(List.of(Change.remove(id)), null);
    }

    /** Commits nodes {@code prefix0 .. prefix(n-1)}, weights 1 to 3, zones z0 to z2, in one version. */
    Version putMany(String prefix, int n) {
        List<Change> changes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            changes.add(Change.put(new Node(prefix + i, 1 + i % 3, "z" + i % 3)));
        }
        return commit(changes, null);
    }

    /** The incarnation of the stub's ring from now on: what a server says of a ring made anew. */
    void incarnation(String incarnation) {
        this.incarnation = incarnation;
    }

    // ------------------------------------------------------------ misbehaving

    /** The next committed version reaches no stream (a gap for the clients). */
    synchronized void skipNextEvent() {
        skipNextEvent = true;
    }

    /** The next committed version's event data is rewritten by {@code tamper}. */
    synchronized void tamperNextEvent(UnaryOperator<String> tamper) {
        nextEvent = tamper;
    }

    /** Rewrites every GET /ring body from now on. */
    void tamperRing(UnaryOperator<String> tamper) {
        ringBody = tamper;
    }

    /** Sends {@code text} as it is to every open stream. */
    void sendRaw(String text) {
        broadcast(text);
    }

    /** Ends every open stream. */
    void dropStreams() {
        broadcast(DROP);
    }

    /** The X-Ring-Name of GET /ring and stream answers from now on; null for none. */
    void ringName(String name) {
        this.ringName = name;
    }

    /** Answers GET /ring/events with 503 while set. */
    void refuseStreams(boolean refuse) {
        this.refuseStreams = refuse;
    }

    /** The keep-alive period; null for none (a silent server). */
    void keepAlive(Duration period) {
        this.keepAlive = period;
    }

    /** Answers follower reports with {@code status} from now on, with {@code Retry-After} if not null. */
    void answerReports(int status, String retryAfter, String problemJson) {
        this.reportRetryAfter = retryAfter;
        this.reportProblem = problemJson == null ? "" : problemJson;
        this.reportStatus = status;
    }

    /** Holds the answer to every follower report from now on, until {@link #releaseReports()}. */
    void holdReports() {
        reportGate = new CountDownLatch(1);
    }

    void releaseReports() {
        CountDownLatch gate = reportGate;
        reportGate = null;
        if (gate != null) {
            gate.countDown();
        }
    }

    /** Serves its ring under /rings/{@code name}/ as well (docs/ring.md section 22). */
    void serveRing(String name) {
        this.servedRing = name;
    }

    int openStreams() {
        return streams.size();
    }

    @Override
    public void close() {
        dropStreams();
        server.stop(0);
        executor.shutdownNow();
    }

    // ------------------------------------------------------------ HTTP

    private void handle(HttpExchange ex) throws IOException {
        try {
            String path = ex.getRequestURI().getPath();
            String raw = ex.getRequestURI().getRawPath();
            String named = servedRing == null ? null : "/rings/" + servedRing;
            if (named != null && raw.startsWith(named + "/")) {
                path = path.substring(named.length());
                raw = raw.substring(named.length());
            } else if (path.startsWith("/rings/")) {
                path = "/unknown";
            }
            if (raw.startsWith("/followers/")) {
                report(ex);
            } else if (!ex.getRequestMethod().equals("GET")) {
                send(ex, 405, "text/plain", "");
            } else if (path.equals("/ring")) {
                ring(ex);
            } else if (path.equals("/ring/events")) {
                events(ex);
            } else {
                send(ex, 404, "text/plain", "");
            }
        } finally {
            ex.close();
        }
    }

    private void report(HttpExchange ex) throws IOException {
        String raw = ex.getRequestURI().getRawPath();
        String path = ex.getRequestURI().getPath();
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String type = ex.getRequestHeaders().getFirst("Content-Type");
        reports.add(new Report(ex.getRequestMethod(), raw, path, type, body, System.nanoTime()));
        CountDownLatch gate = reportGate;
        if (gate != null) {
            try {
                gate.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        int status = reportStatus;
        String retryAfter = reportRetryAfter;
        if (retryAfter != null) {
            ex.getResponseHeaders().set("Retry-After", retryAfter);
        }
        if (status == 204) {
            ex.sendResponseHeaders(204, -1);
        } else {
            send(ex, status, "application/problem+json", reportProblem);
        }
    }

    private void ring(HttpExchange ex) throws IOException {
        ringRequests.incrementAndGet();
        String inm = ex.getRequestHeaders().getFirst("If-None-Match");
        ifNoneMatches.add(inm == null ? "" : inm);
        Version v = current();
        String etag = "\"" + v.version() + "-" + v.ring().fingerprint().substring(0, 16) + "\"";
        ex.getResponseHeaders().set("ETag", etag);
        named(ex);
        if (inm != null && inm.equals(etag)) {
            ex.sendResponseHeaders(304, -1);
            return;
        }
        send(ex, 200, "application/json", ringBody.apply(snapshot(v)));
    }

    private void events(HttpExchange ex) throws IOException {
        eventRequests.incrementAndGet();
        String last = ex.getRequestHeaders().getFirst("Last-Event-ID");
        lastEventIds.add(last == null ? "" : last);
        String held = ex.getRequestHeaders().getFirst("X-Ring-Incarnation");
        incarnationHeaders.add(held == null ? "" : held);
        if (refuseStreams) {
            send(ex, 503, "application/problem+json", "{\"status\":503}");
            return;
        }
        BlockingQueue<String> queue = new LinkedBlockingQueue<>();
        synchronized (this) { // the backlog and joining the live set are one step: nothing missed, nothing twice
            Version cur = current();
            long after = parse(last);
            long base = history.get(0).version();
            String mine = incarnation;
            if (after >= base && after <= cur.version() && (held == null || mine == null || held.equals(mine))) {
                for (Version v : history) {
                    if (v.version() > after) {
                        queue.add(changeText(v.version(), v.changeEvent()));
                    }
                }
            } else {
                queue.add("event: snapshot\nid: " + cur.version() + "\ndata: " + snapshot(cur) + "\n\n");
            }
            streams.add(queue);
            streamsOpened.incrementAndGet();
        }
        try {
            ex.getResponseHeaders().set("Content-Type", "text/event-stream");
            ex.getResponseHeaders().set("Cache-Control", "no-cache");
            named(ex);
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            out.flush();
            while (true) {
                Duration period = keepAlive;
                String item = queue.poll(period == null ? 100 : period.toMillis(), TimeUnit.MILLISECONDS);
                if (item == null) {
                    if (period == null || keepAlive == null) {
                        continue;
                    }
                    item = ": keep-alive\n\n";
                }
                if (item.equals(DROP)) {
                    break;
                }
                out.write(item.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the client went away, or the stub is stopping
        } finally {
            streams.remove(queue);
        }
    }

    private void named(HttpExchange ex) {
        String name = ringName;
        if (name != null) {
            ex.getResponseHeaders().set("X-Ring-Name", name);
        }
    }

    private void broadcast(String text) {
        for (BlockingQueue<String> q : streams) {
            q.add(text);
        }
    }

    private static String changeText(long version, String data) {
        return "event: change\nid: " + version + "\ndata: " + data + "\n\n";
    }

    private String snapshot(Version v) {
        return JSON.writeValueAsString(RingJson.of(v.ring(), incarnation, v.settings(), v.committedAt()));
    }

    static String snapshotJson(Version v) {
        return JSON.writeValueAsString(RingJson.of(v.ring(), v.settings(), v.committedAt()));
    }

    private static long parse(String s) {
        try {
            return s == null ? -1 : Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
