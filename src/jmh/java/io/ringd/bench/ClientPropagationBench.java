package io.ringd.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.ringd.RingdApplication;
import io.ringd.client.RingClient;

/**
 * Propagation to followers: one ringd (memory store) and N {@link RingClient}s
 * in this JVM on loopback; for each of W admin writes, the time from the
 * write's 200 until every client routes at the new version (each client's
 * listener says when it swapped the verified ring in). Prints p50, p99 and
 * max, and the CPU time this JVM (server and clients) spent per write, the
 * threads it started per write and its garbage collections over the
 * measured writes. Run by {@code bench/clients.sh}; arguments: clients
 * (100), writes (200), and for attributing the time, the versions each
 * client keeps for handoff (16, the client's default; 0 keeps none),
 * whether clients send follower reports (true, the default), and whether
 * each write waits for the last one's reports and 50 ms ({@link #settle};
 * true, the default) or follows it at once (false).
 */
public final class ClientPropagationBench {

    static final String TOKEN = "client-bench-admin-token-0123456789";

    public static void main(String[] args) throws Exception {
        int clients = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int writes = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int handoffVersions = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        boolean reports = args.length > 3 ? Boolean.parseBoolean(args[3]) : true;
        boolean settle = args.length > 4 ? Boolean.parseBoolean(args[4]) : true;
        ConfigurableApplicationContext server = new SpringApplicationBuilder(RingdApplication.class).run(
                "--server.port=0", "--spring.main.banner-mode=off", "--ringd.store=memory",
                "--ringd.admin.token=" + TOKEN, "--ringd.watch.max-streams=" + (clients + 10),
                "--logging.level.root=WARN");
        int port = ((WebServerApplicationContext) server).getWebServer().getPort();
        String base = "http://127.0.0.1:" + port;
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        for (int n = 0; n < 100; n++) {
            put(http, base, "node-" + n, 1);
        }
        List<RingClient> followers = new ArrayList<>();
        List<Map<Long, Long>> arrived = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            Map<Long, Long> seen = new ConcurrentHashMap<>();
            RingClient client = RingClient.builder(base)
                    .handoffWindow(Duration.ofMinutes(10), handoffVersions).reports(reports)
                    .listener((before, after) -> seen.putIfAbsent(after.version(), System.nanoTime())).build();
            followers.add(client);
            arrived.add(seen);
        }
        for (RingClient c : followers) {
            if (!c.awaitVersion(100, Duration.ofSeconds(60))) {
                throw new IllegalStateException("a client did not reach version 100");
            }
        }
        for (int w = 0; w < 20; w++) { // warm-up
            put(http, base, "warm-" + (w % 5), 1 + w % 3);
        }
        long[] lag = new long[writes];
        long cpuFrom = cpuNanos();
        long[] gcFrom = gc();
        long threadsFrom = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();
        for (int w = 0; w < writes; w++) {
            long version = put(http, base, "moving-" + (w % 10), 1 + w % 4);
            long ok = System.nanoTime();
            long last = ok;
            for (Map<Long, Long> seen : arrived) {
                Long at;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while ((at = seen.get(version)) == null && System.nanoTime() < deadline) {
                    Thread.sleep(0, 100_000);
                }
                if (at == null) {
                    throw new IllegalStateException("version " + version + " did not reach a client");
                }
                last = Math.max(last, at);
            }
            lag[w] = last - ok;
            if (settle) {
                settle(http, base, version, reports);
            }
        }
        long cpu = cpuNanos() - cpuFrom;
        long[] gcTo = gc();
        long threads = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount() - threadsFrom;
        Arrays.sort(lag);
        System.out.printf("propagation to %d clients (handoff versions %d, reports %s, writes %s) over %d writes "
                + "(200 -> every client routing at the new version): p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                clients, handoffVersions, reports ? "on" : "off",
                settle ? "apart (reports in, then 50 ms)" : "back to back", writes, lag[writes / 2] / 1e6,
                lag[(int) Math.ceil(writes * 0.99) - 1] / 1e6, lag[writes - 1] / 1e6);
        System.out.printf("CPU of this JVM per write: %.1f ms (%d cores); threads started per write: %.1f%n",
                cpu / 1e6 / writes, Runtime.getRuntime().availableProcessors(), (double) threads / writes);
        System.out.printf("garbage collections during the writes: %d, %d ms in all (the collectors' own count)%n",
                gcTo[0] - gcFrom[0], gcTo[1] - gcFrom[1]);
        long reloads = followers.stream().mapToLong(RingClient::reloads).sum();
        System.out.println("reloads across all clients: " + reloads);
        followers.forEach(RingClient::close);
        server.close();
        System.exit(0);
    }

    /** The CPU time this JVM has used, all threads. */
    static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Collections so far and their time in ms, all collectors. */
    static long[] gc() {
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, b.getCollectionCount());
            millis += Math.max(0, b.getCollectionTime());
        }
        return new long[] {count, millis};
    }

    /**
     * Lets a write's aftermath end before the next write: with reports on, until every client has
     * reported {@code version} (GET /followers/converged), then a pause of 50 ms. A change is measured on
     * its own, as changes come in production (seconds or minutes apart); written back to back, the 100
     * reports of one write ran during the next one's propagation, which then measured the machine's
     * throughput of reports rather than a change's propagation.
     */
    static void settle(HttpClient http, String base, long version, boolean reports) throws Exception {
        if (reports) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base
                    + "/followers/converged?version=" + version + "&wait=PT10S")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200 || !r.body().contains("\"converged\":true")) {
                throw new IllegalStateException("version " + version + " not reported by every client: "
                        + r.statusCode() + " " + r.body());
            }
        }
        Thread.sleep(50);
    }

    static long put(HttpClient http, String base, String id, double weight) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/nodes/" + id))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"weight\":" + weight + "}")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200 && r.statusCode() != 201) {
            throw new IllegalStateException("PUT " + id + ": " + r.statusCode() + " " + r.body());
        }
        String body = r.body();
        int at = body.indexOf("\"version\":") + 10;
        return Long.parseLong(body.substring(at, body.indexOf(',', at)));
    }
}
