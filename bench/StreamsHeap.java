import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Opens N /ring/events streams on one ringd (loopback), holds them, and
 * counts the change events they receive. Run by bench/streams.sh:
 *   java bench/StreamsHeap.java <base-url> <streams> <hold-seconds> <expected-events-per-stream>
 * Prints "open N", then after the hold "events E of N*expected" and exits 0 when every stream got them all.
 */
public class StreamsHeap {
    public static void main(String[] args) throws Exception {
        String base = args[0];
        int n = Integer.parseInt(args[1]);
        int hold = Integer.parseInt(args[2]);
        long expected = Long.parseLong(args[3]);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        AtomicLong events = new AtomicLong();
        List<CompletableFuture<HttpResponse<Stream<String>>>> opening = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            HttpRequest r = HttpRequest.newBuilder(URI.create(base + "/ring/events"))
                    .header("Last-Event-ID", args.length > 4 ? args[4] : "x").build();
            opening.add(http.sendAsync(r, HttpResponse.BodyHandlers.ofLines()));
        }
        List<Stream<String>> open = new ArrayList<>();
        int refused = 0;
        for (CompletableFuture<HttpResponse<Stream<String>>> f : opening) {
            HttpResponse<Stream<String>> resp = f.get(30, TimeUnit.SECONDS);
            if (resp.statusCode() != 200) {
                refused++;
                resp.body().close();
                continue;
            }
            open.add(resp.body());
            Thread t = new Thread(() -> resp.body().forEach(l -> {
                if (l.startsWith("event:change")) {
                    events.incrementAndGet();
                }
            }));
            t.setDaemon(true);
            t.start();
        }
        System.out.println("open " + open.size() + " refused " + refused);
        System.out.flush();
        Thread.sleep(hold * 1000L);
        System.out.println("events " + events.get() + " of " + (open.size() * expected));
        open.forEach(Stream::close);
        System.exit(events.get() == open.size() * expected && refused == 0 ? 0 : 1);
    }
}
