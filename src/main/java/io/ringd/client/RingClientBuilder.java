package io.ringd.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Settings of a {@link RingClient}, from {@link RingClient#builder(String)};
 * {@link #build()} starts it.
 */
public final class RingClientBuilder {

    /** The ring the paths without {@code /rings/{name}} serve (docs/ring.md section 22). */
    static final String DEFAULT_RING = "default";
    /** A ring name, as the server takes it (docs/ring.md section 22): 1 to 63 of a-z 0-9 '-', alnum at the ends. */
    private static final Pattern RING_NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");

    final URI baseUrl;
    String ring = DEFAULT_RING;
    Duration goneRecheck = Duration.ofSeconds(30);
    Duration connectTimeout = Duration.ofSeconds(5);
    Duration requestTimeout = Duration.ofSeconds(30);
    Duration idleTimeout = Duration.ofSeconds(45);
    Duration initialBackoff = Duration.ofMillis(250);
    Duration maxBackoff = Duration.ofSeconds(30);
    HttpClient httpClient;
    boolean metrics = true;
    Duration handoffWindow = Duration.ofMinutes(10);
    int handoffVersions = 16;
    /** The follower id given, or null for one made at build (docs/ring.md section 23). */
    String followerId;
    boolean reports = true;
    Duration reportInterval = FollowerReporter.MAX_INTERVAL;
    final List<RingClient.Listener> listeners = new ArrayList<>();

    RingClientBuilder(URI baseUrl) {
        Objects.requireNonNull(baseUrl, "baseUrl");
        String scheme = baseUrl.getScheme();
        if (!("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme)) || baseUrl.getHost() == null
                || baseUrl.getRawQuery() != null || baseUrl.getRawFragment() != null) {
            throw new IllegalArgumentException("baseUrl must be an http or https URL without query: " + baseUrl);
        }
        this.baseUrl = baseUrl;
    }

    /**
     * The ring to follow and route by (docs/ring.md section 22): the client
     * asks for {@code /rings/<name>/ring} and {@code /rings/<name>/ring/events}
     * instead of {@code /ring} and {@code /ring/events}. The default, the ring
     * {@code default}, uses the paths without the prefix.
     *
     * @throws IllegalArgumentException unless {@code name} is 1 to 63 characters of {@code a-z}, {@code 0-9}
     *                                  and {@code -}, starting and ending with a letter or digit
     */
    public RingClientBuilder ring(String name) {
        Objects.requireNonNull(name, "ring name");
        if (name.length() > 63 || !RING_NAME.matcher(name).matches()) {
            String shown = name.length() > 80 ? name.substring(0, 80) + "..." : name;
            throw new IllegalArgumentException("a ring name is 1 to 63 characters of a-z, 0-9 and '-', starting "
                    + "and ending with a letter or digit: \"" + shown + "\"");
        }
        this.ring = name;
        return this;
    }

    /**
     * How often to ask again for a ring the server does not have (default
     * 30 s, jittered down to half): deleted, or not made yet. While it is
     * gone, lookups throw {@link RingGoneException}; once it is made (again),
     * the client loads it.
     */
    public RingClientBuilder goneRecheck(Duration interval) {
        this.goneRecheck = positive(interval, "goneRecheck");
        return this;
    }

    /** How long to wait for a TCP connection (default 5 s); unused with {@link #httpClient}. */
    public RingClientBuilder connectTimeout(Duration timeout) {
        this.connectTimeout = positive(timeout, "connectTimeout");
        return this;
    }

    /**
     * How long to wait for the answer to {@code GET /ring}, and for the
     * headers of the event stream (default 30 s).
     */
    public RingClientBuilder requestTimeout(Duration timeout) {
        this.requestTimeout = positive(timeout, "requestTimeout");
        return this;
    }

    /**
     * How long the event stream may stay silent before the client drops it
     * and reconnects (default 45 s; the server sends a keep-alive at least
     * every 15 s).
     */
    public RingClientBuilder idleTimeout(Duration timeout) {
        this.idleTimeout = positive(timeout, "idleTimeout");
        return this;
    }

    /**
     * The bounds of the reconnect backoff (default 250 ms to 30 s): after
     * f failures in a row the client waits a random time between half and
     * all of {@code min(max, initial * 2^f)}.
     */
    public RingClientBuilder backoff(Duration initial, Duration max) {
        positive(initial, "initial backoff");
        positive(max, "max backoff");
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("max backoff must be at least the initial one (" + initial + "): " + max);
        }
        this.initialBackoff = initial;
        this.maxBackoff = max;
        return this;
    }

    /** The HTTP client to use (for TLS or a proxy); requests are sent as HTTP/1.1. */
    public RingClientBuilder httpClient(HttpClient client) {
        this.httpClient = Objects.requireNonNull(client, "httpClient");
        return this;
    }

    /** A listener told of every verified ring, the first one included. */
    public RingClientBuilder listener(RingClient.Listener listener) {
        this.listeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    /**
     * Whether to register the client's meters with Micrometer's global
     * registry when Micrometer is on the class path (default true; see
     * {@link RingClientMetrics} to bind to a registry of your own).
     */
    public RingClientBuilder metrics(boolean enabled) {
        this.metrics = enabled;
        return this;
    }

    /**
     * How far back {@link RingClient#handoff(String)} looks (default 10
     * minutes, as the server's {@code ringd.handoff.window}), and the most
     * versions it keeps for it (default 16, the current one included; 0 or 1
     * turn handoff off). The client keeps the versions committed within the
     * window and the one before: the current ring, and each older version
     * only where its owners differ from the next one's (a
     * {@link io.ringd.ring.HandoffTrail}: a few KB for a change of one node,
     * whatever the ring's size; {@link RingClient#handoffHistory()} says how
     * much).
     */
    public RingClientBuilder handoffWindow(Duration window, int maxVersions) {
        this.handoffWindow = positive(window, "handoff window");
        if (maxVersions < 0 || maxVersions > 1024) {
            throw new IllegalArgumentException("handoff versions must be in [0, 1024]: " + maxVersions);
        }
        this.handoffVersions = maxVersions;
        return this;
    }

    /**
     * The id the client reports itself by as a follower of the ring
     * (docs/ring.md section 23: {@code PUT /followers/<id>}). Without one the
     * client makes one: its host name, process id and a random suffix, as
     * {@code web-7.example:4711:3f9a2c}.
     *
     * @throws IllegalArgumentException unless {@code id} is 1 to 200 characters of {@code A-Z}, {@code a-z},
     *                                  {@code 0-9} and {@code . _ : @ / -}
     */
    public RingClientBuilder followerId(String id) {
        Objects.requireNonNull(id, "followerId");
        this.followerId = FollowerReporter.checkId(id);
        return this;
    }

    /**
     * Whether the client reports the version it holds to the server as a
     * follower (default true; docs/ring.md section 23): after each verified
     * ring and at least every {@link #reportInterval}, with the p99 of what
     * {@link RingClient#recordLatency} recorded. False sends no report at all.
     */
    public RingClientBuilder reports(boolean enabled) {
        this.reports = enabled;
        return this;
    }

    /**
     * The longest time between two follower reports (default 20 s, the
     * most docs/ring.md section 23 allows); a report also goes out after
     * each newly verified ring.
     *
     * @throws IllegalArgumentException unless {@code interval} is positive and at most 20 s
     */
    public RingClientBuilder reportInterval(Duration interval) {
        positive(interval, "reportInterval");
        if (interval.compareTo(FollowerReporter.MAX_INTERVAL) > 0) {
            throw new IllegalArgumentException("reportInterval must be at most 20 s, as a follower reports at least "
                    + "every 20 s (docs/ring.md section 23): " + interval);
        }
        this.reportInterval = interval;
        return this;
    }

    /** A client with these settings, already following the server on a daemon thread. */
    public RingClient build() {
        return new RingClient(this);
    }

    private static Duration positive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
        return d;
    }
}
