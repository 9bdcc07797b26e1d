package io.ringd.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import com.sun.net.httpserver.HttpServer;

/**
 * One follower report (docs/ring.md section 23) as the Java client sends
 * it, a {@code PUT /followers/{id}} answered 204 by a stand-in server on
 * loopback (the JDK's HttpServer, so that only the client's side differs):
 * {@code send} is how FollowerReporter sends now, {@code HttpClient.send}
 * on its own thread; {@code sendAsync} how it did, {@code HttpClient.sendAsync}
 * with the answer handled by a dependent stage. On a machine whose
 * ForkJoinPool common pool has fewer than two threads (two cores or fewer),
 * sendAsync hands each answer not complete at once to a new thread
 * (CompletableFuture's default executor there); the tear-down prints how
 * many threads each way started per report.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ReportSendBenchmark {

    private static final String BODY = "{\"version\":12,\"fingerprint\":\"" + "0123456789abcdef".repeat(4) + "\"}";

    private HttpServer server;
    private ExecutorService serverThreads;
    private HttpClient http;
    private HttpRequest put;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private long threadsAtStart;
    private final AtomicLong reports = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        serverThreads = Executors.newFixedThreadPool(2);
        server.setExecutor(serverThreads);
        server.createContext("/followers", ex -> {
            ex.getRequestBody().readAllBytes();
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        server.start();
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).version(HttpClient.Version.HTTP_1_1)
                .build();
        put = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort()
                + "/followers/bench-1")).version(HttpClient.Version.HTTP_1_1).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(BODY, StandardCharsets.UTF_8)).build();
        if (send() != 204 || sendAsync() != 204) {
            throw new IllegalStateException("the stand-in server did not answer 204");
        }
    }

    @Setup(Level.Iteration)
    public void count() {
        threadsAtStart = threads.getTotalStartedThreadCount();
        reports.set(0);
    }

    @TearDown(Level.Iteration)
    public void printThreads() {
        System.out.printf("  (threads started per report: %.2f over %d reports)%n",
                (double) (threads.getTotalStartedThreadCount() - threadsAtStart) / Math.max(1, reports.get()),
                reports.get());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        server.stop(0);
        serverThreads.shutdownNow();
    }

    @Benchmark
    public int send() throws Exception {
        reports.incrementAndGet();
        HttpResponse<String> r = http.send(put, HttpResponse.BodyHandlers.ofString());
        answered.incrementAndGet();
        return r.statusCode();
    }

    @Benchmark
    public int sendAsync() {
        reports.incrementAndGet();
        CompletableFuture<HttpResponse<String>> r = http.sendAsync(put, HttpResponse.BodyHandlers.ofString());
        return r.whenComplete((answer, failure) -> answered.incrementAndGet()).join().statusCode();
    }
}
