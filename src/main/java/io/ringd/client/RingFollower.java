package io.ringd.client;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.ringd.client.EventStreamReader.Event;
import io.ringd.client.RingMessages.BadMessage;
import io.ringd.client.RingMessages.ChangeEvent;
import io.ringd.client.RingMessages.Snapshot;
import io.ringd.ring.HashRing;

/** The client's thread: loads the ring, follows the change stream, reconnects. */
final class RingFollower implements Runnable {

    /*
     * Design note.
     *
     * One cycle: a load (GET /ring, verified) when no ring is held or a
     * reload was called for; then a stream (GET /ring/events with
     * Last-Event-ID: the version held) until it ends, fails, or sends
     * something that calls for a reload (a gap, a fingerprint mismatch, an
     * unexpected event). Between cycles the thread waits
     * Backoff.delayNanos(failures): failures counts cycles in a row that
     * were not healthy, and a cycle is healthy once its stream applied an
     * event or stayed open HEALTHY_AFTER_NANOS, so a server that keeps
     * refusing, or a ring that keeps failing to verify, is asked less and
     * less often, while a stream dropped after a long life reconnects at
     * once (within the initial backoff).
     *
     * A new history. Change events verify themselves (each carries the
     * fingerprint after it), but a server restarted with a memory store
     * that has reached exactly the version held sends nothing on resume.
     * So once a stream is open, GET /ring asks, with If-None-Match naming
     * the ring held ("<version>-<first 16 hex digits of the fingerprint>",
     * the ETag of docs/ring.md section 17), whether the server still has it: 304,
     * the same version and fingerprint, or a newer version carry on; the
     * same version with another fingerprint, or an older version, is a new
     * history, adopted whole (verified) before reconnecting from it; so is
     * another incarnation (docs/ring.md section 20: a ring made anew, whose
     * versions mean nothing for the one held). The stream is asked with
     * X-Ring-Incarnation naming the incarnation held, so a server whose ring
     * is another starts it with a snapshot, and a change event of another
     * incarnation is never applied: it calls for a reload. Asking
     * after the stream opened, not before, means the answer comes from the
     * server that answers the stream, even across a restart in between. An
     * answer that does not verify is never adopted.
     *
     * Silence. Bodies are read through WatchedBody streams; a watchdog thread
     * closes one that has delivered no byte for its timeout (idleTimeout on
     * the stream, requestTimeout on GET /ring), which ends the blocked read
     * with an IOException. close() closes the current body and interrupts
     * the thread out of a send or a backoff wait.
     *
     * Named rings (docs/ring.md section 22). The URIs are the ring's
     * (/rings/<name>/ring... for a ring other than default). Every 200 and
     * 304 answer read is checked for X-Ring-Name: one naming another ring
     * is a BadMessage, never used (a server without named rings sends none,
     * and is trusted as before). A 404 problem naming the field ring (or of
     * type ring-not-found) on GET /ring or on the stream is RingMissing: the
     * client is told the ring is gone (RingClient.gone clears the ring held,
     * so the next cycle loads whole), and the thread waits goneRecheck,
     * jittered down to half, before asking again, however long it stays
     * gone: a deleted ring is not reconnected to fast, and a ring made again
     * with the name is found within goneRecheck.
     */

    static final int MAX_EVENT_BYTES = 64 << 20;
    /** The most of a 404 answer read, to see whether it names the ring. */
    static final int MAX_PROBLEM_BYTES = 64 << 10;
    static final String RING_NAME = "X-Ring-Name";
    static final long HEALTHY_AFTER_NANOS = TimeUnit.SECONDS.toNanos(5);

    private static final System.Logger LOG = System.getLogger(RingClient.class.getName());

    private final RingClient client;
    private final HttpClient http;
    private final URI ringUri;
    private final URI eventsUri;
    private final Duration requestTimeout;
    private final long idleTimeoutNanos;
    private final Backoff backoff;
    private final long goneRecheckNanos;
    private final ScheduledThreadPoolExecutor watchdog;
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile WatchedBody body;

    /** Follower thread only: set when the stream ended because the ring must be fetched whole. */
    private String reloadReason;

    RingFollower(RingClient client, HttpClient http, URI ringUri, URI eventsUri, Duration requestTimeout,
            Duration idleTimeout, Backoff backoff, Duration goneRecheck) {
        this.client = client;
        this.http = http;
        this.ringUri = ringUri;
        this.eventsUri = eventsUri;
        this.requestTimeout = requestTimeout;
        this.idleTimeoutNanos = idleTimeout.toNanos();
        this.backoff = backoff;
        this.goneRecheckNanos = goneRecheck.toNanos();
        this.watchdog = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "ringd-client-watchdog " + client.baseUrl());
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(TimeUnit.MILLISECONDS.toNanos(10),
                Math.min(TimeUnit.SECONDS.toNanos(1), Math.min(idleTimeoutNanos, requestTimeout.toNanos()) / 4));
        watchdog.scheduleWithFixedDelay(this::checkSilence, period, period, TimeUnit.NANOSECONDS);
    }

    @Override
    public void run() {
        int failures = 0;
        boolean first = true;
        try {
            while (!isClosed()) {
                if (!first) {
                    client.reconnecting();
                }
                first = false;
                boolean healthy = false;
                boolean missing = false;
                try {
                    healthy = cycle();
                } catch (RingMissing e) {
                    missing = true;
                    reloadReason = null; // nothing is held any more: the next cycle loads whole
                    client.gone(e.getMessage());
                } catch (BadMessage e) {
                    mismatch(e);
                    LOG.log(Level.WARNING, "ringd client {0}: {1}", client.baseUrl(), e.getMessage());
                } catch (IOException e) {
                    if (!isClosed()) {
                        LOG.log(Level.INFO, "ringd client {0}: {1}", client.baseUrl(), describe(e));
                    }
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "ringd client " + client.baseUrl() + ": unexpected failure", e);
                }
                if (isClosed()) {
                    break;
                }
                if (missing) {
                    failures = 0; // once it exists again, a failure backs off from the start
                    long half = goneRecheckNanos / 2;
                    closed.await(half + ThreadLocalRandom.current().nextLong(goneRecheckNanos - half + 1),
                            TimeUnit.NANOSECONDS);
                    continue;
                }
                failures = healthy ? 0 : Math.min(failures + 1, 62);
                closed.await(backoff.delayNanos(failures, ThreadLocalRandom.current()), TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            if (!isClosed()) {
                LOG.log(Level.WARNING, "ringd client {0}: interrupted, no longer following", client.baseUrl());
            }
        } finally {
            watchdog.shutdownNow();
        }
    }

    void close() {
        closed.countDown();
        WatchedBody b = body;
        if (b != null) {
            b.abort(false);
        }
        watchdog.shutdownNow();
    }

    private boolean isClosed() {
        return closed.getCount() == 0;
    }

    /**
     * The server has no ring of the client's name (a 404 naming {@code ring}, docs/ring.md section 22);
     * the message is what it said.
     */
    static final class RingMissing extends Exception {
        RingMissing(String detail) {
            super(detail);
        }
    }

    /** A load if one is needed, then one stream; whether the stream was healthy. */
    private boolean cycle() throws IOException, InterruptedException, BadMessage, RingMissing {
        RingClient.Held held = client.held();
        if (held == null || reloadReason != null) {
            Snapshot s = getRing(null);
            HashRing ring = s.build();
            client.heard();
            if (held != null) {
                client.reloaded(reloadReason + " (now at version " + ring.version() + ")");
            }
            reloadReason = null; // only once the whole ring is verified: until then, each cycle asks again
            adopt(held, ring, s.committedAt(), s.incarnation());
        }
        return stream(client.held());
    }

    /** Publishes a ring fetched whole, unless it is the one held, of the same incarnation. */
    private void adopt(RingClient.Held held, HashRing ring, Instant committedAt, String incarnation) {
        if (held == null || !same(held.ring(), ring) || !Objects.equals(held.incarnation(), incarnation)) {
            client.publish(ring, committedAt, incarnation, RingUpdate.Source.WHOLE, null);
        }
    }

    /** GET /ring: the snapshot, or null for 304 (the server has {@code ifNoneMatch}). */
    private Snapshot getRing(HashRing ifNoneMatch) throws IOException, InterruptedException, BadMessage,
            RingMissing {
        HttpRequest.Builder request = HttpRequest.newBuilder(ringUri).version(HttpClient.Version.HTTP_1_1)
                .timeout(requestTimeout).header("Accept", "application/json").GET();
        if (ifNoneMatch != null) {
            request.header("If-None-Match",
                    "\"" + ifNoneMatch.version() + "-" + ifNoneMatch.fingerprint().substring(0, 16) + "\"");
        }
        HttpResponse<InputStream> r = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        try (WatchedBody in = watch(r.body(), requestTimeout.toNanos())) {
            if (r.statusCode() == 404) {
                missing(ringUri, in);
            }
            if (r.statusCode() == 200 || r.statusCode() == 304) {
                checkName(ringUri, r);
            }
            if (r.statusCode() == 304 && ifNoneMatch != null) {
                return null;
            }
            if (r.statusCode() != 200) {
                throw new IOException("GET " + ringUri + " answered " + r.statusCode());
            }
            byte[] bytes = in.readNBytes(MAX_EVENT_BYTES + 1);
            if (bytes.length > MAX_EVENT_BYTES) {
                throw new IOException("GET " + ringUri + ": body larger than " + MAX_EVENT_BYTES + " bytes");
            }
            return RingMessages.snapshot(new String(bytes, StandardCharsets.UTF_8));
        } finally {
            body = null;
        }
    }

    /**
     * Follows the stream from the ring held until it ends, fails or calls
     * for a reload; whether it was healthy. Failures after the stream opened
     * are logged, not thrown.
     */
    private boolean stream(RingClient.Held from) throws IOException, InterruptedException, BadMessage,
            RingMissing {
        HashRing mine = from.ring();
        HttpRequest.Builder b = HttpRequest.newBuilder(eventsUri).version(HttpClient.Version.HTTP_1_1)
                .timeout(requestTimeout).header("Accept", "text/event-stream").header("Cache-Control", "no-cache")
                .header("Last-Event-ID", Long.toString(mine.version()));
        if (from.incarnation() != null) {
            b.header("X-Ring-Incarnation", from.incarnation());
        }
        HttpRequest request = b.GET().build();
        HttpResponse<InputStream> r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        long opened = System.nanoTime();
        boolean applied = false;
        InputStream stream = r.body();
        try (stream) {
            if (r.statusCode() == 404) {
                try (WatchedBody in = watch(stream, requestTimeout.toNanos())) {
                    missing(eventsUri, in);
                }
            }
            if (r.statusCode() != 200) {
                throw new IOException("GET " + eventsUri + " answered " + r.statusCode());
            }
            checkName(eventsUri, r);
            String type = r.headers().firstValue("Content-Type").orElse("");
            if (!type.toLowerCase(Locale.ROOT).startsWith("text/event-stream")) {
                throw new IOException("GET " + eventsUri + " answered " + type + ", not text/event-stream");
            }
            if (!stillTheServers(from)) {
                return true; // the new history's ring is held now: reconnect from it
            }
            WatchedBody in = watch(stream, idleTimeoutNanos);
            EventStreamReader reader = new EventStreamReader(in, MAX_EVENT_BYTES, comment -> client.heard());
            for (Event e; (e = reader.next()) != null;) {
                String reload = handle(e);
                if (reload != null) {
                    reloadReason = reload;
                    LOG.log(Level.WARNING, "ringd client {0}: {1}; reloading the ring", client.baseUrl(), reload);
                    break;
                }
                applied = true;
            }
        } catch (IOException e) {
            if (r.statusCode() != 200 || isClosed()) {
                throw e;
            }
            LOG.log(Level.INFO, "ringd client {0}: the event stream failed: {1}", client.baseUrl(), describe(e));
        } finally {
            body = null;
        }
        return applied || System.nanoTime() - opened >= HEALTHY_AFTER_NANOS;
    }

    /**
     * Asks, once the stream is open (so of the server that answers it),
     * whether the ring held is still in the server's history; if not (the
     * same version with another fingerprint, or only an older version: a
     * restart with a memory store), adopts the server's ring and answers
     * false. A newer version is fine: the stream's changes verify each step.
     */
    private boolean stillTheServers(RingClient.Held from) throws IOException, InterruptedException, BadMessage,
            RingMissing {
        HashRing mine = from.ring();
        Snapshot s = getRing(mine);
        client.heard();
        boolean otherIncarnation = s != null && !sameIncarnation(from.incarnation(), s.incarnation());
        if (s == null || !otherIncarnation && (s.version() > mine.version()
                || s.version() == mine.version() && s.fingerprint().equals(mine.fingerprint()))) {
            return true;
        }
        HashRing ring = s.build();
        client.reloaded("new history: the server has version " + s.version() + " " + abbreviate(s.fingerprint())
                + (otherIncarnation ? " of incarnation " + s.incarnation() : "") + ", this client had "
                + mine.version() + " " + abbreviate(mine.fingerprint())
                + (otherIncarnation ? " of incarnation " + from.incarnation() : ""));
        adopt(from, ring, s.committedAt(), s.incarnation());
        return false;
    }

    /**
     * Checks a 404 answer's body: a problem naming the field {@code ring}, or of type ring-not-found
     * (docs/ring.md section 22), is {@link RingMissing}; anything else returns (an ordinary failure).
     */
    private void missing(URI uri, InputStream in) throws IOException, RingMissing {
        byte[] bytes = in.readNBytes(MAX_PROBLEM_BYTES);
        String detail = RingMessages.ringNotFound(new String(bytes, StandardCharsets.UTF_8));
        if (detail == null) {
            throw new IOException("GET " + uri + " answered 404 without naming the ring: does the server serve "
                    + "named rings (docs/ring.md section 22)?");
        }
        throw new RingMissing(detail);
    }

    /** An answer that names another ring than the client's is never used. */
    private void checkName(URI uri, HttpResponse<?> r) throws BadMessage {
        String named = r.headers().firstValue(RING_NAME).orElse(null);
        if (named != null && !named.equals(client.ringName())) {
            throw new BadMessage("GET " + uri + " answered for the ring " + abbreviate(named) + " (" + RING_NAME
                    + "), not the ring " + client.ringName() + " this client follows: not used");
        }
    }

    /** Applies one event; null when it was applied, else why the ring must be reloaded. */
    private String handle(Event e) {
        switch (e.type()) {
            case "snapshot":
                return snapshot(e);
            case "change":
                return change(e);
            default:
                return "unexpected event " + abbreviate(e.type());
        }
    }

    private String snapshot(Event e) {
        Snapshot s;
        try {
            s = RingMessages.snapshot(e.data());
        } catch (BadMessage m) {
            return "unexpected snapshot event: " + m.getMessage();
        }
        if (!idIs(e, s.version())) {
            return "unexpected snapshot event: id " + abbreviate(e.id()) + " for version " + s.version();
        }
        HashRing ring;
        try {
            ring = s.build();
        } catch (BadMessage m) {
            mismatch(m);
            return m.getMessage();
        }
        RingClient.Held held = client.held();
        if (held != null && (!same(held.ring(), ring) || !sameIncarnation(held.incarnation(), s.incarnation()))) {
            client.reloaded("the server sent a snapshot of version " + s.version() + " (this client had "
                    + held.ring().version() + ")");
        }
        adopt(held, ring, s.committedAt(), s.incarnation());
        return null;
    }

    /**
     * A ring built here that does not verify is reported as it was built (docs/ring.md
     * section 23): the server shows this client diverged, the bug a fleet most needs to see.
     */
    private void mismatch(BadMessage m) {
        if (m instanceof RingMessages.Mismatch mm) {
            client.mismatched(mm.version, mm.built);
        }
    }

    private String change(Event e) {
        ChangeEvent c;
        try {
            c = RingMessages.change(e.data());
        } catch (BadMessage m) {
            return "unexpected change event: " + m.getMessage();
        }
        if (!idIs(e, c.version())) {
            return "unexpected change event: id " + abbreviate(e.id()) + " for version " + c.version();
        }
        RingClient.Held held = client.held();
        if (!sameIncarnation(held.incarnation(), c.incarnation())) {
            return "a change of another history: incarnation " + c.incarnation() + ", this client follows "
                    + held.incarnation();
        }
        HashRing previous = held.ring();
        if (c.version() != previous.version() + 1) {
            return "gap: change to version " + c.version() + " after version " + previous.version();
        }
        HashRing next;
        try {
            next = c.applyTo(previous);
        } catch (BadMessage m) {
            mismatch(m);
            return m.getMessage();
        }
        client.publish(next, c.committedAt(), c.incarnation() != null ? c.incarnation() : held.incarnation(),
                RingUpdate.Source.CHANGE, c.plan());
        if (c.committedAt() != null) {
            Duration lag = Duration.between(c.committedAt(), Instant.now());
            client.lag(lag.isNegative() ? Duration.ZERO : lag);
        }
        return null;
    }

    /** Whether the event's id (if it has one) names {@code version}. */
    private static boolean idIs(Event e, long version) {
        return e.id() == null || e.id().isEmpty() || e.id().equals(Long.toString(version));
    }

    /** Whether two incarnations may be one: equal, or one of them not known (a server that sends none). */
    private static boolean sameIncarnation(String held, String sent) {
        return held == null || sent == null || held.equals(sent);
    }

    private static boolean same(HashRing a, HashRing b) {
        return a.version() == b.version() && a.fingerprint().equals(b.fingerprint()) && a.config().equals(b.config())
                && a.nodes().equals(b.nodes());
    }

    // ---------------------------------------------------------------- silence

    private WatchedBody watch(InputStream in, long timeoutNanos) {
        WatchedBody w = new WatchedBody(in, timeoutNanos);
        body = w;
        if (isClosed()) {
            w.abort(false);
        }
        return w;
    }

    private void checkSilence() {
        WatchedBody b = body;
        if (b != null && System.nanoTime() - b.lastProgressNanos > b.timeoutNanos) {
            b.abort(true);
        }
    }

    private static String describe(Throwable e) {
        String m = null;
        for (Throwable t = e; t != null && m == null; t = t.getCause()) {
            m = t.getMessage();
        }
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }

    private static String abbreviate(String s) {
        if (s == null) {
            return "null";
        }
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
