package io.ringd.bench;

import java.awt.Color;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.ringd.RingdApplication;
import io.ringd.client.ReadThrough;
import io.ringd.client.RingClient;

/**
 * Handoff read-through against real memcached servers (docs/handoff.md): a
 * read-through cache of Zipf-distributed keys over memcached servers routed
 * by a {@link RingClient} that follows one ringd (in this JVM, memory store,
 * loopback), and a "database" that counts the loads that reach it. One
 * membership change mid-run: a server joins, one is drained (removed from
 * the ring, its memcached left running and readable), or one crashes (its
 * memcached shut down as it is removed: the limit of the pattern). Two fleets take the
 * same key sequence request by request, routed by the same ring: one reads
 * through the previous owners on a miss ({@link RingClient#readThrough}),
 * the other does not. Prints a table and writes one CSV a scenario and the
 * plot. Run by {@code bench/handoff.sh}, which starts the memcached servers.
 *
 * <p>Arguments: the output directory, the PNG path, then for each scenario
 * ({@code join}, {@code drain}, {@code crash}) the ports of the fleet with handoff and of
 * the fleet without, comma-separated. System properties: {@code rate}
 * (requests a second, 4000), {@code before} and {@code after} (seconds
 * around the change, 15 and 30), {@code keys} (100000), {@code zipf} (1.0),
 * {@code warm} (draws loaded before the run, 1000000), {@code seed} (21).
 */
public final class HandoffDemo {

    /*
     * Design. One thread drives both fleets: request i draws key k, routes it
     * once (the owner the read-through answers), then reads it
     * from the fleet with handoff (owner, then the previous owners within the
     * client's window; a value found on a previous owner is copied to the
     * owner with memcached's add, which never overwrites a newer value) and
     * from the fleet without (owner only). A miss in either loads the value
     * from the database and sets it on the owner. Requests are paced at
     * `rate` a second and second s holds requests [s*rate, (s+1)*rate), so
     * both fleets see exactly the same keys in every second whatever the
     * machine's load; the wall time each second ended is kept to show the
     * pace held.
     *
     * The fleets start warm: the distinct keys of `warm` earlier draws of the
     * same distribution are set on their owners first, as if the workload had
     * run that long. Every value fits (64 MB a server, no evictions: checked
     * at the end with `stats`), so a load of a key the database served
     * before can only come from a key whose owner changed: those "repeat"
     * loads are the loads the change caused. The other loads are first
     * requests of keys of the Zipf tail.
     */

    static final String TOKEN = "handoff-demo-admin-token-0123456789";
    static final int VALUE_BYTES = 100;

    public static void main(String[] args) throws Exception {
        if (args.length != 8) {
            throw new IllegalArgumentException("usage: HandoffDemo OUT_DIR PNG JOIN_WITH JOIN_WITHOUT DRAIN_WITH "
                    + "DRAIN_WITHOUT CRASH_WITH CRASH_WITHOUT (ports a,b,..)");
        }
        Settings s = Settings.fromProperties();
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        Zipf zipf = new Zipf(s.keys, s.zipf);
        Machine machine = Machine.here();
        String load = Files.readString(Path.of("/proc/loadavg")).trim();
        List<Result> results = new ArrayList<>();
        results.add(run("join", s, zipf, ports(args[2]), ports(args[3]), out));
        results.add(run("drain", s, zipf, ports(args[4]), ports(args[5]), out));
        results.add(run("crash", s, zipf, ports(args[6]), ports(args[7]), out));
        String loadAfter = Files.readString(Path.of("/proc/loadavg")).trim();
        plot(results, s, Path.of(args[1]));
        System.out.println();
        System.out.println("machine: " + machine.shortDescription() + "; load average (1, 5, 15 min) "
                + load.substring(0, nthSpace(load, 3)) + " at the start, "
                + loadAfter.substring(0, nthSpace(loadAfter, 3)) + " at the end");
        System.out.printf(Locale.ROOT, "workload: %,d keys, Zipf s = %.2f, %,d requests a second, %d s before "
                + "the change and %d s after, seed %d, fleets warmed with %,d draws (%,d distinct keys)%n",
                s.keys, s.zipf, s.rate, s.before, s.after, s.seed, s.warm, results.get(0).warmKeys);
        System.out.println();
        table(results);
        boolean met = results.stream().filter(r -> !r.scenario.equals("crash")).allMatch(Result::goalsMet);
        System.out.println();
        System.out.println(met ? "goals met: loads caused by the change down by >= 90 %, hit ratio within 1 point"
                : "goals NOT met (see the table)");
        System.exit(0);
    }

    record Settings(int rate, int before, int after, int keys, double zipf, int warm, long seed) {
        static Settings fromProperties() {
            return new Settings(Integer.getInteger("rate", 4000), Integer.getInteger("before", 15),
                    Integer.getInteger("after", 30), Integer.getInteger("keys", 100_000),
                    Double.parseDouble(System.getProperty("zipf", "1.0")), Integer.getInteger("warm", 1_000_000),
                    Long.getLong("seed", 21));
        }
    }

    /** One second of the run, for both fleets. */
    static final class Second {
        long version;
        long endedMillis;
        final int[] hits = new int[2];
        final int[] loads = new int[2];
        final int[] repeatLoads = new int[2];
        int fromPrevious;
    }

    /** What one scenario measured. */
    record Result(String scenario, String change, Second[] seconds, int changeAt, int swappedAt, long warmKeys,
            long evictions, long maxLagMillis, int rate) {

        double steadyHitRatio(int v) {
            long hits = 0;
            for (int t = 0; t < changeAt; t++) {
                hits += seconds[t].hits[v];
            }
            return (double) hits / ((long) changeAt * rate);
        }

        double minHitRatioAfter(int v) {
            double min = 1;
            for (int t = changeAt; t < seconds.length; t++) {
                min = Math.min(min, seconds[t].hits[v] / (double) rate);
            }
            return min;
        }

        long sum(int from, java.util.function.ToIntFunction<Second> f) {
            long n = 0;
            for (int t = from; t < seconds.length; t++) {
                n += f.applyAsInt(seconds[t]);
            }
            return n;
        }

        long repeatLoads(int v) {
            return sum(0, x -> x.repeatLoads[v]);
        }

        long loadsAfter(int v) {
            return sum(changeAt, x -> x.loads[v]);
        }

        /** Loads after the change beyond the rate of the seconds before it. */
        double excessLoads(int v) {
            double before = sum(0, x -> x.loads[v]) - loadsAfter(v);
            return loadsAfter(v) - before / changeAt * (seconds.length - changeAt);
        }

        double reduction() {
            return repeatLoads(1) == 0 ? Double.NaN : 1 - (double) repeatLoads(0) / repeatLoads(1);
        }

        boolean goalsMet() {
            return reduction() >= 0.9 && steadyHitRatio(0) - minHitRatioAfter(0) <= 0.01 && evictions == 0;
        }
    }

    static Result run(String scenario, Settings s, Zipf zipf, List<Integer> withPorts, List<Integer> withoutPorts,
            Path out) throws Exception {
        boolean join = scenario.equals("join");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < withPorts.size(); i++) {
            ids.add("cache-" + (char) ('a' + i));
        }
        if (withPorts.size() != withoutPorts.size() || ids.size() != (join ? 5 : 4)) {
            throw new IllegalArgumentException(scenario + " needs " + (join ? 5 : 4) + " ports a fleet: " + withPorts
                    + " / " + withoutPorts);
        }
        List<String> initial = join ? ids.subList(0, 4) : ids;
        String moving = join ? ids.get(4) : ids.get(3);
        String verb = join ? "add" : scenario.equals("drain") ? "drain" : "crash";
        System.out.printf("%s: ringd with %s, then %s %s at %d s%n", scenario, initial, verb, moving, s.before);

        ConfigurableApplicationContext server = new SpringApplicationBuilder(RingdApplication.class).run(
                "--server.port=0", "--server.address=127.0.0.1", "--spring.main.banner-mode=off",
                "--ringd.store=memory", "--ringd.admin.token=" + TOKEN, "--logging.level.root=WARN",
                "--logging.level.org.springdoc=ERROR");
        int port = ((WebServerApplicationContext) server).getWebServer().getPort();
        String base = "http://127.0.0.1:" + port;
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        StringBuilder changes = new StringBuilder("{\"changes\":[");
        for (String id : initial) {
            changes.append(changes.charAt(changes.length() - 1) == '[' ? "" : ",")
                    .append("{\"op\":\"put\",\"id\":\"").append(id).append("\",\"weight\":1}");
        }
        admin(http, "POST", base + "/membership", changes.append("]}").toString());

        Map<String, Memcached> with = new LinkedHashMap<>();
        Map<String, Memcached> without = new LinkedHashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            with.put(ids.get(i), new Memcached(withPorts.get(i)));
            without.put(ids.get(i), new Memcached(withoutPorts.get(i)));
        }
        try (RingClient client = RingClient.builder(base).build()) {
            if (!client.awaitVersion(1, Duration.ofSeconds(30))) {
                throw new IllegalStateException("the client did not reach version 1");
            }
            Database db = new Database(s.keys);
            SplittableRandom random = new SplittableRandom(s.seed);
            BitSet warm = new BitSet(s.keys);
            for (int i = 0; i < s.warm; i++) {
                warm.set(zipf.sample(random));
            }
            for (int k = warm.nextSetBit(0); k >= 0; k = warm.nextSetBit(k + 1)) {
                String key = Zipf.key(k);
                String owner = client.route(key);
                byte[] value = db.warm(k);
                with.get(owner).setQuietly(key, value);
                without.get(owner).setQuietly(key, value);
            }
            for (Memcached m : with.values()) {
                m.sync();
            }
            for (Memcached m : without.values()) {
                m.sync();
            }

            int total = s.before + s.after;
            Second[] seconds = new Second[total];
            for (int t = 0; t < total; t++) {
                seconds[t] = new Second();
            }
            ReadThrough.Loader<byte[]> loader = (node, key) -> {
                Memcached m = with.get(node);
                return m == null ? null : m.get(key);
            };
            long startVersion = client.ring().version();
            int swappedAt = -1;
            long maxLag = 0;
            long start = System.nanoTime();
            long requests = (long) total * s.rate;
            for (long i = 0; i < requests; i++) {
                int t = (int) (i / s.rate);
                if (i == (long) s.before * s.rate) {
                    if (join) {
                        admin(http, "PUT", base + "/nodes/" + moving, "{\"weight\":1}");
                    } else {
                        if (scenario.equals("crash")) {
                            with.get(moving).shutdown();
                            without.get(moving).shutdown();
                        }
                        admin(http, "DELETE", base + "/nodes/" + moving, null);
                    }
                }
                long due = start + i * 1_000_000_000L / s.rate;
                long now = System.nanoTime();
                if (now < due) {
                    LockSupport.parkNanos(due - now);
                } else {
                    maxLag = Math.max(maxLag, (now - due) / 1_000_000);
                }
                int k = zipf.sample(random);
                String key = Zipf.key(k);
                Second sec = seconds[t];

                ReadThrough<byte[]> r = client.readThrough(key, loader);
                String owner = r.owner();
                if (r.found()) {
                    sec.hits[0]++;
                    if (r.fromPrevious()) {
                        sec.fromPrevious++;
                        with.get(owner).addQuietly(key, r.value());
                    }
                } else {
                    sec.loads[0]++;
                    if (db.load(0, k)) {
                        sec.repeatLoads[0]++;
                    }
                    with.get(owner).setQuietly(key, db.value(k));
                }

                Memcached m = without.get(owner);
                if (m.get(key) != null) {
                    sec.hits[1]++;
                } else {
                    sec.loads[1]++;
                    if (db.load(1, k)) {
                        sec.repeatLoads[1]++;
                    }
                    m.setQuietly(key, db.value(k));
                }

                if (swappedAt < 0 && client.ring().version() != startVersion) {
                    swappedAt = (int) i;
                }
                if ((i + 1) % s.rate == 0) {
                    sec.version = client.ring().version();
                    sec.endedMillis = (System.nanoTime() - start) / 1_000_000;
                }
            }
            long evictions = 0;
            for (Memcached mc : with.values()) {
                evictions += mc.alive() ? mc.stat("evictions") : 0;
            }
            for (Memcached mc : without.values()) {
                evictions += mc.alive() ? mc.stat("evictions") : 0;
            }
            Result result = new Result(scenario, verb + " " + moving, seconds, s.before, swappedAt,
                    warm.cardinality(), evictions, maxLag, s.rate);
            writeCsv(result, out.resolve(scenario + ".csv"));
            System.out.printf(Locale.ROOT, "%s: ran %d s of requests in %.1f s (latest a request started: %d ms "
                    + "behind its pace), the client swapped in version %d at request %,d (%.3f s after the change "
                    + "began), evictions %d%n", scenario, total, (System.nanoTime() - start) / 1e9, maxLag,
                    seconds[total - 1].version, swappedAt, (swappedAt - (double) s.before * s.rate) / s.rate,
                    evictions);
            return result;
        } finally {
            for (Memcached m : with.values()) {
                m.close();
            }
            for (Memcached m : without.values()) {
                m.close();
            }
            server.close();
        }
    }

    static void admin(HttpClient http, String method, String url, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + TOKEN)
                .timeout(Duration.ofSeconds(10));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException(method + " " + url + ": " + r.statusCode() + " " + r.body());
        }
    }

    static void writeCsv(Result r, Path file) throws IOException {
        StringBuilder b = new StringBuilder(
                "second,version,ended_ms,requests,hits_with,from_previous_with,loads_with,repeat_loads_with,"
                        + "hits_without,loads_without,repeat_loads_without\n");
        for (int t = 0; t < r.seconds.length; t++) {
            Second x = r.seconds[t];
            b.append(t).append(',').append(x.version).append(',').append(x.endedMillis).append(',').append(r.rate)
                    .append(',').append(x.hits[0]).append(',').append(x.fromPrevious).append(',').append(x.loads[0])
                    .append(',').append(x.repeatLoads[0]).append(',').append(x.hits[1]).append(',')
                    .append(x.loads[1]).append(',').append(x.repeatLoads[1]).append('\n');
        }
        Files.writeString(file, b.toString());
    }

    static void table(List<Result> results) {
        System.out.println("| change | read-through | steady hit ratio | lowest after the change | loads after the "
                + "change | of them caused by it (repeat loads) | excess over the steady rate |");
        System.out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
        for (Result r : results) {
            for (int v = 0; v < 2; v++) {
                System.out.printf(Locale.ROOT, "| %s at %d s | %s | %.2f %% | %.2f %% | %,d | %,d | %,.0f |%n",
                        r.change, r.changeAt, v == 0 ? "with handoff" : "without", 100 * r.steadyHitRatio(v),
                        100 * r.minHitRatioAfter(v), r.loadsAfter(v), r.repeatLoads(v), r.excessLoads(v));
            }
        }
        System.out.println();
        for (Result r : results) {
            long fromPrevious = r.sum(0, x -> x.fromPrevious);
            System.out.printf(Locale.ROOT, "%s: loads caused by the change %,d with handoff against %,d without "
                    + "(%.1f %% fewer); %,d reads answered by a previous owner; the hit ratio with handoff fell "
                    + "at most %.2f points below its steady value (goal: at most 1)%n", r.change, r.repeatLoads(0), r.repeatLoads(1),
                    100 * r.reduction(), fromPrevious,
                    Math.max(0, 100 * (r.steadyHitRatio(0) - r.minHitRatioAfter(0))));
        }
    }

    static void plot(List<Result> results, Settings s, Path png) throws IOException {
        List<XYChart> charts = new ArrayList<>();
        for (Result r : results) {
            double[] x = new double[r.seconds.length];
            double[][] hit = new double[2][x.length];
            double[][] loads = new double[2][x.length];
            for (int t = 0; t < x.length; t++) {
                x[t] = t + 1;
                for (int v = 0; v < 2; v++) {
                    hit[v][t] = 100.0 * r.seconds[t].hits[v] / r.rate;
                    loads[v][t] = r.seconds[t].loads[v];
                }
            }
            XYChart h = chart(r.change + " at " + r.changeAt + " s: hit ratio a second", "hit ratio (%)");
            XYChart l = chart(r.change + " at " + r.changeAt + " s: backend loads a second", "loads a second");
            for (int v = 1; v >= 0; v--) { // without first: where the two coincide (crash), "with" shows on top
                String name = v == 0 ? "with handoff read-through" : "without";
                Color color = v == 0 ? new Color(0x1f77b4) : new Color(0xd62728);
                series(h, name, x, hit[v], color);
                series(l, name, x, loads[v], color);
            }
            double steady = 100 * r.steadyHitRatio(0);
            XYSeries floor = h.addSeries("steady - 1 point (with)", new double[] {1, x.length},
                    new double[] {steady - 1, steady - 1});
            floor.setMarker(SeriesMarkers.NONE);
            floor.setLineColor(Color.GRAY);
            floor.setLineStyle(new java.awt.BasicStroke(1.2f, java.awt.BasicStroke.CAP_BUTT,
                    java.awt.BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
            h.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
            charts.add(h);
            charts.add(l);
        }
        Files.createDirectories(png.toAbsolutePath().getParent());
        BitmapEncoder.saveBitmap(List.copyOf(charts), results.size(), 2, png.toString(), BitmapFormat.PNG);
        System.out.println("plot: " + png);
    }

    static XYChart chart(String title, String yTitle) {
        XYChart c = new XYChartBuilder().width(620).height(380).title(title)
                .xAxisTitle("second of the run").yAxisTitle(yTitle).build();
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        c.getStyler().setLegendBorderColor(Color.LIGHT_GRAY);
        c.getStyler().setAntiAlias(true);
        c.getStyler().setMarkerSize(4);
        return c;
    }

    static void series(XYChart c, String name, double[] x, double[] y, Color color) {
        XYSeries s = c.addSeries(name, x, y);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        s.setLineColor(color);
        s.setMarkerColor(color);
        s.setMarker(SeriesMarkers.CIRCLE);
    }

    static List<Integer> ports(String csv) {
        return Arrays.stream(csv.split(",")).map(Integer::valueOf).toList();
    }

    static int nthSpace(String s, int n) {
        int at = -1;
        for (int i = 0; i < n; i++) {
            at = s.indexOf(' ', at + 1);
        }
        return at < 0 ? s.length() : at;
    }

    /** Ranks 0 .. n-1 drawn with probability proportional to 1 / (rank + 1)^s, by inverse CDF. */
    static final class Zipf {
        private final double[] cdf;

        Zipf(int n, double s) {
            cdf = new double[n];
            double sum = 0;
            for (int k = 0; k < n; k++) {
                sum += 1 / Math.pow(k + 1, s);
                cdf[k] = sum;
            }
            for (int k = 0; k < n; k++) {
                cdf[k] /= sum;
            }
        }

        int sample(SplittableRandom random) {
            int at = Arrays.binarySearch(cdf, random.nextDouble());
            return Math.min(at >= 0 ? at : -at - 1, cdf.length - 1);
        }

        static String key(int rank) {
            return "item:" + rank;
        }
    }

    /** The backing store: a value for every key, and which keys each fleet has loaded before. */
    static final class Database {
        private final BitSet[] loaded;

        Database(int keys) {
            loaded = new BitSet[] {new BitSet(keys), new BitSet(keys)};
        }

        byte[] value(int k) {
            byte[] v = new byte[VALUE_BYTES];
            Arrays.fill(v, (byte) ('a' + k % 26));
            byte[] id = Integer.toString(k).getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(id, 0, v, 0, id.length);
            return v;
        }

        /** A key loaded while warming both fleets (not counted). */
        byte[] warm(int k) {
            loaded[0].set(k);
            loaded[1].set(k);
            return value(k);
        }

        /** Counts a load for fleet {@code v}; answers whether this fleet had loaded the key before. */
        boolean load(int v, int k) {
            boolean before = loaded[v].get(k);
            loaded[v].set(k);
            return before;
        }
    }

    /**
     * A blocking memcached text-protocol connection: get, set and add
     * (noreply), stats. A server that stopped answering is marked dead: its
     * reads miss and its writes are dropped, as a client's failure detector
     * would have it.
     */
    static final class Memcached implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;
        private boolean dead;

        Memcached(int port) throws IOException {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setSoTimeout(10_000);
            out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
            in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
        }

        boolean alive() {
            return !dead;
        }

        /** The value, or null on a miss or when the server is dead. */
        byte[] get(String key) {
            if (dead) {
                return null;
            }
            try {
                out.write(("get " + key + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String line = line();
                if (line.equals("END")) {
                    return null;
                }
                if (!line.startsWith("VALUE ")) {
                    throw new IOException("get " + key + ": " + line);
                }
                int length = Integer.parseInt(line.substring(line.lastIndexOf(' ') + 1));
                byte[] value = in.readNBytes(length);
                line(); // the data's \r\n
                String end = line();
                if (!end.equals("END")) {
                    throw new IOException("get " + key + ": " + end);
                }
                return value;
            } catch (IOException e) {
                dead = true;
                return null;
            }
        }

        void setQuietly(String key, byte[] value) {
            store("set", key, value);
        }

        /** Stores the value unless the server holds the key already. */
        void addQuietly(String key, byte[] value) {
            store("add", key, value);
        }

        private void store(String command, String key, byte[] value) {
            if (dead) {
                return;
            }
            try {
                out.write((command + " " + key + " 0 0 " + value.length + " noreply\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write(value);
                out.write('\r');
                out.write('\n');
            } catch (IOException e) {
                dead = true;
            }
        }

        /** Stops the server (memcached started with -A), as a crash would: what it holds is gone. */
        void shutdown() throws IOException {
            out.write("shutdown\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            dead = true;
        }

        /** Waits until the server has taken every command sent. */
        void sync() throws IOException {
            out.write("version\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String line = line();
            if (!line.startsWith("VERSION")) {
                throw new IOException("version: " + line);
            }
        }

        long stat(String name) throws IOException {
            out.write("stats\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long value = -1;
            for (String line = line(); !line.equals("END"); line = line()) {
                if (line.startsWith("STAT " + name + " ")) {
                    value = Long.parseLong(line.substring(6 + name.length()));
                }
            }
            return value;
        }

        private String line() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream(64);
            int c;
            while ((c = in.read()) != '\n') {
                if (c < 0) {
                    throw new IOException("memcached closed the connection");
                }
                if (c != '\r') {
                    b.write(c);
                }
            }
            return b.toString(StandardCharsets.US_ASCII);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
