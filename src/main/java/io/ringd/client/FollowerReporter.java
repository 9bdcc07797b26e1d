package io.ringd.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodySubscriber;
import java.net.http.HttpResponse.BodySubscribers;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;

import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.wire.WireJson;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reports the version a {@link RingClient} holds to its server as a
 * follower (docs/ring.md section 23): {@code PUT /followers/{id}} after each
 * newly verified ring and at least every report interval, with the p99 of
 * the latencies recorded to each node.
 */
final class FollowerReporter {

    /*
     * Design note.
     *
     * One thread decides and sends: `timer`, a single daemon thread. It
     * runs attempt(), which sends a report when none is in flight, no
     * Retry-After is pending, a ring is held, and either the ring held is
     * not the one last reported (version or fingerprint) or a report is
     * due (the interval passed since the last one started). What is sent is
     * always the ring held at that moment, so versions verified while a
     * report is in flight are skipped but the latest. The follower thread
     * (a ring verified) and the heartbeat only set state under the monitor
     * and hand attempt() to the timer: neither waits for the network or
     * builds a body. The timer sends with HttpClient.send and handles the
     * answer itself, waiting for it (at most the request timeout; close()
     * interrupts it): tasks handed to it meanwhile run after, and would
     * have found the report in flight anyway. Not sendAsync: its answer
     * goes through CompletableFuture's default executor, which starts a new
     * thread for each task where the common pool has fewer than two threads
     * (two cores or fewer), so every report not answered at once cost a
     * thread's start and end (docs/benchmarks.md, "Following the ring from
     * Java").
     *
     * Cadence. Each report started schedules the next heartbeat one
     * interval later. A failure (no answer, or any status but 2xx) is
     * retried at that heartbeat, not sooner, unless a newer ring is verified
     * first. A 503 with Retry-After (seconds) replaces the heartbeat with a
     * wake-up when it passes: nothing is sent before, not even a new version;
     * at the wake-up the ring held then is reported.
     *
     * Latencies. `windows` maps each node of the ring held to its
     * LatencyWindow; the follower thread replaces the map (keeping the
     * windows of the nodes that stay) with each ring, and empties it when the
     * ring is gone, so a name that is not a member costs a failed map lookup
     * and nothing else: memory is bounded by the ring's size. A report names
     * at most 1,000 nodes (the server's limit): past that, those with the
     * most samples in their window, the nodes this follower uses most.
     */

    /** A follower id (docs/ring.md section 23): 1 to 200 of A-Z a-z 0-9 . _ : @ / -. */
    static final Pattern ID = Pattern.compile("[A-Za-z0-9._:@/-]{1,200}");
    static final int MAX_ID_LENGTH = 200;
    /** The longest interval between two reports the contract allows (docs/ring.md section 23). */
    static final Duration MAX_INTERVAL = Duration.ofSeconds(20);
    /** The most of a 400 answer read, for its detail. */
    static final int MAX_PROBLEM_BYTES = 64 << 10;
    /** The most nodes one report may name (docs/ring.md section 23): past it, those with the most samples. */
    static final int MAX_REPORT_NODES = 1_000;
    /** The longest Retry-After honoured, in seconds; a longer one is cut to it. */
    static final long MAX_RETRY_AFTER_SECONDS = TimeUnit.HOURS.toSeconds(1);

    private static final System.Logger LOG = System.getLogger(RingClient.class.getName());

    private final RingClient client;
    private final HttpClient http;
    private final URI uri;
    private final Duration requestTimeout;
    private final long intervalNanos;
    private final ScheduledThreadPoolExecutor timer;
    /** The windows of the members of the ring held; replaced by the follower thread only. */
    private volatile Map<String, LatencyWindow> windows = Map.of();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    // guarded by this
    private boolean closed;
    private boolean inFlight;
    /** The interval passed since the last report started: one is owed even for the ring last reported. */
    private boolean due;
    /** Nothing is sent before this (System.nanoTime), when blocked. */
    private long blockedUntilNanos;
    private boolean blocked;
    private long lastVersion = -1;
    private String lastFingerprint;
    private ScheduledFuture<?> next;
    private boolean warnedBadRequest;

    FollowerReporter(RingClient client, HttpClient http, URI uri, Duration requestTimeout, Duration interval) {
        this.client = client;
        this.http = http;
        this.uri = uri;
        this.requestTimeout = requestTimeout;
        this.intervalNanos = interval.toNanos();
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "ringd-client-reports " + client.baseUrl() + " ring " + client.ringName());
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    // ---------------------------------------------------------------- from the client

    /**
     * {@code ring} is about to be held (follower thread): from now on,
     * latency is kept for its members alone. Called before the ring is
     * published, so that a caller who sees it held records into its windows.
     */
    void members(HashRing ring) {
        Map<String, LatencyWindow> old = windows;
        if (!sameMembers(old, ring)) {
            windows = windowsOf(ring, old);
        }
    }

    /** A newly verified ring is held now (follower thread): report it. */
    void verified() {
        kick();
    }

    private static boolean sameMembers(Map<String, LatencyWindow> windows, HashRing ring) {
        if (windows.size() != ring.nodes().size()) {
            return false;
        }
        for (Node n : ring.nodes()) {
            if (!windows.containsKey(n.id())) {
                return false;
            }
        }
        return true;
    }

    /** A window for each member of {@code ring}: the one in {@code old}, or a new one. */
    private static Map<String, LatencyWindow> windowsOf(HashRing ring, Map<String, LatencyWindow> old) {
        Map<String, LatencyWindow> now = new HashMap<>(ring.nodes().size() * 2);
        for (Node n : ring.nodes()) {
            LatencyWindow w = old.get(n.id());
            now.put(n.id(), w != null ? w : new LatencyWindow());
        }
        return now;
    }

    /** The ring is gone (follower thread): nothing is held, nothing is reported, no latency kept. */
    void gone() {
        windows = Map.of();
        synchronized (this) {
            mismatch = null;
        }
    }

    /** A version built here whose fingerprint is not the server's, reported until a newer ring verifies. */
    private record Mismatch(long version, String built) {
    }

    /** Guarded by this. */
    private Mismatch mismatch;

    /**
     * The ring built at {@code version} did not verify (follower thread): report it as built, so
     * the server shows this client diverged, until a ring of that version or newer verifies.
     */
    void mismatched(long version, String built) {
        synchronized (this) {
            mismatch = new Mismatch(version, built);
        }
        kick();
    }

    void record(String node, long nanos) {
        LatencyWindow w = windows.get(node);
        if (w != null) {
            w.record(nanos, System.nanoTime());
        }
    }

    /** How many nodes have a window: the members of the ring held. */
    int trackedNodes() {
        return windows.size();
    }

    long sent() {
        return sent.get();
    }

    long failed() {
        return failed.get();
    }

    void close() {
        synchronized (this) {
            closed = true;
            if (next != null) {
                next.cancel(false);
            }
        }
        timer.shutdownNow(); // interrupts a report in flight: HttpClient.send cancels it
    }

    // ---------------------------------------------------------------- the timer thread

    private void kick() {
        try {
            timer.execute(this::attempt);
        } catch (RejectedExecutionException e) {
            // closed
        }
    }

    /** Sends a report if one is called for and allowed now (timer thread only). */
    private void attempt() {
        long version;
        String fingerprint;
        synchronized (this) {
            if (closed || inFlight || blocked && System.nanoTime() - blockedUntilNanos < 0) {
                return; // the answer, or the end of the Retry-After, calls again
            }
            blocked = false;
            RingClient.Held held = client.held();
            Mismatch m = mismatch;
            if (m != null && held != null && held.ring().version() >= m.version()) {
                mismatch = m = null; // a ring as new verified since
            }
            if (m != null) {
                version = m.version();
                fingerprint = m.built();
            } else if (held == null) {
                return; // no ring, or gone: the next verified ring calls again
            } else {
                version = held.ring().version();
                fingerprint = held.ring().fingerprint();
            }
            boolean newer = version != lastVersion || !fingerprint.equals(lastFingerprint);
            if (!newer && !due) {
                return;
            }
            inFlight = true;
            due = false;
            lastVersion = version;
            lastFingerprint = fingerprint;
            wakeUpIn(intervalNanos);
        }
        HttpResponse<String> answer = null;
        Throwable failure = null;
        try {
            HttpRequest put = HttpRequest.newBuilder(uri).version(HttpClient.Version.HTTP_1_1).timeout(requestTimeout)
                    .header("Content-Type", "application/json").header("Accept", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString(body(version, fingerprint, System.nanoTime()),
                            StandardCharsets.UTF_8))
                    .build();
            answer = http.send(put, FollowerReporter::bodyHandler);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // close(): the timer is shutting down
            failure = e;
        } catch (IOException | RuntimeException e) {
            failure = e;
        }
        answered(version, answer, failure);
    }

    /**
     * The next heartbeat, or the end of a Retry-After, in {@code nanos}
     * (replacing the one scheduled): a report is due then, even of the ring
     * last reported. Holds the monitor.
     */
    private void wakeUpIn(long nanos) {
        if (next != null) {
            next.cancel(false);
        }
        try {
            next = timer.schedule(() -> {
                synchronized (this) {
                    due = true;
                }
                attempt();
            }, nanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            next = null; // closed
        }
    }

    /** A report's answer, or its failure (timer thread). */
    private void answered(long version, HttpResponse<String> answer, Throwable failure) {
        synchronized (this) {
            inFlight = false;
            if (closed) {
                return;
            }
            if (failure != null) {
                failed.incrementAndGet();
                LOG.log(Level.DEBUG, "ringd client {0}: PUT {1} (version {2}) failed: {3}", client.baseUrl(), uri,
                        Long.toString(version), describe(failure));
            } else if (answer.statusCode() / 100 == 2) {
                sent.incrementAndGet();
            } else {
                failed.incrementAndGet();
                refused(version, answer);
            }
        }
        kick(); // a ring verified meanwhile, or a heartbeat that came while this was in flight
    }

    /** A report answered with a status other than 2xx; holds the monitor. */
    private void refused(long version, HttpResponse<String> answer) {
        int status = answer.statusCode();
        long retryAfter = status == 503 ? retryAfterSeconds(answer) : -1;
        if (retryAfter > 0) {
            blocked = true;
            blockedUntilNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(retryAfter);
            wakeUpIn(TimeUnit.SECONDS.toNanos(retryAfter));
            LOG.log(Level.DEBUG, "ringd client {0}: PUT {1} (version {2}) answered 503; reporting again in {3} s",
                    client.baseUrl(), uri, Long.toString(version), Long.toString(retryAfter));
        } else if (status == 400 && !warnedBadRequest) {
            warnedBadRequest = true;
            LOG.log(Level.WARNING, "ringd client {0}: the server refused the follower report PUT {1} (version {2}): "
                    + "400 {3}; it is sent again every report interval, and this is logged once",
                    client.baseUrl(), uri, Long.toString(version), detail(answer.body()));
        } else {
            LOG.log(Level.DEBUG, "ringd client {0}: PUT {1} (version {2}) answered {3} {4}", client.baseUrl(), uri,
                    Long.toString(version), Integer.toString(status), detail(answer.body()));
        }
    }

    // ---------------------------------------------------------------- the report

    /**
     * {@code {"version":V,"fingerprint":"<hex>"}}, and {@code "nodes":{"<id>":{"latencyMs":x}}}
     * for the nodes being measured (LatencyWindow.reported: at least 20 samples in the window, the
     * newest at most 5 s old; docs/ring.md section 23), at most MAX_REPORT_NODES of them.
     */
    String body(HashRing ring, long nowNanos) {
        return body(ring.version(), ring.fingerprint(), nowNanos);
    }

    /** The report of {@code version} built with {@code fingerprint}, with the latencies seen lately. */
    String body(long version, String fingerprint, long nowNanos) {
        ObjectNode report = WireJson.lenient().createObjectNode();
        report.put("version", version);
        report.put("fingerprint", fingerprint);
        List<Map.Entry<String, LatencyWindow.Recent>> seen = new ArrayList<>();
        for (Map.Entry<String, LatencyWindow> e : windows.entrySet()) {
            LatencyWindow.Recent r = e.getValue().reported(nowNanos);
            if (r != null) {
                seen.add(Map.entry(e.getKey(), r));
            }
        }
        if (seen.size() > MAX_REPORT_NODES) { // those most asked lately
            seen.sort(Comparator.comparingLong((Map.Entry<String, LatencyWindow.Recent> e) -> e.getValue().count())
                    .reversed().thenComparing(Map.Entry::getKey));
            seen = seen.subList(0, MAX_REPORT_NODES);
        }
        if (!seen.isEmpty()) {
            ObjectNode nodes = report.putObject("nodes");
            for (Map.Entry<String, LatencyWindow.Recent> e : seen) {
                nodes.putObject(e.getKey()).put("latencyMs", e.getValue().p99Millis());
            }
        }
        return WireJson.lenient().writeValueAsString(report);
    }

    /** The whole seconds of a Retry-After (delta-seconds), at most an hour; -1 if none or not a number. */
    static long retryAfterSeconds(HttpResponse<?> answer) {
        Optional<String> value = answer.headers().firstValue("Retry-After");
        if (value.isEmpty() || !value.get().strip().matches("[0-9]{1,18}")) {
            return -1;
        }
        return Math.min(Long.parseLong(value.get().strip()), MAX_RETRY_AFTER_SECONDS);
    }

    /** The detail of a problem body, or the body itself, shortened; "" if none. */
    private static String detail(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        String text = body;
        if (body.stripLeading().startsWith("{")) {
            try {
                JsonNode p = WireJson.lenient().readTree(body);
                if (p != null && p.isObject() && p.hasNonNull("detail")) {
                    text = p.path("detail").asString("");
                }
            } catch (JacksonException e) {
                // shown as it is
            }
        }
        text = text.strip();
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }

    /** The body of a 4xx or 5xx (for its detail), at most MAX_PROBLEM_BYTES; none of a 2xx. */
    private static BodySubscriber<String> bodyHandler(HttpResponse.ResponseInfo info) {
        if (info.statusCode() / 100 == 2) {
            return BodySubscribers.replacing("");
        }
        Capped capped = new Capped();
        return BodySubscribers.fromSubscriber(capped, Capped::text);
    }

    /** Keeps the first MAX_PROBLEM_BYTES of a body and drops the rest. */
    private static final class Capped implements Flow.Subscriber<List<ByteBuffer>> {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer b : buffers) {
                int n = Math.min(b.remaining(), MAX_PROBLEM_BYTES - bytes.size());
                if (n > 0) {
                    byte[] chunk = new byte[n];
                    b.get(chunk);
                    bytes.write(chunk, 0, n);
                }
            }
        }

        @Override
        public void onError(Throwable throwable) {
            // the status is what counts
        }

        @Override
        public void onComplete() {
        }

        String text() {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    // ---------------------------------------------------------------- ids

    /**
     * {@code id} if it is a follower id (docs/ring.md section 23).
     *
     * @throws IllegalArgumentException if not
     */
    static String checkId(String id) {
        if (id.length() > MAX_ID_LENGTH || !ID.matcher(id).matches()) {
            String shown = id.length() > 80 ? id.substring(0, 80) + "..." : id;
            throw new IllegalArgumentException("a follower id is 1 to 200 characters of A-Z, a-z, 0-9 and "
                    + "'.', '_', ':', '@', '/', '-': \"" + shown + "\" (" + id.length() + " characters)");
        }
        return id;
    }

    /**
     * An id for this process: its host name, process id and a random
     * suffix ({@code web-7.example:4711:3f9a2c}), every character the
     * grammar lacks turned into '-', the host name shortened to fit 200.
     */
    static String defaultId() {
        return defaultId(Host.NAME, ProcessHandle.current().pid(), ThreadLocalRandom.current());
    }

    /** The id of process {@code pid} on {@code host} (sanitized already). */
    static String defaultId(String host, long pid, RandomGenerator random) {
        String suffix = ":" + pid + ":" + String.format(Locale.ROOT, "%06x", random.nextInt(1 << 24));
        if (host.length() + suffix.length() > MAX_ID_LENGTH) {
            host = host.substring(0, MAX_ID_LENGTH - suffix.length());
        }
        return host + suffix;
    }

    /** This host's name, sanitized to the grammar, found once. */
    private static final class Host {
        static final String NAME = sanitize(find());

        private static String find() {
            for (String variable : List.of("HOSTNAME", "COMPUTERNAME")) {
                String v = System.getenv(variable);
                if (v != null && !v.isBlank()) {
                    return v.strip();
                }
            }
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (Exception e) {
                return "host";
            }
        }
    }

    /** {@code s} with every character a follower id may not hold turned into '-'; "host" if empty. */
    static String sanitize(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean allowed = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
                    || "._:@/-".indexOf(c) >= 0;
            b.append(allowed ? c : '-');
        }
        return b.isEmpty() ? "host" : b.toString();
    }

    /**
     * {@code id} as one path segment: '/' as %2F (the server decodes it),
     * and a whole "." or ".." as %2E, so that no one takes it for a dot
     * segment; every other character of the grammar stands for itself.
     */
    static String pathSegment(String id) {
        if (id.equals(".") || id.equals("..")) {
            return id.replace(".", "%2E");
        }
        return id.replace("/", "%2F");
    }

    private static String describe(Throwable e) {
        String m = null;
        for (Throwable t = e; t != null && m == null; t = t.getCause()) {
            m = t.getMessage();
        }
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}
