import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Convergence of FOLLOWERS lightweight followers, on loopback. Run by bench/followers-converge.sh:
 *
 * <pre>
 *   java bench/FollowersConverge.java BASE TOKEN FOLLOWERS COMMITS WARM_UP INTERVAL_MS
 * </pre>
 *
 * Each follower holds GET /ring/events open (java.net.http, a line subscriber: no thread
 * per stream, two threads for all of them) and, on the snapshot and on each change event,
 * reports PUT /followers/f-NNNNN with its version and fingerprint, taking for itself
 * now - committedAt when it sends the report (and when the 204 comes back). Then WARM_UP
 * commits not counted and COMMITS counted, one every INTERVAL_MS: PUT /nodes/c-N with the
 * admin token, and right after its answer GET /followers/converged?version=V&wait=PT30S,
 * timed from the commit's answer to converged:true. The server's
 * ringd_follower_apply_seconds{ring="default"} is scraped before and after the counted
 * commits; p50/p99 interpolated in its buckets (as Prometheus's histogram_quantile) are
 * printed beside the followers' own, exact and through the same buckets.
 */
public class FollowersConverge {

    static final Pattern VERSION = Pattern.compile("\"version\":(\\d+)");
    static final Pattern FINGERPRINT = Pattern.compile("\"fingerprint\":\"([0-9a-f]{64})\"");
    static final Pattern COMMITTED = Pattern.compile("\"committedAt\":\"([^\"]+)\"");
    static final Pattern BUCKET = Pattern.compile(
            "^ringd_follower_apply_seconds_bucket\\{[^}]*ring=\"default\"[^}]*le=\"([^\"]+)\"[^}]*} (\\S+)$");
    static final Pattern SUM = Pattern.compile("^ringd_follower_apply_seconds_(sum|count)\\{[^}]*ring=\"default\"[^}]*} (\\S+)$");

    static final ExecutorService POOL = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "followers");
        t.setDaemon(true);
        return t;
    });
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).executor(POOL)
            .build();

    static String base;
    static int followers;
    /** version to each follower's ms from committedAt to sending its report (NaN: none). */
    static final Map<Long, double[]> atSend = new ConcurrentHashMap<>();
    static final Map<Long, double[]> atAnswer = new ConcurrentHashMap<>();
    static final AtomicInteger snapshotsReported = new AtomicInteger();
    static final AtomicInteger failedReports = new AtomicInteger();
    static final AtomicInteger streamsEnded = new AtomicInteger();

    static double[] slots(Map<Long, double[]> m, long version) {
        return m.computeIfAbsent(version, v -> {
            double[] a = new double[followers];
            Arrays.fill(a, Double.NaN);
            return a;
        });
    }

    /** One follower: its stream's lines, its reports. */
    static final class Follower implements Flow.Subscriber<String> {
        final int index;
        final String id;
        final Semaphore opening;
        String event = "";
        String data = "";

        Follower(int index, Semaphore opening) {
            this.index = index;
            this.id = String.format("f-%05d", index);
            this.opening = opening;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String line) {
            if (line.startsWith("event:")) {
                event = line.substring(6).trim();
            } else if (line.startsWith("data:")) {
                data = line.substring(5);
            } else if (line.isEmpty()) {
                if (event.equals("change") || event.equals("snapshot")) {
                    apply(event, data);
                }
                event = "";
                data = "";
            }
        }

        void apply(String name, String json) {
            Matcher v = VERSION.matcher(json);
            Matcher f = FINGERPRINT.matcher(json);
            Matcher c = COMMITTED.matcher(json);
            if (!v.find() || !f.find() || !c.find()) {
                System.err.println(id + ": an event without version, fingerprint or committedAt: " + json);
                return;
            }
            long version = Long.parseLong(v.group(1));
            long committed = Instant.parse(c.group(1)).toEpochMilli();
            HttpRequest r = HttpRequest.newBuilder(URI.create(base + "/followers/" + id))
                    .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"version\":" + version + ",\"fingerprint\":\""
                            + f.group(1) + "\"}")).build();
            boolean change = name.equals("change");
            if (change) {
                slots(atSend, version)[index] = micros() / 1000.0 - committed;
            }
            HTTP.sendAsync(r, HttpResponse.BodyHandlers.discarding()).whenComplete((resp, e) -> {
                if (resp == null || resp.statusCode() != 204) {
                    failedReports.incrementAndGet();
                    System.err.println(id + ": report of " + version + " failed: "
                            + (resp == null ? e : resp.statusCode()));
                } else if (change) {
                    slots(atAnswer, version)[index] = micros() / 1000.0 - committed;
                } else {
                    snapshotsReported.incrementAndGet();
                    opening.release();
                }
            });
        }

        @Override
        public void onError(Throwable t) {
            streamsEnded.incrementAndGet();
            System.err.println(id + ": stream failed: " + t);
        }

        @Override
        public void onComplete() {
            streamsEnded.incrementAndGet();
            System.err.println(id + ": stream ended");
        }
    }

    /** Microseconds since the epoch. */
    static long micros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    static HttpResponse<String> call(HttpRequest.Builder b) throws Exception {
        return HTTP.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The bucket counts (le to cumulative count), with _sum and _count under NaN keys' neighbours. */
    static TreeMap<Double, Double> scrape(double[] sumCount) throws Exception {
        TreeMap<Double, Double> buckets = new TreeMap<>();
        for (String line : call(HttpRequest.newBuilder(URI.create(base + "/actuator/prometheus"))).body()
                .split("\n")) {
            Matcher m = BUCKET.matcher(line);
            if (m.matches()) {
                buckets.put(m.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(1)),
                        Double.parseDouble(m.group(2)));
            }
            Matcher s = SUM.matcher(line);
            if (s.matches()) {
                sumCount[s.group(1).equals("sum") ? 0 : 1] = Double.parseDouble(s.group(2));
            }
        }
        return buckets;
    }

    /** histogram_quantile: linear within the bucket holding the q-th observation. */
    static double quantile(TreeMap<Double, Double> cumulative, double q) {
        double total = cumulative.lastEntry().getValue();
        double target = q * total;
        double lower = 0;
        double below = 0;
        for (Map.Entry<Double, Double> e : cumulative.entrySet()) {
            if (e.getValue() >= target) {
                if (e.getKey().isInfinite()) {
                    return lower;
                }
                double in = e.getValue() - below;
                return in == 0 ? e.getKey() : lower + (e.getKey() - lower) * (target - below) / in;
            }
            lower = e.getKey();
            below = e.getValue();
        }
        return lower;
    }

    static double pick(double[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }

    public static void main(String[] args) throws Exception {
        base = args[0];
        String token = args[1];
        followers = Integer.parseInt(args[2]);
        int commits = Integer.parseInt(args[3]);
        int warmUp = Integer.parseInt(args[4]);
        long interval = Long.parseLong(args[5]);

        long t0 = System.nanoTime();
        Semaphore opening = new Semaphore(100); // at most 100 streams opening at once
        for (int i = 0; i < followers; i++) {
            opening.acquire();
            HTTP.sendAsync(HttpRequest.newBuilder(URI.create(base + "/ring/events")).build(),
                    HttpResponse.BodyHandlers.fromLineSubscriber(new Follower(i, opening)));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (snapshotsReported.get() < followers && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        if (snapshotsReported.get() < followers) {
            throw new IllegalStateException("only " + snapshotsReported.get() + " of " + followers + " followed");
        }
        System.out.printf("%d followers following and reported in %.1f s%n", followers, (System.nanoTime() - t0) / 1e9);

        double[] sumCountBefore = new double[2];
        TreeMap<Double, Double> before = null;
        List<Double> converge = new ArrayList<>();
        List<Long> counted = new ArrayList<>();
        int notConverged = 0;
        for (int k = 0; k < warmUp + commits; k++) {
            if (k == warmUp) {
                Thread.sleep(500);
                before = scrape(sumCountBefore);
            }
            long start = System.nanoTime();
            HttpResponse<String> put = call(HttpRequest.newBuilder(URI.create(base + "/nodes/c-" + (k % 10)))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"weight\":" + (1 + k % 7) + "}")));
            long answered = System.nanoTime();
            Matcher v = VERSION.matcher(put.body());
            if (put.statusCode() != 200 || !v.find()) {
                throw new IllegalStateException("commit refused: " + put.statusCode() + " " + put.body());
            }
            long version = Long.parseLong(v.group(1));
            HttpResponse<String> c = call(HttpRequest.newBuilder(URI.create(base + "/followers/converged?version="
                    + version + "&wait=PT30S")));
            double ms = (System.nanoTime() - answered) / 1e6;
            boolean ok = c.body().contains("\"converged\":true");
            if (k >= warmUp) {
                counted.add(version);
                converge.add(ms);
                if (!ok) {
                    notConverged++;
                }
            }
            System.out.printf("commit %d%s: version %d, commit answered in %.1f ms, converged %s after %.1f ms: %s%n",
                    k, k < warmUp ? " (warm-up)" : "", version, (answered - start) / 1e6, ok, ms, c.body());
            long rest = interval - (System.nanoTime() - start) / 1_000_000;
            if (rest > 0) {
                Thread.sleep(rest);
            }
        }
        Thread.sleep(500);
        double[] sumCountAfter = new double[2];
        TreeMap<Double, Double> after = scrape(sumCountAfter);
        TreeMap<Double, Double> delta = new TreeMap<>();
        TreeMap<Double, Double> start = before;
        after.forEach((le, n) -> delta.put(le, n - start.getOrDefault(le, 0.0)));
        double count = sumCountAfter[1] - sumCountBefore[1];
        double sum = sumCountAfter[0] - sumCountBefore[0];

        double[] conv = converge.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        System.out.printf("commit answered -> converged:true over %d commits: p50 %.1f ms, p99 %.1f ms, max %.1f ms, "
                + "not converged %d%n", conv.length, pick(conv, 0.5), pick(conv, 0.99), conv[conv.length - 1],
                notConverged);
        List<Double> sends = new ArrayList<>();
        List<Double> answers = new ArrayList<>();
        for (long version : counted) {
            for (double d : atSend.getOrDefault(version, new double[0])) {
                if (!Double.isNaN(d)) {
                    sends.add(d);
                }
            }
            for (double d : atAnswer.getOrDefault(version, new double[0])) {
                if (!Double.isNaN(d)) {
                    answers.add(d);
                }
            }
        }
        double[] s = sends.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double[] a = answers.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        // the followers' own times through the server's buckets, for a like-for-like reading
        TreeMap<Double, Double> binned = new TreeMap<>();
        for (double le : delta.keySet()) {
            int n = 0;
            for (double x : s) {
                if (x / 1000 <= le) {
                    n++;
                }
            }
            binned.put(le, (double) n);
        }
        System.out.printf("followers measured, committedAt -> sending the report, %d reports (%d expected): p50 %.1f ms,"
                + " p99 %.1f ms, max %.1f ms, mean %.1f ms; through the server's buckets p50 %.1f ms, p99 %.1f ms%n",
                s.length, counted.size() * followers, pick(s, 0.5), pick(s, 0.99), s[s.length - 1],
                Arrays.stream(s).average().orElse(0), quantile(binned, 0.5) * 1000, quantile(binned, 0.99) * 1000);
        System.out.printf("followers measured, committedAt -> the report's 204, %d reports: p50 %.1f ms, p99 %.1f ms,"
                + " max %.1f ms%n", a.length, pick(a, 0.5), pick(a, 0.99), a[a.length - 1]);
        System.out.printf("server ringd_follower_apply_seconds{ring=\"default\"}, bucket deltas: %.0f observations, "
                + "p50 %.1f ms, p99 %.1f ms (interpolated), mean %.1f ms%n", count, quantile(delta, 0.5) * 1000,
                quantile(delta, 0.99) * 1000, count == 0 ? 0 : sum / count * 1000);
        System.out.printf("reports failed %d, streams ended %d%n", failedReports.get(), streamsEnded.get());
        System.exit(failedReports.get() == 0 && notConverged == 0 ? 0 : 1);
    }
}
