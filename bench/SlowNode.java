import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ringd.client.RingClient;

/**
 * The fleet as the load signal, against real memcached servers
 * (docs/algorithms.md section 6; run by bench/slow-node.sh, which starts the
 * servers, each behind a forwarder of the delaying proxy bench/DelayProxy.java,
 * and ringd with {@code ringd.load.source=followers}). Application instances, each a
 * {@link RingClient} reporting as a follower, route every request with
 * {@code GET /route/{key}?bound=c}, do a memcached get (and a set on a miss)
 * on the node answered and record the time of each operation with
 * {@link RingClient#recordLatency}. One node is made slow for a while by its
 * proxy. Writes what was measured into OUT_DIR: {@code seconds.csv} (one row a
 * second), {@code loads.csv} (GET /loads every 250 ms), {@code moves.csv}
 * (every change of a key's node), {@code facts.properties} (the figures, read
 * by io.ringd.bench.SlowNodeReport) and {@code summary.txt}.
 *
 * <pre>
 * java -cp target/ringd-client.jar:JACKSON_JARS bench/SlowNode.java OUT_DIR RINGD_URL ADMIN_TOKEN \
 *     CONTROL_PORT SLOW_ID ID=PORT,ID=PORT,...
 * </pre>
 *
 * System properties: {@code rate} (requests a second, all instances together;
 * 2000), {@code apps} (3), {@code workers} (threads per instance, 4),
 * {@code keys} (10000, drawn uniformly), {@code bound} (1.25), {@code jit}
 * (seconds of load before time 0, not recorded: the JIT warm-up, 10),
 * {@code warm} (the base is measured from it to the slow-down, 30),
 * {@code slowFrom} and {@code slowUntil} (seconds, 40 and 70), {@code delay}
 * (ms added to each answer of the slow node, 20), {@code duration} (135),
 * {@code report} (the follower report interval in ms, 1000), {@code seed} (7),
 * {@code commit} (what the run measured, for the report; "unknown").
 */
public final class SlowNode {

    /*
     * Design. The load starts `jit` seconds before time 0 to warm up the JVMs (JIT): those
     * requests are neither logged nor recorded to the clients, whose windows would otherwise
     * hold cold-JVM latencies 10 to 100 times the warm ones for 20 to 30 s. Every worker
     * thread paces its own share of the rate (request i of worker w at offset
     * (i + w / W) * W / rate), so the rate holds whatever the answers cost; a worker more
     * than 100 ms behind skips its late slots (counted). A request: GET /route/{key}?bound=c
     * on the worker's own keep-alive HTTP/1.1 connection to ringd (written and read by hand:
     * java.net.http costs several thread hand-offs a request, too much CPU on 2 cores), then
     * get on the node's memcached over a socket of the worker's own, and set on a miss; each
     * memcached operation is timed with System.nanoTime and recorded to the instance's
     * client. Each request is logged (time, key, node, skipped, get and set times, route
     * time) in arrays per worker, analysed after the run: the node that served a key at each
     * request is its owner then, and a change of owner between two requests of the key is a
     * move at the second one. A monitor thread reads GET /loads every 250 ms. Membership is
     * set once, before the load; every route answer, every /loads answer and the ring at the
     * end must carry that version (checked: the run fails if not).
     */

    static final int VALUE_BYTES = 100;

    record Settings(int rate, int apps, int workers, int keys, String bound, int jit, int warm, int slowFrom,
            int slowUntil, int delayMs, int duration, int reportMs, long seed) {

        static Settings fromProperties() {
            Settings s = new Settings(Integer.getInteger("rate", 2000), Integer.getInteger("apps", 3),
                    Integer.getInteger("workers", 4), Integer.getInteger("keys", 10_000),
                    System.getProperty("bound", "1.25"), Integer.getInteger("jit", 10),
                    Integer.getInteger("warm", 30),
                    Integer.getInteger("slowFrom", 40), Integer.getInteger("slowUntil", 70),
                    Integer.getInteger("delay", 20), Integer.getInteger("duration", 135),
                    Integer.getInteger("report", 1000), Long.getLong("seed", 7));
            if (!(0 <= s.jit && 0 < s.warm && s.warm < s.slowFrom && s.slowFrom < s.slowUntil
                    && s.slowUntil < s.duration)) {
                throw new IllegalArgumentException("need 0 <= jit, 0 < warm < slowFrom < slowUntil < duration: " + s);
            }
            return s;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            throw new IllegalArgumentException("usage: SlowNode OUT_DIR RINGD_URL ADMIN_TOKEN CONTROL_PORT SLOW_ID "
                    + "ID=PORT,...");
        }
        Settings s = Settings.fromProperties();
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        String base = args[1];
        String token = args[2];
        int controlPort = Integer.parseInt(args[3]);
        String slow = args[4];
        Map<String, Integer> ports = new TreeMap<>();
        for (String p : args[5].split(",")) {
            String[] kv = p.split("=");
            ports.put(kv[0], Integer.parseInt(kv[1]));
        }
        String[] nodes = ports.keySet().toArray(new String[0]);
        int slowIndex = Arrays.asList(nodes).indexOf(slow);
        if (slowIndex < 0) {
            throw new IllegalArgumentException("the slow node is not one of the nodes: " + slow);
        }
        new SlowNode(s, out, base, token, controlPort, nodes, ports, slowIndex).run();
    }

    private final Settings s;
    private final Path out;
    private final String base;
    private final String token;
    private final int controlPort;
    private final String[] nodes;
    private final Map<String, Integer> ports;
    private final int slow;
    private final HttpClient admin = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final String[] keys;
    private final byte[][] routeRequests;
    private final InetSocketAddress ringdAddress;
    private final Map<String, String> facts = new LinkedHashMap<>();
    private long t0;
    private long version;

    private SlowNode(Settings s, Path out, String base, String token, int controlPort, String[] nodes,
            Map<String, Integer> ports, int slow) {
        this.s = s;
        this.out = out;
        this.base = base;
        this.token = token;
        this.controlPort = controlPort;
        this.nodes = nodes;
        this.ports = ports;
        this.slow = slow;
        this.keys = new String[s.keys];
        this.routeRequests = new byte[s.keys][];
        URI uri = URI.create(base);
        this.ringdAddress = new InetSocketAddress(uri.getHost(), uri.getPort());
        for (int k = 0; k < s.keys; k++) {
            keys[k] = "key-" + k;
            routeRequests[k] = ("GET /route/" + keys[k] + "?bound=" + s.bound + " HTTP/1.1\r\nHost: "
                    + uri.getAuthority() + "\r\nAccept: application/json\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        }
    }

    // ------------------------------------------------------------------ the run

    private void run() throws Exception {
        StringBuilder changes = new StringBuilder();
        for (String id : nodes) {
            changes.append(changes.length() == 0 ? "" : ",").append("{\"op\":\"put\",\"id\":\"").append(id)
                    .append("\",\"weight\":1}");
        }
        String made = send(HttpRequest.newBuilder(URI.create(base + "/membership"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"changes\":[" + changes + "]}")));
        version = number(made, "version");
        String ringBefore = send(HttpRequest.newBuilder(URI.create(base + "/ring")));
        String ownership = send(HttpRequest.newBuilder(URI.create(base + "/ownership")));
        log("membership: " + String.join(", ", nodes) + " at version " + version + "; " + nodes[slow]
                + " is the one to slow down");

        List<RingClient> apps = new ArrayList<>();
        for (int a = 0; a < s.apps; a++) {
            RingClient c = RingClient.builder(base).followerId("app-" + (a + 1))
                    .reportInterval(Duration.ofMillis(s.reportMs)).metrics(false).build();
            if (!c.awaitReady(Duration.ofSeconds(20)) || c.version() != version) {
                throw new IllegalStateException("instance " + (a + 1) + " holds no ring at version " + version);
            }
            apps.add(c);
        }
        control(0);

        int threads = s.apps * s.workers;
        Worker[] workers = new Worker[threads];
        CountDownLatch done = new CountDownLatch(threads);
        t0 = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200) + TimeUnit.SECONDS.toNanos(s.jit);
        for (int w = 0; w < threads; w++) {
            workers[w] = new Worker(w, threads, apps.get(w % s.apps), done);
            Thread t = new Thread(workers[w], "app-" + (w % s.apps + 1) + "-worker-" + (w / s.apps));
            t.setDaemon(true);
            t.start();
        }
        List<double[]> loads = new ArrayList<>();
        Thread monitor = new Thread(() -> monitor(loads), "monitor");
        monitor.setDaemon(true);
        monitor.start();
        sleepUntil(0);
        String load = loadAverage();
        log("JIT warm-up done: time 0, the instances record latencies from now on");
        sleepUntil(s.slowFrom);
        long slowOn = control(s.delayMs);
        log(f("t=%.2f s: %s slowed by %d ms", seconds(slowOn), nodes[slow], s.delayMs));
        sleepUntil(s.slowUntil);
        long slowOff = control(0);
        log(f("t=%.2f s: %s recovered", seconds(slowOff), nodes[slow]));
        done.await();
        monitor.interrupt();
        monitor.join();
        String loadAfter = loadAverage();
        String ringAfter = send(HttpRequest.newBuilder(URI.create(base + "/ring")));
        String followers = send(HttpRequest.newBuilder(URI.create(base + "/followers")));
        for (RingClient c : apps) {
            c.close();
        }

        facts.put("commit", System.getProperty("commit", "unknown"));
        facts.put("date", java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString());
        facts.put("nodes", String.join(",", nodes));
        facts.put("slow", nodes[slow]);
        put("rate", s.rate);
        put("apps", s.apps);
        put("workers", s.workers);
        put("keys", s.keys);
        facts.put("bound", s.bound);
        put("jit", s.jit);
        put("warm", s.warm);
        put("slowFrom", s.slowFrom);
        put("slowUntil", s.slowUntil);
        put("delayMs", s.delayMs);
        put("duration", s.duration);
        put("reportMs", s.reportMs);
        put("seed", s.seed);
        facts.put("slowOnAt", f("%.3f", seconds(slowOn)));
        facts.put("slowOffAt", f("%.3f", seconds(slowOff)));
        facts.put("loadAverageBefore", load);
        facts.put("loadAverageAfter", loadAfter);
        put("version", version);
        facts.put("versionAfter", String.valueOf(number(ringAfter, "version")));
        facts.put("fingerprintSame", String.valueOf(text(ringBefore, "fingerprint").equals(text(ringAfter,
                "fingerprint"))));
        for (String id : nodes) {
            Matcher m = Pattern.compile("\"id\":\"" + id + "\"[^}]*\"share\":([0-9.eE-]+)").matcher(ownership);
            facts.put("ownership." + id, m.find() ? m.group(1) : "NaN");
        }
        facts.put("followersAtEnd", followers.replaceAll(".*\"summary\":(\\{[^}]*\\}).*", "$1"));
        analyse(workers, loads, apps.get(0));
        write(out.resolve("facts.properties"), facts.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .toList());
        List<String> summary = summary();
        write(out.resolve("summary.txt"), summary);
        summary.forEach(System.out::println);
        boolean ok = facts.get("membershipUnchanged").equals("true");
        if (!ok) {
            System.err.println("FAILED: the ring's version changed during the run");
            System.exit(1);
        }
    }

    /** Sets the delay of the slow node's forwarder; answers the time it was set (System.nanoTime). */
    private long control(int ms) throws IOException {
        int port = ports.get(nodes[slow]);
        try (Socket c = new Socket(InetAddress.getLoopbackAddress(), controlPort)) {
            c.getOutputStream().write(("delay " + port + " " + ms + "\n").getBytes(StandardCharsets.US_ASCII));
            c.getOutputStream().flush();
            String answer = readLine(new BufferedInputStream(c.getInputStream()));
            if (!("ok " + port + " " + ms).equals(answer)) {
                throw new IOException("the proxy answered: " + answer);
            }
            return System.nanoTime();
        }
    }

    /** GET /loads every 250 ms: rows of (t, version, mean, load of each node). */
    private void monitor(List<double[]> rows) {
        URI uri = URI.create(base + "/loads");
        for (long tick = 0;; tick++) {
            long due = t0 + tick * TimeUnit.MILLISECONDS.toNanos(250);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            if (Thread.interrupted()) {
                return;
            }
            try {
                String body = send(HttpRequest.newBuilder(uri));
                double[] row = new double[3 + nodes.length];
                row[0] = seconds(System.nanoTime());
                row[1] = number(body, "version");
                row[2] = Double.parseDouble(text(body, "mean"));
                for (int i = 0; i < nodes.length; i++) {
                    Matcher m = Pattern.compile("\"id\":\"" + nodes[i] + "\",\"load\":([0-9.eE+-]+)").matcher(body);
                    row[3 + i] = m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
                }
                synchronized (rows) {
                    rows.add(row);
                }
            } catch (IOException e) {
                log("GET /loads failed: " + e.getMessage());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    // ------------------------------------------------------------------ the workers

    /** One thread of an application instance: its share of the requests, and what each did. */
    private final class Worker implements Runnable {
        final int id;
        final int of;
        final RingClient client;
        final CountDownLatch done;
        final Socket[] sockets = new Socket[nodes.length];
        final InputStream[] ins = new InputStream[nodes.length];
        final OutputStream[] outs = new OutputStream[nodes.length];
        final byte[] value = new byte[VALUE_BYTES];
        /** The keep-alive connection to ringd: HTTP/1.1, one request in flight. */
        Socket ringd;
        InputStream ringdIn;
        OutputStream ringdOut;
        // the log, one entry a request from time 0 on
        int n;
        long[] at = new long[1 << 14];
        int[] key = new int[1 << 14];
        byte[] node = new byte[1 << 14];
        byte[] skipped = new byte[1 << 14];
        long[] getNanos = new long[1 << 14];
        long[] setNanos = new long[1 << 14];
        long[] routeNanos = new long[1 << 14];
        long late;
        long failed;
        long otherVersion;
        long hits;
        String failure;

        Worker(int id, int of, RingClient client, CountDownLatch done) {
            this.id = id;
            this.of = of;
            this.client = client;
            this.done = done;
            Arrays.fill(value, (byte) 'v');
        }

        @Override
        public void run() {
            try {
                SplittableRandom random = new SplittableRandom(s.seed * 1_000_003 + id);
                long begin = t0 - TimeUnit.SECONDS.toNanos(s.jit);
                long end = t0 + TimeUnit.SECONDS.toNanos(s.duration);
                double step = 1e9 * of / s.rate;
                for (long i = 0;; i++) {
                    long due = begin + (long) ((i + (double) id / of) * step);
                    if (due >= end) {
                        return;
                    }
                    long now = System.nanoTime();
                    if (due > now) {
                        LockSupport.parkNanos(due - now);
                    } else if (now - due > TimeUnit.MILLISECONDS.toNanos(100)) {
                        if (due >= t0) {
                            late++;
                        }
                        continue;
                    }
                    request(random.nextInt(s.keys), due >= t0);
                }
            } finally {
                for (Socket sk : sockets) {
                    close(sk);
                }
                close(ringd);
                done.countDown();
            }
        }

        /** One request; before time 0 (the JIT warm-up) nothing is recorded or logged. */
        void request(int k, boolean measured) {
            long start = System.nanoTime();
            String answer;
            try {
                answer = route(k);
            } catch (IOException e) {
                close(ringd);
                ringd = null;
                fail(e, measured);
                return;
            }
            long routed = System.nanoTime();
            String id = text(answer, "node");
            int nd = Arrays.binarySearch(nodes, id);
            if (nd < 0) {
                fail(new IOException("GET /route answered " + answer), measured);
                return;
            }
            if (measured && number(answer, "version") != version) {
                otherVersion++;
            }
            long get;
            long set = -1;
            try {
                long g = System.nanoTime();
                boolean hit = get(nd, keys[k]);
                get = System.nanoTime() - g;
                if (measured) {
                    client.recordLatency(id, get);
                }
                if (hit) {
                    hits += measured ? 1 : 0;
                } else {
                    long st = System.nanoTime();
                    set(nd, keys[k]);
                    set = System.nanoTime() - st;
                    if (measured) {
                        client.recordLatency(id, set);
                    }
                }
            } catch (IOException e) {
                close(sockets[nd]);
                sockets[nd] = null;
                fail(e, measured);
                return;
            }
            if (!measured) {
                return;
            }
            if (n == at.length) {
                grow();
            }
            at[n] = start - t0;
            key[n] = k;
            node[n] = (byte) nd;
            skipped[n] = (byte) Math.min(127, (int) number(answer, "skipped"));
            getNanos[n] = get;
            setNanos[n] = set;
            routeNanos[n] = routed - start;
            n++;
        }

        /**
         * GET /route/{key}?bound=c on the worker's keep-alive connection (made again when the
         * server closed it): the body of the 200.
         */
        String route(int k) throws IOException {
            if (ringd == null) {
                ringd = new Socket();
                ringd.setTcpNoDelay(true);
                ringd.connect(ringdAddress, 2000);
                ringd.setSoTimeout(5000);
                ringdIn = new BufferedInputStream(ringd.getInputStream());
                ringdOut = new BufferedOutputStream(ringd.getOutputStream());
            }
            ringdOut.write(routeRequests[k]);
            ringdOut.flush();
            String status = readLine(ringdIn);
            int length = -1;
            boolean chunked = false;
            boolean closes = false;
            for (String h; !(h = readLine(ringdIn)).isEmpty();) {
                String lower = h.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    length = Integer.parseInt(lower.substring(15).trim());
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                } else if (lower.startsWith("connection:") && lower.contains("close")) {
                    closes = true;
                }
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream(128);
            if (chunked) {
                for (int size; (size = Integer.parseInt(readLine(ringdIn).split(";")[0].trim(), 16)) > 0;) {
                    body.write(ringdIn.readNBytes(size));
                    readLine(ringdIn);
                }
                readLine(ringdIn);
            } else if (length >= 0) {
                body.write(ringdIn.readNBytes(length));
            } else {
                throw new IOException("GET /route answered without a length: " + status);
            }
            if (closes) {
                close(ringd);
                ringd = null;
            }
            String text = body.toString(StandardCharsets.UTF_8);
            if (!status.startsWith("HTTP/1.1 200")) {
                throw new IOException("GET /route answered " + status + ": " + text);
            }
            return text;
        }

        void fail(Exception e, boolean measured) {
            if (!measured) {
                return;
            }
            failed++;
            if (failure == null) {
                failure = e.toString();
            }
        }

        void grow() {
            int m = at.length * 2;
            at = Arrays.copyOf(at, m);
            key = Arrays.copyOf(key, m);
            node = Arrays.copyOf(node, m);
            skipped = Arrays.copyOf(skipped, m);
            getNanos = Arrays.copyOf(getNanos, m);
            setNanos = Arrays.copyOf(setNanos, m);
            routeNanos = Arrays.copyOf(routeNanos, m);
        }

        // memcached's text protocol, one request in flight per socket

        boolean get(int nd, String k) throws IOException {
            OutputStream o = connect(nd);
            o.write(("get " + k + "\r\n").getBytes(StandardCharsets.US_ASCII));
            o.flush();
            InputStream in = ins[nd];
            String line = readLine(in);
            if (line.equals("END")) {
                return false;
            }
            if (!line.startsWith("VALUE ")) {
                throw new IOException("get answered: " + line);
            }
            int bytes = Integer.parseInt(line.substring(line.lastIndexOf(' ') + 1));
            if (in.readNBytes(bytes + 2).length != bytes + 2) {
                throw new IOException("get: the value was cut short");
            }
            String end = readLine(in);
            if (!end.equals("END")) {
                throw new IOException("get answered: " + end);
            }
            return true;
        }

        void set(int nd, String k) throws IOException {
            OutputStream o = connect(nd);
            o.write(("set " + k + " 0 0 " + VALUE_BYTES + "\r\n").getBytes(StandardCharsets.US_ASCII));
            o.write(value);
            o.write(new byte[] {'\r', '\n'});
            o.flush();
            String line = readLine(ins[nd]);
            if (!line.equals("STORED")) {
                throw new IOException("set answered: " + line);
            }
        }

        OutputStream connect(int nd) throws IOException {
            if (sockets[nd] == null) {
                Socket sk = new Socket();
                sk.setTcpNoDelay(true);
                sk.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), ports.get(nodes[nd])), 2000);
                sk.setSoTimeout(5000);
                sockets[nd] = sk;
                ins[nd] = new BufferedInputStream(sk.getInputStream());
                outs[nd] = new BufferedOutputStream(sk.getOutputStream());
            }
            return outs[nd];
        }

        void close(Socket sk) {
            if (sk != null) {
                try {
                    sk.close();
                } catch (IOException e) {
                    // closing
                }
            }
        }
    }

    // ------------------------------------------------------------------ the analysis

    private void analyse(Worker[] workers, List<double[]> loads, RingClient ring) throws IOException {
        int total = 0;
        long late = 0;
        long failed = 0;
        long otherVersion = 0;
        long hits = 0;
        for (Worker w : workers) {
            total += w.n;
            late += w.late;
            failed += w.failed;
            otherVersion += w.otherVersion;
            hits += w.hits;
            if (w.failure != null && !facts.containsKey("firstFailure")) {
                facts.put("firstFailure", w.failure);
            }
        }
        // every request, in time order: indexes into the merged arrays
        long[] at = new long[total];
        int[] key = new int[total];
        byte[] nd = new byte[total];
        byte[] skipped = new byte[total];
        long[] get = new long[total];
        long[] set = new long[total];
        long[] route = new long[total];
        int i = 0;
        for (Worker w : workers) {
            System.arraycopy(w.at, 0, at, i, w.n);
            System.arraycopy(w.key, 0, key, i, w.n);
            System.arraycopy(w.node, 0, nd, i, w.n);
            System.arraycopy(w.skipped, 0, skipped, i, w.n);
            System.arraycopy(w.getNanos, 0, get, i, w.n);
            System.arraycopy(w.setNanos, 0, set, i, w.n);
            System.arraycopy(w.routeNanos, 0, route, i, w.n);
            i += w.n;
        }
        int[] order = java.util.stream.IntStream.range(0, total).boxed()
                .sorted((a, b) -> Long.compare(at[a], at[b])).mapToInt(Integer::intValue).toArray();
        put("requests", total);
        put("lateSlotsSkipped", late);
        put("failedRequests", failed);
        put("hits", hits);

        double[] loadVersions = loads.stream().mapToDouble(r -> r[1]).toArray();
        boolean loadsSame = Arrays.stream(loadVersions).allMatch(v -> v == version);
        put("routeAnswersOtherVersion", otherVersion);
        put("loadsReads", loads.size());
        facts.put("loadsVersionsSame", String.valueOf(loadsSame));
        facts.put("membershipUnchanged", String.valueOf(otherVersion == 0 && loadsSame
                && facts.get("versionAfter").equals(String.valueOf(version))
                && facts.get("fingerprintSame").equals("true")));

        int secs = s.duration;
        int n = nodes.length;
        long[][] count = new long[secs][n];
        long[] all = new long[secs];
        long[] skippedCount = new long[secs];
        List<List<List<Long>>> ops = new ArrayList<>();
        List<List<Long>> routeTimes = new ArrayList<>();
        for (int t = 0; t < secs; t++) {
            List<List<Long>> perNode = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                perNode.add(new ArrayList<>());
            }
            ops.add(perNode);
            routeTimes.add(new ArrayList<>());
        }
        // quarter-second bins of the slow node's share, for the times
        int quarters = secs * 4;
        long[] qAll = new long[quarters];
        long[] qSlow = new long[quarters];
        for (int r = 0; r < total; r++) {
            int t = (int) (at[r] / 1_000_000_000L);
            if (t < 0 || t >= secs) {
                continue;
            }
            count[t][nd[r]]++;
            all[t]++;
            if (skipped[r] > 0) {
                skippedCount[t]++;
            }
            ops.get(t).get(nd[r]).add(get[r]);
            if (set[r] >= 0) {
                ops.get(t).get(nd[r]).add(set[r]);
            }
            routeTimes.get(t).add(route[r]);
            int q = (int) (at[r] / 250_000_000L);
            qAll[q]++;
            if (nd[r] == slow) {
                qSlow[q]++;
            }
        }

        // the base: the slow node's share between the warm-up and the slow-down
        long baseAll = 0;
        long baseSlow = 0;
        for (int t = s.warm; t < s.slowFrom; t++) {
            baseAll += all[t];
            baseSlow += count[t][slow];
        }
        double baseShare = (double) baseSlow / baseAll;
        facts.put("baseShare", f("%.5f", baseShare));
        double slowOn = Double.parseDouble(facts.get("slowOnAt"));
        double slowOff = Double.parseDouble(facts.get("slowOffAt"));
        // first quarter second starting after the slow-down whose share is below half the base
        double halfAt = Double.NaN;
        for (int q = (int) Math.ceil(slowOn * 4); q < quarters; q++) {
            if (qAll[q] > 0 && (double) qSlow[q] / qAll[q] < baseShare / 2) {
                halfAt = (q + 1) / 4.0;
                break;
            }
        }
        facts.put("belowHalfAfter", f("%.2f", halfAt - slowOn));
        // first whole second starting after the recovery whose share is within 10 % of the base, and stays
        // there for the rest of the run
        double backAt = Double.NaN;
        double firstWithin = Double.NaN;
        for (int t = (int) Math.ceil(slowOff); t < secs; t++) {
            double share = (double) count[t][slow] / all[t];
            boolean within = Math.abs(share - baseShare) <= 0.1 * baseShare;
            if (within && Double.isNaN(firstWithin)) {
                firstWithin = t + 1;
            }
            if (within && Double.isNaN(backAt)) {
                backAt = t + 1;
            } else if (!within) {
                backAt = Double.NaN;
            }
        }
        facts.put("withinTenPercentAfter", Double.isNaN(firstWithin) ? "never" : f("%.0f", firstWithin - slowOff));
        facts.put("withinTenPercentToTheEndAfter", Double.isNaN(backAt) ? "never" : f("%.0f", backAt - slowOff));
        // slow share during the slow period, whole seconds from the first below half to the recovery
        long slowPeriodAll = 0;
        long slowPeriodSlow = 0;
        for (int t = (int) Math.ceil(halfAt); t < (int) Math.floor(slowOff); t++) {
            slowPeriodAll += all[t];
            slowPeriodSlow += count[t][slow];
        }
        facts.put("shareWhileSlow", f("%.5f", (double) slowPeriodSlow / Math.max(1, slowPeriodAll)));

        // the loads: when the slow node was over its bound (load > c * mean), as intervals of GET /loads
        // reads: start, end (NaN: to the end of the run), its load and the bound at the start, its last
        // request before the start and its first after the end (NaN: none), each within a read's 250 ms
        double c = Double.parseDouble(s.bound);
        List<double[]> over = new ArrayList<>();
        double[] open = null;
        for (double[] row : loads) {
            boolean isOver = row[3 + slow] > c * row[2] + 1e-12;
            if (isOver && open == null) {
                open = new double[] {row[0], Double.NaN, row[3 + slow], c * row[2], Double.NaN, Double.NaN};
            } else if (!isOver && open != null) {
                open[1] = row[0];
                over.add(open);
                open = null;
            }
        }
        if (open != null) {
            over.add(open);
        }
        long[] toSlow = Arrays.stream(order).filter(r -> nd[r] == slow).mapToLong(r -> at[r]).toArray();
        long tolerance = TimeUnit.MILLISECONDS.toNanos(250); // GET /loads is read every 250 ms
        for (double[] o : over) {
            long from = (long) (o[0] * 1e9) + tolerance;
            long until = Double.isNaN(o[1]) ? Long.MAX_VALUE : (long) (o[1] * 1e9) - tolerance;
            for (long t : toSlow) {
                if (t <= from) {
                    o[4] = t / 1e9;
                } else if (t >= until) {
                    o[5] = t / 1e9;
                    break;
                }
            }
        }
        StringBuilder overText = new StringBuilder();
        for (double[] o : over) {
            overText.append(overText.length() == 0 ? "" : ";")
                    .append(f("%.2f,%.2f,%.3f,%.3f,%.2f,%.2f", o[0], o[1], o[2], o[3], o[4], o[5]));
        }
        facts.put("slowOverBound", overText.toString());
        // healthy nodes over their bound at any read
        long healthyOver = 0;
        for (double[] row : loads) {
            for (int j = 0; j < n; j++) {
                if (j != slow && row[3 + j] > c * row[2] + 1e-12) {
                    healthyOver++;
                }
            }
        }
        put("healthyOverBoundReads", healthyOver);

        // the moves: each key's node at its requests, in time order; a key's own node is its plain route
        int[] own = new int[s.keys];
        int[] second = new int[s.keys];
        int ownKeys = 0;
        for (int k = 0; k < s.keys; k++) {
            List<String> p = ring.preference(keys[k], 2);
            own[k] = Arrays.binarySearch(nodes, p.get(0));
            second[k] = Arrays.binarySearch(nodes, p.get(1));
            ownKeys += own[k] == slow ? 1 : 0;
        }
        int[] owner = new int[s.keys];
        Arrays.fill(owner, -1);
        int[] awayTo = new int[n];
        int awayMoves = 0;
        int awayBefore = 0;
        int awayKeys = 0;
        int awayOwnKeys = 0;
        int awayToSecond = 0;
        int backWhileSlow = 0;
        int backAfter = 0;
        int backAfterKeys = 0;
        int backAfterOwnKeys = 0;
        int lateral = 0;
        int[] lateralByPhase = new int[3];
        boolean[] awaySeen = new boolean[s.keys];
        boolean[] backSeen = new boolean[s.keys];
        boolean[] lateralSeen = new boolean[s.keys];
        double firstAway = Double.NaN;
        double firstBackAfter = Double.NaN;
        List<String> moves = new ArrayList<>();
        moves.add("t,key,from,to,kind");
        for (int o : order) {
            int k = key[o];
            int was = owner[k];
            int now = nd[o];
            owner[k] = now;
            if (was < 0 || was == now) {
                continue;
            }
            double t = at[o] / 1e9;
            String kind;
            if (was == slow) {
                kind = "away";
                awayMoves++;
                if (t < slowOn) {
                    awayBefore++;
                } else if (!awaySeen[k]) {
                    awaySeen[k] = true;
                    awayKeys++;
                    awayOwnKeys += own[k] == slow ? 1 : 0;
                    awayTo[now]++;
                    awayToSecond += now == second[k] ? 1 : 0;
                    if (Double.isNaN(firstAway)) {
                        firstAway = t;
                    }
                }
            } else if (now == slow) {
                kind = "back";
                if (t < slowOff) {
                    backWhileSlow++;
                } else {
                    backAfter++;
                    if (!backSeen[k]) {
                        backSeen[k] = true;
                        backAfterKeys++;
                        backAfterOwnKeys += own[k] == slow ? 1 : 0;
                    }
                    if (Double.isNaN(firstBackAfter)) {
                        firstBackAfter = t;
                    }
                }
            } else {
                kind = "lateral";
                lateral++;
                lateralSeen[k] = true;
                lateralByPhase[t < slowOn ? 0 : t < slowOff ? 1 : 2]++;
            }
            moves.add(f("%.3f,%s,%s,%s,%s", t, keys[k], nodes[was], nodes[now], kind));
        }
        write(out.resolve("moves.csv"), moves);
        put("keysOfSlowNode", ownKeys);
        put("movesAway", awayMoves);
        put("movesAwayBeforeSlow", awayBefore);
        put("keysMovedAway", awayKeys);
        put("keysMovedAwayOwn", awayOwnKeys);
        for (int j = 0; j < n; j++) {
            if (j != slow) {
                put("keysMovedAwayTo." + nodes[j], awayTo[j]);
            }
        }
        put("keysMovedAwayToSecondChoice", awayToSecond);
        facts.put("firstAwayAfter", f("%.3f", firstAway - slowOn));
        put("movesBackWhileSlow", backWhileSlow);
        put("movesBackAfterRecovery", backAfter);
        put("keysMovedBackAfterRecovery", backAfterKeys);
        put("keysMovedBackAfterRecoveryOwn", backAfterOwnKeys);
        facts.put("firstBackAfterRecovery", Double.isNaN(firstBackAfter) ? "never"
                : f("%.3f", firstBackAfter - slowOff));
        put("movesLateral", lateral);
        put("keysMovedLateral", count(lateralSeen));
        put("movesLateralBaseline", lateralByPhase[0]);
        put("movesLateralWhileSlow", lateralByPhase[1]);
        put("movesLateralAfter", lateralByPhase[2]);
        int endOnSlow = 0;
        int endElsewhere = 0;
        for (int k = 0; k < s.keys; k++) {
            if (own[k] == slow && owner[k] >= 0) {
                if (owner[k] == slow) {
                    endOnSlow++;
                } else {
                    endElsewhere++;
                }
            }
        }
        put("keysOfSlowNodeOnItAtTheEnd", endOnSlow);
        put("keysOfSlowNodeElsewhereAtTheEnd", endElsewhere);

        // latencies the instances saw: p99 of the baseline and of the slow period, per node
        for (int j = 0; j < n; j++) {
            List<Long> b = new ArrayList<>();
            for (int t = s.warm; t < s.slowFrom; t++) {
                b.addAll(ops.get(t).get(j));
            }
            facts.put("baselineP99Ms." + nodes[j], f("%.3f", p99(b) / 1e6));
        }
        List<Long> routeAll = new ArrayList<>();
        routeTimes.forEach(routeAll::addAll);
        facts.put("routeP99Ms", f("%.3f", p99(routeAll) / 1e6));

        // one row a second
        List<String> csv = new ArrayList<>();
        StringBuilder head = new StringBuilder("t,slow,requests,skipped_share");
        for (String id : nodes) {
            head.append(",share_").append(id);
        }
        for (String id : nodes) {
            head.append(",load_").append(id);
        }
        head.append(",mean_load,limit");
        for (String id : nodes) {
            head.append(",p99ms_").append(id);
        }
        head.append(",route_p99ms,version");
        csv.add(head.toString());
        for (int t = 0; t < secs; t++) {
            StringBuilder row = new StringBuilder();
            boolean isSlow = t + 0.5 >= slowOn && t + 0.5 < slowOff;
            row.append(t).append(',').append(isSlow ? 1 : 0).append(',').append(all[t]).append(',')
                    .append(f("%.4f", (double) skippedCount[t] / Math.max(1, all[t])));
            for (int j = 0; j < n; j++) {
                row.append(',').append(f("%.4f", (double) count[t][j] / Math.max(1, all[t])));
            }
            double[] last = null;
            for (double[] l : loads) {
                if (l[0] >= t && l[0] < t + 1) {
                    last = l;
                }
            }
            for (int j = 0; j < n; j++) {
                row.append(',').append(last == null ? "" : f("%.4f", last[3 + j]));
            }
            row.append(',').append(last == null ? "" : f("%.4f", last[2])).append(',')
                    .append(last == null ? "" : f("%.4f", c * last[2]));
            for (int j = 0; j < n; j++) {
                List<Long> l = ops.get(t).get(j);
                row.append(',').append(l.isEmpty() ? "" : f("%.3f", p99(l) / 1e6));
            }
            row.append(',').append(f("%.3f", p99(routeTimes.get(t)) / 1e6)).append(',')
                    .append(last == null ? "" : String.valueOf((long) last[1]));
            csv.add(row.toString());
        }
        write(out.resolve("seconds.csv"), csv);
        List<String> loadRows = new ArrayList<>();
        StringBuilder lh = new StringBuilder("t,version,mean");
        for (String id : nodes) {
            lh.append(",load_").append(id);
        }
        loadRows.add(lh.toString());
        for (double[] l : loads) {
            StringBuilder row = new StringBuilder(f("%.3f,%d,%.4f", l[0], (long) l[1], l[2]));
            for (int j = 0; j < n; j++) {
                row.append(',').append(f("%.4f", l[3 + j]));
            }
            loadRows.add(row.toString());
        }
        write(out.resolve("loads.csv"), loadRows);
        long achievedMin = Long.MAX_VALUE;
        for (int t = 1; t < secs; t++) {
            achievedMin = Math.min(achievedMin, all[t]);
        }
        put("requestsPerSecondMin", achievedMin);
        facts.put("requestsPerSecondMean", f("%.0f", (double) total / secs));
    }

    private List<String> summary() {
        List<String> l = new ArrayList<>();
        String slowId = facts.get("slow");
        l.add(f("slow node: %s, %s ms added to each answer from t = %s s to t = %s s (set at %s and %s)", slowId,
                facts.get("delayMs"), facts.get("slowFrom"), facts.get("slowUntil"), facts.get("slowOnAt"),
                facts.get("slowOffAt")));
        l.add(f("workload: %s application instances x %s threads, %s requests a second over %s keys (uniform), "
                + "GET /route/{key}?bound=%s, then memcached get (set on a miss); reports every %s ms; %s s",
                facts.get("apps"), facts.get("workers"), facts.get("rate"), facts.get("keys"), facts.get("bound"),
                facts.get("reportMs"), facts.get("duration")));
        l.add(f("requests: %s (%s a second on average, at least %s in any second after the first); %s late slots "
                + "skipped, %s failed; GET /route p99 %s ms", facts.get("requests"),
                facts.get("requestsPerSecondMean"), facts.get("requestsPerSecondMin"),
                facts.get("lateSlotsSkipped"), facts.get("failedRequests"), facts.get("routeP99Ms")));
        l.add(f("membership unchanged: %s (version %s throughout: %s route answers at another version, %s GET "
                + "/loads reads all at it: %s, the ring at the end version %s, same fingerprint: %s)",
                facts.get("membershipUnchanged"), facts.get("version"), facts.get("routeAnswersOtherVersion"),
                facts.get("loadsReads"), facts.get("loadsVersionsSame"), facts.get("versionAfter"),
                facts.get("fingerprintSame")));
        l.add(f("%s's share: %s of the ring (exact ownership), %s of the requests at base (t = %s..%s s), %s while "
                + "slow", slowId, facts.get("ownership." + slowId), facts.get("baseShare"), facts.get("warm"),
                facts.get("slowFrom"), facts.get("shareWhileSlow")));
        StringBuilder to = new StringBuilder();
        for (String id : facts.get("nodes").split(",")) {
            if (facts.containsKey("keysMovedAwayTo." + id)) {
                to.append(to.length() == 0 ? "" : ", ").append(id).append(' ')
                        .append(facts.get("keysMovedAwayTo." + id));
            }
        }
        l.add(f("away: %s keys moved off %s after it slowed (%s of them its own, of the %s keys it owns; to %s; "
                + "%s to the second node of their preference list); first move %s s after the slow-down, its "
                + "share below half the base %s s after; %s moves off it before the slow-down",
                facts.get("keysMovedAway"), slowId, facts.get("keysMovedAwayOwn"), facts.get("keysOfSlowNode"), to,
                facts.get("keysMovedAwayToSecondChoice"), facts.get("firstAwayAfter"), facts.get("belowHalfAfter"),
                facts.get("movesAwayBeforeSlow")));
        l.add(f("%s over its bound (GET /loads, load > c x mean; from, until, its load and the bound then, ms, and "
                + "its requests stopped and started again, s): %s", slowId, facts.get("slowOverBound")));
        l.add(f("back: %s moves to %s while it was still slow; after the recovery %s keys moved back (%s of them "
                + "its own; %s moves), the first %s s after it; its share within 10 %% of the base from %s s after "
                + "the recovery (and to the end from %s s after)", facts.get("movesBackWhileSlow"), slowId,
                facts.get("keysMovedBackAfterRecovery"), facts.get("keysMovedBackAfterRecoveryOwn"),
                facts.get("movesBackAfterRecovery"),
                facts.get("firstBackAfterRecovery"), facts.get("withinTenPercentAfter"),
                facts.get("withinTenPercentToTheEndAfter")));
        l.add(f("at the end (each key's node at its last request): %s of %s's own keys on it, %s elsewhere",
                facts.get("keysOfSlowNodeOnItAtTheEnd"), slowId, facts.get("keysOfSlowNodeElsewhereAtTheEnd")));
        l.add(f("between healthy nodes: %s moves of %s keys (%s before the slow-down, %s while slow, %s after); "
                + "healthy nodes over their bound in %s of %s GET /loads reads x nodes", facts.get("movesLateral"),
                facts.get("keysMovedLateral"), facts.get("movesLateralBaseline"), facts.get("movesLateralWhileSlow"),
                facts.get("movesLateralAfter"), facts.get("healthyOverBoundReads"), facts.get("loadsReads")));
        StringBuilder p99 = new StringBuilder();
        for (String id : facts.get("nodes").split(",")) {
            p99.append(p99.length() == 0 ? "" : ", ").append(id).append(' ').append(facts.get("baselineP99Ms." + id));
        }
        l.add("memcached p99 at base, ms, as the instances saw it: " + p99);
        l.add(f("load average: %s before, %s after; followers at the end: %s", facts.get("loadAverageBefore"),
                facts.get("loadAverageAfter"), facts.get("followersAtEnd")));
        return l;
    }

    // ------------------------------------------------------------------ helpers

    private String send(HttpRequest.Builder b) throws IOException, InterruptedException {
        HttpResponse<String> r = admin.send(b.timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IOException(r.request().method() + " " + r.uri().getPath() + " answered " + r.statusCode()
                    + ": " + r.body());
        }
        return r.body();
    }

    private void sleepUntil(int second) throws InterruptedException {
        long wait = t0 + TimeUnit.SECONDS.toNanos(second) - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }

    private double seconds(long nanos) {
        return (nanos - t0) / 1e9;
    }

    private void put(String key, long value) {
        facts.put(key, String.valueOf(value));
    }

    /** A JSON number field of a flat answer; -1 when absent. */
    static long number(String json, String field) {
        String v = text(json, field);
        return v.isEmpty() ? -1 : Long.parseLong(v);
    }

    /** The text of a JSON field (a string's content, or a number as written); empty when absent. */
    static String text(String json, String field) {
        String key = "\"" + field + "\":";
        int i = json.indexOf(key);
        if (i < 0) {
            return "";
        }
        i += key.length();
        if (json.charAt(i) == '"') {
            return json.substring(i + 1, json.indexOf('"', i + 1));
        }
        int j = i;
        while (j < json.length() && "0123456789.eE+-".indexOf(json.charAt(j)) >= 0) {
            j++;
        }
        return json.substring(i, j);
    }

    static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        for (int b; (b = in.read()) >= 0;) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int len = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, len, StandardCharsets.US_ASCII);
            }
            line.write(b);
        }
        throw new IOException("connection closed");
    }

    static double p99(List<Long> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        long[] v = values.stream().mapToLong(Long::longValue).sorted().toArray();
        return v[(int) Math.ceil(0.99 * v.length) - 1];
    }

    static int count(boolean[] b) {
        int c = 0;
        for (boolean x : b) {
            c += x ? 1 : 0;
        }
        return c;
    }

    static String loadAverage() throws IOException {
        String[] w = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
        return w[0] + " " + w[1] + " " + w[2];
    }

    static void write(Path file, List<String> lines) throws IOException {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            lines.forEach(w::println);
        }
    }

    static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    static void log(String what) {
        System.out.println("[slow-node] " + what);
    }
}
