package io.ringd.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Membership writes of large change events, each timed and each required to
 * be answered within 2 s: what a client that never reads its stream must
 * not hold up.
 */
final class TimedWrites {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private TimedWrites() {
    }

    /** {@code n} writes of 100 nodes through {@code base} (see {@link #run(IntFunction, String, int, String, int)}). */
    static List<Long> run(URI base, String token, int n, String prefix) {
        return run(i -> base, token, n, prefix, 100);
    }

    /**
     * {@code n} membership writes of large events ({@code nodes} nodes with
     * long ids put, then removed: about 200 bytes of event a node), write
     * {@code i} through {@code bases.apply(i)}; each answered 200 within 2 s.
     * Their times in nanoseconds.
     */
    static List<Long> run(IntFunction<URI> bases, String token, int n, String prefix, int nodes) {
        String pad = "-" + "x".repeat(180) + "-";
        StringBuilder put = new StringBuilder("[");
        StringBuilder remove = new StringBuilder("[");
        for (int i = 0; i < nodes; i++) {
            String sep = i == 0 ? "" : ",";
            put.append(sep).append("{\"op\":\"put\",\"id\":\"").append(prefix).append(pad).append(i)
                    .append("\",\"weight\":1}");
            remove.append(sep).append("{\"op\":\"remove\",\"id\":\"").append(prefix).append(pad).append(i)
                    .append("\"}");
        }
        List<Long> nanos = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String body = "{\"changes\":" + (i % 2 == 0 ? put : remove) + "]}";
            HttpRequest request = HttpRequest.newBuilder(bases.apply(i).resolve("/membership"))
                    .timeout(Duration.ofSeconds(2)).header("Authorization", "Bearer " + token)
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body))
                    .build();
            long t0 = System.nanoTime();
            HttpResponse<String> r;
            try {
                r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                throw new AssertionError("write " + (i + 1) + " of " + n + " not answered within 2 s: " + e, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            nanos.add(System.nanoTime() - t0);
            assertThat(r.statusCode()).as("write %d: %s", i + 1, r.body()).isEqualTo(200);
        }
        return nanos;
    }

    /** The {@code p}th percentile of {@code nanos}, in milliseconds. */
    static double pct(List<Long> nanos, int p) {
        List<Long> sorted = nanos.stream().sorted().toList();
        int k = Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1);
        return sorted.get(Math.max(0, k)) / 1e6;
    }

    /** One line of figures: p50, p99 and max without and with, and the p99 ratio. */
    static String figures(List<Long> without, List<Long> with) {
        return String.format("p50 %.2f ms, p99 %.2f ms without; p50 %.2f ms, p99 %.2f ms, max %.2f ms with; "
                + "p99 ratio %.2f", pct(without, 50), pct(without, 99), pct(with, 50), pct(with, 99), pct(with, 100),
                pct(with, 99) / pct(without, 99));
    }
}
