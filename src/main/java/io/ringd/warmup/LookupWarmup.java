package io.ringd.warmup;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;

import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import io.ringd.state.Rings;
import io.ringd.state.RingState;

/**
 * Warms the lookup path up before the instance reports ready, so that the
 * first requests a load balancer sends meet compiled code rather than the
 * interpreter.
 *
 * <p>Spring Boot runs application runners after the web server has started
 * and before it publishes readiness {@code ACCEPTING_TRAFFIC}, so this runs
 * while {@code /actuator/health/readiness} still answers 503. It does two
 * things, within {@link WarmupProperties#duration()}:
 * <ol>
 * <li>the ring library: {@code route}, {@code routeHash} and
 * {@code preference} on a private ring of 100 nodes built with the served
 * ring's config (so the served hash function is the one compiled), many
 * thousands of times, until the JIT has compiled them;</li>
 * <li>the HTTP stack: {@code GET /preference/{key}?n=1} over loopback to this
 * server, with varying keys, from two threads: the connector, the
 * dispatcher, the key check, the ring state argument and the JSON writing
 * of an answer, the path {@code GET /route/{key}} takes too. Preference
 * lookups count no routed keys and no loads, so the warm-up leaves the
 * lookup metrics and bounded loads as they were; they appear in the HTTP
 * server metrics only. On a ring without nodes these answer 503, which
 * still warms everything but the answer's JSON.</li>
 * </ol>
 * Nothing here changes state. A failure is logged and ignored: warm-up is
 * an optimisation, never a reason not to start.
 */
final class LookupWarmup implements ApplicationRunner {

    private static final Logger LOG = LoggerFactory.getLogger(LookupWarmup.class);
    private static final int NODES = 100;
    private static final int KEYS = 4096;
    private static final int HTTP_THREADS = 2;

    private final Rings rings;
    private final ApplicationContext context;
    private final WarmupProperties properties;

    LookupWarmup(Rings rings, ApplicationContext context, WarmupProperties properties) {
        this.rings = rings;
        this.context = context;
        this.properties = properties;
    }

    @Override
    public void run(ApplicationArguments args) {
        if (!properties.enabled()) {
            return;
        }
        long start = System.nanoTime();
        long budget = properties.duration().toNanos();
        try {
            long calls = warmLibrary(start + budget / 3);
            long requests = warmHttp(start + budget);
            LOG.info("Lookup warm-up: {} library lookups and {} HTTP requests in {} ms", calls, requests,
                    (System.nanoTime() - start) / 1_000_000);
        } catch (RuntimeException e) {
            LOG.warn("Lookup warm-up stopped early: {}", e.toString());
        }
    }

    /** Library lookups on a private ring until {@code deadline}; answers how many. */
    private long warmLibrary(long deadline) {
        RingState state = rings.defaultRing().service().current();
        RingConfig config = state == null ? RingConfig.defaults() : state.ring().config();
        List<Node> nodes = new ArrayList<>(NODES);
        for (int i = 0; i < NODES; i++) {
            nodes.add(Node.of("warmup-" + i, 1 + (i % 3)));
        }
        HashRing ring = HashRing.of(config, 1, nodes);
        String[] keys = keys();
        long calls = 0;
        int sink = 0;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < KEYS; i++) {
                String key = keys[i];
                sink += ring.route(key).length();
                sink += ring.routeHash(ring.hash(key)).length();
                if ((i & 7) == 0) {
                    sink += ring.preference(key, 3).size();
                }
            }
            calls += KEYS * 2L + KEYS / 8;
        }
        if (sink == 42) {
            LOG.trace("unlikely"); // keeps the loop's results alive
        }
        return calls;
    }

    /** Loopback {@code GET /preference/{key}?n=1} until {@code deadline}; answers how many. */
    private long warmHttp(long deadline) {
        if (!(context instanceof WebServerApplicationContext web) || web.getWebServer() == null) {
            return 0;
        }
        int port = web.getWebServer().getPort();
        if (port <= 0) {
            return 0;
        }
        long[] counts = new long[HTTP_THREADS];
        Thread[] threads = new Thread[HTTP_THREADS];
        for (int t = 0; t < HTTP_THREADS; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                int k = id;
                byte[] buffer = new byte[8192];
                while (System.nanoTime() < deadline) {
                    try {
                        get(port, "/preference/warmup:" + (k++ & (KEYS - 1)) + "?n=1", buffer);
                        counts[id]++;
                    } catch (IOException e) {
                        return; // the server is not reachable on loopback: nothing more to warm
                    }
                }
            }, "ringd-warmup-" + t);
            threads[t].start();
        }
        long total = 0;
        for (int t = 0; t < HTTP_THREADS; t++) {
            try {
                threads[t].join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return total;
            }
            total += counts[t];
        }
        return total;
    }

    /**
     * One plain HTTP/1.1 request on its own loopback connection, the answer
     * read to its end and dropped: a client far lighter than a full HTTP
     * client, so that the warm-up's time goes to the server's code.
     */
    private static void get(int port, String path, byte[] buffer) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(2_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n"
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            while (in.read(buffer) >= 0) {
                // until the server closes the connection
            }
        }
    }

    private static String[] keys() {
        String[] keys = new String[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = "warmup:" + i;
        }
        return keys;
    }
}
