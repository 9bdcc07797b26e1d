package io.ringd.bench;

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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.curator.test.TestingCluster;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.ringd.RingdApplication;

/**
 * Three ringd instances on a three-server ZooKeeper ensemble (curator-test's
 * TestingCluster), all in this JVM, on loopback: how long from a write's 200
 * on one instance until all three serve the new version (each instance's
 * {@code /ring/events} stream, read from here, says when it swapped it in),
 * and how many writes per second go through one instance and through three.
 * Run by {@code bench/cluster.sh}; arguments: writes (200), seconds of each
 * throughput run (10).
 */
public final class ClusterBench {

    static final String TOKEN = "cluster-bench-admin-token-0123456789";
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public static void main(String[] args) throws Exception {
        int writes = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        try (TestingCluster cluster = new TestingCluster(3)) {
            cluster.start();
            List<ConfigurableApplicationContext> apps = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                apps.add(new SpringApplicationBuilder(RingdApplication.class).run("--server.port=0",
                        "--spring.main.banner-mode=off", "--ringd.store=zookeeper",
                        "--ringd.zookeeper.connect=" + cluster.getConnectString(), "--ringd.admin.token=" + TOKEN,
                        "--logging.level.root=WARN", "--logging.level.org.apache.zookeeper=ERROR"));
            }
            int[] ports = apps.stream().mapToInt(a -> ((WebServerApplicationContext) a).getWebServer().getPort())
                    .toArray();
            List<Map<Long, Long>> seen = new ArrayList<>();
            for (int port : ports) {
                seen.add(follow(port));
            }
            for (int i = 0; i < 50; i++) { // warm-up
                put(ports[0], "warm-" + (i % 10), 1 + i % 3);
            }
            long[] lag = new long[writes];
            for (int i = 0; i < writes; i++) {
                long version = put(ports[0], "node-" + (i % 20), 1 + i % 5);
                long ok = System.nanoTime();
                long last = ok;
                for (Map<Long, Long> s : seen) {
                    Long at;
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    while ((at = s.get(version)) == null && System.nanoTime() < deadline) {
                        Thread.onSpinWait();
                    }
                    if (at == null) {
                        throw new IllegalStateException("version " + version + " did not reach an instance");
                    }
                    last = Math.max(last, at);
                }
                lag[i] = last - ok;
            }
            Arrays.sort(lag);
            System.out.printf("convergence over %d writes (200 on instance 1 -> all 3 serving it): "
                    + "p50 %.2f ms, p99 %.2f ms, max %.2f ms%n", writes, lag[writes / 2] / 1e6,
                    lag[(int) Math.ceil(writes * 0.99) - 1] / 1e6, lag[writes - 1] / 1e6);
            System.out.printf("writes/s, 3 writers through instance 1: %.0f%n",
                    throughput(new int[] {ports[0], ports[0], ports[0]}, seconds));
            System.out.printf("writes/s, 3 writers, one per instance: %.0f%n", throughput(ports, seconds));
            for (ConfigurableApplicationContext a : apps) {
                a.close();
            }
        }
        System.exit(0);
    }

    /** Records, per version, when its change event arrived from the instance on {@code port}. */
    static Map<Long, Long> follow(int port) throws Exception {
        Map<Long, Long> seen = new ConcurrentHashMap<>();
        HttpResponse<Stream<String>> r = HTTP.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/ring/events")).build(), HttpResponse.BodyHandlers.ofLines());
        Thread t = new Thread(() -> r.body().forEach(line -> {
            if (line.startsWith("id:")) {
                seen.putIfAbsent(Long.parseLong(line.substring(3).trim()), System.nanoTime());
            }
        }), "follow-" + port);
        t.setDaemon(true);
        t.start();
        return seen;
    }

    static long put(int port, String id, double weight) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/nodes/" + id))
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

    /** Writes per second by one writer per entry of {@code ports}, each on node ids of its own. */
    static double throughput(int[] ports, int seconds) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(ports.length);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Future<Integer>> done = new ArrayList<>();
        for (int w = 0; w < ports.length; w++) {
            int writer = w;
            done.add(pool.submit(() -> {
                int n = 0;
                while (System.nanoTime() < end) {
                    put(ports[writer], "tp-" + writer + "-" + (n % 50), 1 + n % 7);
                    n++;
                }
                return n;
            }));
        }
        int total = 0;
        for (Future<Integer> f : done) {
            total += f.get();
        }
        pool.shutdown();
        return total / (double) seconds;
    }
}
