import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lightweight followers of one ring, without a thread each: the reports go out
 * on a few keep-alive connections driven by one selector thread ({@link Wire}),
 * paced by one timer thread. Run by bench/followers.sh and bench/followers-zk.sh:
 *
 * <pre>
 *   java bench/FollowersLoad.java report CONTROL FOLLOWERS PERIOD_S BASE[,BASE...] [ID_PREFIX]
 * </pre>
 *
 * reports every id once (at most 64 in flight; prints "ready ..."), then each id every
 * PERIOD_S seconds, spread evenly (FOLLOWERS / PERIOD_S reports a second, paced every
 * 10 ms), each with the ring's current version and fingerprint (GET /ring of the first
 * base every 250 ms, with If-None-Match). Follower i reports to BASE number i % bases.
 * The first word of the file CONTROL says what to do: run (report), peer (send GET
 * /settings instead, at the same rate: the peer of a report), pause (send nothing),
 * stop (exit); its second word labels the phase. When it changes, a line for the phase
 * that ended:
 *
 * <pre>
 *   phase LABEL STATE seconds S reports N ok N failed N rate R/s p50 X ms p99 X ms max X ms
 * </pre>
 *
 * <pre>
 *   java bench/FollowersLoad.java probe PROBES V1:FP1 V2:FP2 BASE,BASE[,BASE...]
 * </pre>
 *
 * measures how soon another instance shows a report: follower "-probe-p" (sorted first)
 * reports to BASE p, alternating between the kept versions V1 and V2, and BASE p+1's
 * GET /followers is read every 10 ms until it shows the new version; prints each probe's
 * milliseconds from sending the report to the answer that shows it, then p50/p99/max.
 *
 * <pre>
 *   java bench/FollowersLoad.java converge BASE TOKEN FOLLOWERS COMMITS WARM_UP INTERVAL_MS SERVER_PID
 * </pre>
 *
 * (bench/followers-converge.sh): each follower holds GET /ring/events open (java.net.http
 * line subscribers, two threads for all the streams) and, on the snapshot and on each
 * change event, reports its version and fingerprint (on the {@link Wire}), taking for itself
 * now - committedAt when it sends the report and when its 204 comes back. Then WARM_UP
 * commits not counted and COMMITS counted, one every INTERVAL_MS: PUT /nodes/c-N with the
 * admin token and, right after its answer, GET /followers/converged?version=V&wait=PT30S,
 * timed from the commit's answer to converged:true. The server's
 * ringd_follower_apply_seconds{ring="default"} is scraped before and after the counted
 * commits and its p50/p99 interpolated in the buckets (as Prometheus's histogram_quantile),
 * beside the followers' own, exact and in the same buckets; and the CPU the server and this
 * harness spent over the counted commits.
 */
public class FollowersLoad {

    static final Pattern VERSION = Pattern.compile("\"version\":(\\d+)");
    static final Pattern FINGERPRINT = Pattern.compile("\"fingerprint\":\"([0-9a-f]{64})\"");

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .executor(Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "answers");
                t.setDaemon(true);
                return t;
            })).build();

    /** The reports of one phase and their latencies. */
    static final class Phase {
        final String label;
        final String state;
        final long startNanos = System.nanoTime();
        long[] nanos = new long[1 << 14];
        int n;
        long ok;
        long failed;
        long sent;
        final TreeMap<Integer, Integer> statuses = new TreeMap<>();

        Phase(String label, String state) {
            this.label = label;
            this.state = state;
        }

        synchronized void done(long latency, int status) {
            if (n == nanos.length) {
                nanos = Arrays.copyOf(nanos, n * 2);
            }
            nanos[n++] = latency;
            if (status >= 200 && status < 300) {
                ok++;
            } else {
                failed++;
                statuses.merge(status, 1, Integer::sum);
            }
        }

        synchronized String line(String what) {
            double seconds = (System.nanoTime() - startNanos) / 1e9;
            long[] sorted = Arrays.copyOf(nanos, n);
            Arrays.sort(sorted);
            return String.format("%s %s %s seconds %.1f reports %d ok %d failed %d%s rate %.1f/s p50 %.2f ms "
                    + "p99 %.2f ms max %.2f ms", what, label, state, seconds, sent, ok, failed,
                    statuses.isEmpty() ? "" : " " + statuses, sent / seconds, ms(sorted, 0.50), ms(sorted, 0.99),
                    n == 0 ? 0.0 : sorted[n - 1] / 1e6);
        }
    }

    static double ms(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)] / 1e6;
    }

    // ------------------------------------------------------------------ report

    static volatile long version = -1;
    static volatile String fingerprint;
    static volatile String etag;

    static void readRing(String base) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/ring")).timeout(Duration.ofSeconds(5));
            if (etag != null) {
                b.header("If-None-Match", etag);
            }
            HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200) {
                Matcher v = VERSION.matcher(r.body());
                Matcher f = FINGERPRINT.matcher(r.body());
                if (v.find() && f.find()) {
                    fingerprint = f.group(1);
                    version = Long.parseLong(v.group(1));
                    etag = r.headers().firstValue("ETag").orElse(null);
                }
            }
        } catch (IOException e) {
            System.err.println("GET /ring: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A report through java.net.http (the probe's, a few a second). */
    static CompletableFuture<Void> send(String base, String id, long v, String fp, Phase phase) {
        HttpRequest r = HttpRequest.newBuilder(URI.create(base + "/followers/" + id)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"version\":" + v + ",\"fingerprint\":\"" + fp + "\"}"))
                .build();
        long t0 = System.nanoTime();
        synchronized (phase) {
            phase.sent++;
        }
        return HTTP.sendAsync(r, HttpResponse.BodyHandlers.discarding())
                .handle((resp, e) -> {
                    phase.done(System.nanoTime() - t0, resp == null ? -1 : resp.statusCode());
                    return null;
                });
    }

    /** A request to send on the wire: its bytes, when it was due, the phase it counts in. */
    static final class Job {
        final int base;
        final byte[] bytes;
        final long t0 = System.nanoTime();
        final Phase phase;
        final Runnable then;
        int retries;

        Job(int base, byte[] bytes, Phase phase, Runnable then) {
            this.base = base;
            this.bytes = bytes;
            this.phase = phase;
            this.then = then;
        }
    }

    /**
     * The reports' client: plain HTTP/1.1 on CONNECTIONS keep-alive connections per base,
     * one request at a time on each, all on one selector thread. java.net.http costs
     * about 0.4 ms of CPU a request here, which the server being measured would lose; this
     * costs a tenth of it. A request waits in its base's queue for a free connection (its
     * latency counts from when it was due); a connection idle for 15 s is opened anew
     * before it is used, and a request the server closed the connection under is sent
     * again, up to three times.
     */
    static final class Wire implements Runnable {
        static final int CONNECTIONS = 32;
        /** Shorter than the server's keep-alive timeout (server.jetty.connection-idle-timeout, 20 s). */
        static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(15);
        final Selector selector;
        final InetSocketAddress[] addresses;
        final String[] hosts;
        final ConcurrentLinkedQueue<Job> submitted = new ConcurrentLinkedQueue<>();
        final List<ArrayDeque<Job>> waiting = new ArrayList<>();
        final List<ArrayDeque<Conn>> idle = new ArrayList<>();

        final class Conn {
            final int base;
            SocketChannel channel;
            SelectionKey key;
            ByteBuffer out;
            ByteBuffer in = ByteBuffer.allocate(16 * 1024);
            Job job;
            boolean open;
            long usedAt = System.nanoTime();

            Conn(int base) {
                this.base = base;
            }

            void connect() throws IOException {
                channel = SocketChannel.open();
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                open = channel.connect(addresses[base]);
                usedAt = System.nanoTime();
                key = channel.register(selector, open ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT, this);
                in.clear();
            }
        }

        Wire(String[] bases) throws IOException {
            selector = Selector.open();
            addresses = new InetSocketAddress[bases.length];
            hosts = new String[bases.length];
            for (int b = 0; b < bases.length; b++) {
                URI u = URI.create(bases[b]);
                addresses[b] = new InetSocketAddress(u.getHost(), u.getPort());
                hosts[b] = u.getHost() + ":" + u.getPort();
                waiting.add(new ArrayDeque<>());
                ArrayDeque<Conn> free = new ArrayDeque<>();
                for (int i = 0; i < CONNECTIONS; i++) {
                    Conn c = new Conn(b);
                    c.connect();
                    if (c.open) {
                        free.add(c);
                    }
                }
                idle.add(free);
            }
            Thread t = new Thread(this, "wire");
            t.setDaemon(true);
            t.start();
        }

        void submit(Job job) {
            submitted.add(job);
            selector.wakeup();
        }

        byte[] put(int base, String id, long v, String fp) {
            String body = "{\"version\":" + v + ",\"fingerprint\":\"" + fp + "\"}";
            return ("PUT /followers/" + id + " HTTP/1.1\r\nHost: " + hosts[base]
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body)
                    .getBytes(StandardCharsets.US_ASCII);
        }

        byte[] get(int base, String path) {
            return ("GET " + path + " HTTP/1.1\r\nHost: " + hosts[base] + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
        }

        @Override
        public void run() {
            while (true) {
                try {
                    selector.select(10);
                    for (Job j; (j = submitted.poll()) != null;) {
                        waiting.get(j.base).add(j);
                    }
                    for (SelectionKey k : selector.selectedKeys()) {
                        Conn c = (Conn) k.attachment();
                        try {
                            if (k.isValid() && k.isConnectable()) {
                                c.channel.finishConnect();
                                c.open = true;
                                k.interestOps(SelectionKey.OP_READ);
                                idle.get(c.base).add(c);
                            } else if (k.isValid() && k.isWritable()) {
                                write(c);
                            } else if (k.isValid() && k.isReadable()) {
                                read(c);
                            }
                        } catch (IOException e) {
                            broken(c);
                        }
                    }
                    selector.selectedKeys().clear();
                    for (int b = 0; b < waiting.size(); b++) {
                        ArrayDeque<Job> w = waiting.get(b);
                        ArrayDeque<Conn> free = idle.get(b);
                        while (!w.isEmpty() && !free.isEmpty()) {
                            Conn c = free.poll();
                            if (System.nanoTime() - c.usedAt > IDLE_NANOS) { // the server may be closing it
                                reopen(c);
                                continue;
                            }
                            c.usedAt = System.nanoTime();
                            c.job = w.poll();
                            c.out = ByteBuffer.wrap(c.job.bytes);
                            try {
                                write(c);
                            } catch (IOException e) {
                                broken(c);
                            }
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    System.err.println("wire: " + e);
                }
            }
        }

        void write(Conn c) throws IOException {
            c.channel.write(c.out);
            c.key.interestOps(c.out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        }

        void read(Conn c) throws IOException {
            if (!c.in.hasRemaining()) {
                c.in = ByteBuffer.allocate(c.in.capacity() * 2).put(c.in.flip());
            }
            if (c.channel.read(c.in) < 0) {
                throw new IOException("closed by the server");
            }
            if (c.job == null) {
                return; // not asked for
            }
            int[] answer = parse(c.in.array(), c.in.position());
            if (answer == null) {
                return;
            }
            Job j = c.job;
            c.job = null;
            j.phase.done(System.nanoTime() - j.t0, answer[0]);
            if (j.then != null) {
                j.then.run();
            }
            if (answer[1] == 1) { // Connection: close
                reopen(c);
            } else {
                c.in.clear();
                idle.get(c.base).add(c);
            }
        }

        void broken(Conn c) {
            Job j = c.job;
            c.job = null;
            if (j != null) {
                if (j.retries < 3 && c.in.position() == 0) {
                    j.retries++;
                    waiting.get(j.base).addFirst(j);
                } else {
                    j.phase.done(System.nanoTime() - j.t0, -1);
                    if (j.then != null) {
                        j.then.run();
                    }
                }
            }
            idle.get(c.base).remove(c);
            reopen(c);
        }

        void reopen(Conn c) {
            try {
                c.key.cancel();
                c.channel.close();
                c.open = false;
                c.connect();
                if (c.open) {
                    idle.get(c.base).add(c);
                }
            } catch (IOException e) {
                System.err.println("wire: cannot reconnect: " + e);
            }
        }

        /** {status, close} once a whole answer is in {@code b[0, n)}, else null. */
        static int[] parse(byte[] b, int n) {
            int end = -1;
            for (int i = 3; i < n; i++) {
                if (b[i] == '\n' && b[i - 1] == '\r' && b[i - 2] == '\n' && b[i - 3] == '\r') {
                    end = i + 1;
                    break;
                }
            }
            if (end < 0 || n < 12) {
                return null;
            }
            int status = (b[9] - '0') * 100 + (b[10] - '0') * 10 + (b[11] - '0');
            String head = new String(b, 0, end, StandardCharsets.US_ASCII).toLowerCase(java.util.Locale.ROOT);
            int close = head.contains("\r\nconnection: close") ? 1 : 0;
            if (status == 204 || status == 304) {
                return new int[] {status, close};
            }
            int cl = head.indexOf("\r\ncontent-length:");
            if (cl >= 0) {
                int from = cl + 17;
                int to = head.indexOf("\r\n", from);
                int length = Integer.parseInt(head.substring(from, to).trim());
                return n >= end + length ? new int[] {status, close} : null;
            }
            if (head.contains("\r\ntransfer-encoding: chunked")) {
                int p = end;
                while (true) {
                    int line = -1;
                    for (int i = p + 1; i < n; i++) {
                        if (b[i] == '\n' && b[i - 1] == '\r') {
                            line = i - 1;
                            break;
                        }
                    }
                    if (line < 0) {
                        return null;
                    }
                    String size = new String(b, p, line - p, StandardCharsets.US_ASCII);
                    int semi = size.indexOf(';');
                    int length = Integer.parseInt((semi >= 0 ? size.substring(0, semi) : size).trim(), 16);
                    p = line + 2 + length + 2; // the chunk and its CRLF (after the last chunk, the final CRLF)
                    if (length == 0) {
                        return n >= p ? new int[] {status, close} : null;
                    }
                    if (n < p) {
                        return null;
                    }
                }
            }
            return new int[] {status, 1}; // ends with the connection
        }
    }

    static String[] control(Path file) {
        try {
            String text = Files.readString(file).trim();
            if (text.isEmpty()) {
                return null; // caught half written
            }
            String[] w = text.split("\\s+");
            return new String[] {w[0], w.length > 1 ? w[1] : "-"};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static void report(String[] args) throws Exception {
        Path control = Path.of(args[1]);
        int followers = Integer.parseInt(args[2]);
        int period = Integer.parseInt(args[3]);
        String[] bases = args[4].split(",");
        String prefix = args.length > 5 ? args[5] : "f-";
        String[] ids = new String[followers];
        for (int i = 0; i < followers; i++) {
            ids[i] = String.format("%s%05d", prefix, i);
        }
        readRing(bases[0]);
        if (fingerprint == null) {
            throw new IllegalStateException("no ring at " + bases[0]);
        }
        ScheduledExecutorService ring = Executors.newSingleThreadScheduledExecutor();
        ring.scheduleWithFixedDelay(() -> readRing(bases[0]), 250, 250, TimeUnit.MILLISECONDS);
        Wire wire = new Wire(bases);

        Phase first = new Phase("first", "run");
        Semaphore inFlight = new Semaphore(64);
        for (int i = 0; i < followers; i++) {
            inFlight.acquire();
            int b = i % bases.length;
            synchronized (first) {
                first.sent++;
            }
            wire.submit(new Job(b, wire.put(b, ids[i], version, fingerprint), first, inFlight::release));
        }
        inFlight.acquire(64); // every answer in
        System.out.println(first.line("ready"));
        System.out.flush();

        double perNano = (double) followers / period / 1e9;
        long[] cursor = {0};
        String[] read = control(control);
        String[] state = read != null ? read : new String[] {"run", "-"};
        Phase[] phase = {new Phase(state[1], state[0])};
        long[] runStart = {System.nanoTime()};
        long[] sentThisRun = {0};
        long[] lastRead = {0};
        CountDownLatch stopped = new CountDownLatch(1);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(); // paces the reports
        timer.scheduleAtFixedRate(() -> {
            long now = System.nanoTime();
            if (now - lastRead[0] > 100_000_000L) { // the control file, every 100 ms
                lastRead[0] = now;
                String[] c = control(control);
                if (c != null && (!c[0].equals(state[0]) || !c[1].equals(state[1]))) {
                    System.out.println(phase[0].line("phase"));
                    System.out.flush();
                    state[0] = c[0];
                    state[1] = c[1];
                    phase[0] = new Phase(c[1], c[0]);
                    runStart[0] = now;
                    sentThisRun[0] = 0;
                    if (c[0].equals("stop")) {
                        stopped.countDown();
                        return;
                    }
                }
            }
            boolean peer = state[0].equals("peer");
            if (!peer && !state[0].equals("run")) {
                return;
            }
            long due = (long) ((now - runStart[0]) * perNano);
            long v = version;
            String fp = fingerprint;
            Phase p = phase[0];
            while (sentThisRun[0] < due) {
                int i = (int) (cursor[0]++ % followers);
                int b = i % bases.length;
                p.sent++; // this thread alone adds to it
                wire.submit(new Job(b, peer ? wire.get(b, "/settings") : wire.put(b, ids[i], v, fp), p, null));
                sentThisRun[0]++;
            }
        }, 10, 10, TimeUnit.MILLISECONDS);
        stopped.await();
        Thread.sleep(500); // the last answers
        System.exit(0);
    }

    // ------------------------------------------------------------------ probe

    static void probe(String[] args) throws Exception {
        int probes = Integer.parseInt(args[1]);
        String[] v1 = args[2].split(":");
        String[] v2 = args[3].split(":");
        String[] bases = args[4].split(",");
        int n = bases.length;
        long[] reported = new long[n];
        List<Double> times = new ArrayList<>();
        List<Double> puts = new ArrayList<>();
        for (int k = -n; k < probes; k++) { // the first n prime each probe follower, not counted
            int p = Math.floorMod(k, n);
            String id = "-probe-" + p;
            String[] v = k < 0 || reported[p] == Long.parseLong(v1[0]) ? v2 : v1;
            long t0 = System.nanoTime();
            Phase one = new Phase("probe", "run");
            send(bases[p], id, Long.parseLong(v[0]), v[1], one).get(10, TimeUnit.SECONDS);
            if (one.ok != 1) {
                throw new IllegalStateException("probe report refused: " + one.line("probe"));
            }
            double put = (System.nanoTime() - t0) / 1e6;
            reported[p] = Long.parseLong(v[0]);
            String from = bases[(p + 1) % n];
            Pattern shows = Pattern.compile("\"id\":\"" + Pattern.quote(id) + "\",\"version\":" + v[0] + ",");
            long deadline = t0 + TimeUnit.SECONDS.toNanos(10);
            double seen = -1;
            while (System.nanoTime() < deadline) {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(from + "/followers?limit="
                        + (n + 1))).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200 && shows.matcher(r.body()).find()) {
                    seen = (System.nanoTime() - t0) / 1e6;
                    break;
                }
                Thread.sleep(10);
            }
            if (k >= 0) {
                times.add(seen < 0 ? Double.POSITIVE_INFINITY : seen);
                puts.add(put);
                System.out.printf("probe %d: %s -> %s, version %s: report answered in %.1f ms, shown after %.1f ms%n",
                        k, bases[p], from, v[0], put, seen);
            }
            Thread.sleep(ThreadLocalRandom.current().nextInt(100, 400)); // not in step with the posts
        }
        double[] t = times.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double[] q = puts.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        System.out.printf("probes %d: report to one instance -> shown by another's GET /followers: p50 %.1f ms, "
                + "p99 %.1f ms, max %.1f ms, over 2 s: %d; the report's own answer p50 %.1f ms%n", t.length,
                pick(t, 0.50), pick(t, 0.99), t[t.length - 1], Arrays.stream(t).filter(x -> x > 2000).count(),
                pick(q, 0.50));
        System.exit(t[t.length - 1] <= 2000 ? 0 : 1);
    }

    static double pick(double[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }

    // ------------------------------------------------------------------ converge

    static final Pattern COMMITTED = Pattern.compile("\"committedAt\":\"([^\"]+)\"");
    static final Pattern BUCKET = Pattern.compile(
            "^ringd_follower_apply_seconds_bucket\\{[^}]*ring=\"default\"[^}]*le=\"([^\"]+)\"[^}]*} (\\S+)$");
    static final Pattern SUM_COUNT = Pattern.compile(
            "^ringd_follower_apply_seconds_(sum|count)\\{[^}]*ring=\"default\"[^}]*} (\\S+)$");

    /** Version to each follower's milliseconds from committedAt, at sending its report and at its 204 (NaN: none). */
    static final Map<Long, double[]> atSend = new ConcurrentHashMap<>();
    static final Map<Long, double[]> atAnswer = new ConcurrentHashMap<>();
    static final AtomicInteger following = new AtomicInteger();
    static final AtomicInteger streamsEnded = new AtomicInteger();

    static double[] slots(Map<Long, double[]> m, long version, int followers) {
        return m.computeIfAbsent(version, v -> {
            double[] a = new double[followers];
            Arrays.fill(a, Double.NaN);
            return a;
        });
    }

    /** Milliseconds since the epoch, to the microsecond. */
    static double nowMillis() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1000.0 + now.getNano() / 1e6;
    }

    /** One follower: the lines of its stream, its reports. */
    static final class Follower implements Flow.Subscriber<String> {
        final int index;
        final int followers;
        final String id;
        final Wire wire;
        final Phase reports;
        final Semaphore opening;
        String event = "";
        String data = "";

        Follower(int index, int followers, Wire wire, Phase reports, Semaphore opening) {
            this.index = index;
            this.followers = followers;
            this.id = String.format("f-%05d", index);
            this.wire = wire;
            this.reports = reports;
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
                    apply(event.equals("change"), data);
                }
                event = "";
                data = "";
            }
        }

        void apply(boolean change, String json) {
            Matcher v = VERSION.matcher(json);
            Matcher f = FINGERPRINT.matcher(json);
            Matcher c = COMMITTED.matcher(json);
            if (!v.find() || !f.find() || !c.find()) {
                System.err.println(id + ": an event without version, fingerprint or committedAt: " + json);
                return;
            }
            long version = Long.parseLong(v.group(1));
            double committed = Instant.parse(c.group(1)).toEpochMilli();
            synchronized (reports) {
                reports.sent++;
            }
            if (change) {
                slots(atSend, version, followers)[index] = nowMillis() - committed;
            }
            wire.submit(new Job(0, wire.put(0, id, version, f.group(1)), reports, () -> {
                if (change) {
                    slots(atAnswer, version, followers)[index] = nowMillis() - committed;
                } else {
                    following.incrementAndGet();
                    opening.release();
                }
            }));
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

    static HttpResponse<String> call(HttpRequest.Builder b) throws Exception {
        return HTTP.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The server's apply-time buckets (le to cumulative count); {@code sumCount} gets _sum and _count. */
    static TreeMap<Double, Double> scrape(String base, double[] sumCount) throws Exception {
        TreeMap<Double, Double> buckets = new TreeMap<>();
        for (String line : call(HttpRequest.newBuilder(URI.create(base + "/actuator/prometheus"))).body().split("\n")) {
            Matcher m = BUCKET.matcher(line);
            if (m.matches()) {
                buckets.put(m.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(1)),
                        Double.parseDouble(m.group(2)));
            }
            Matcher s = SUM_COUNT.matcher(line);
            if (s.matches()) {
                sumCount[s.group(1).equals("sum") ? 0 : 1] = Double.parseDouble(s.group(2));
            }
        }
        return buckets;
    }

    /** As Prometheus's histogram_quantile: linear within the bucket that holds the q-th observation. */
    static double quantile(TreeMap<Double, Double> cumulative, double q) {
        double target = q * cumulative.lastEntry().getValue();
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

    /** CPU seconds (user + system) of a process, from /proc. */
    static double cpu(String pid) throws IOException {
        String[] f = Files.readString(Path.of("/proc/" + pid + "/stat")).replaceFirst("^.*\\) ", "").split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // fields 14 and 15; USER_HZ is 100
    }

    /** CPU seconds of each thread of a process, by name (a trailing number dropped), from /proc. */
    static Map<String, Double> threads(String pid) throws IOException {
        Map<String, Double> out = new TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String name = Files.readString(t.resolve("comm")).trim().replaceFirst("-\\d+$", "");
                    out.merge(name, cpu(pid + "/task/" + t.getFileName()), Double::sum);
                } catch (IOException e) {
                    // the thread ended
                }
            }
        }
        return out;
    }

    static double[] values(Map<Long, double[]> m, List<Long> versions) {
        return versions.stream().flatMapToDouble(v -> Arrays.stream(m.getOrDefault(v, new double[0])))
                .filter(d -> !Double.isNaN(d)).sorted().toArray();
    }

    static void converge(String[] args) throws Exception {
        String base = args[1];
        String token = args[2];
        int followers = Integer.parseInt(args[3]);
        int commits = Integer.parseInt(args[4]);
        int warmUp = Integer.parseInt(args[5]);
        long interval = Long.parseLong(args[6]);
        String server = args[7];
        Wire wire = new Wire(new String[] {base});
        Phase reports = new Phase("reports", "run");
        HttpClient streams = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .executor(Executors.newFixedThreadPool(2, r -> {
                    Thread t = new Thread(r, "streams");
                    t.setDaemon(true);
                    return t;
                })).build();

        long t0 = System.nanoTime();
        Semaphore opening = new Semaphore(100); // at most 100 streams opening at once
        for (int i = 0; i < followers; i++) {
            opening.acquire();
            streams.sendAsync(HttpRequest.newBuilder(URI.create(base + "/ring/events")).build(),
                    HttpResponse.BodyHandlers.fromLineSubscriber(new Follower(i, followers, wire, reports, opening)));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (following.get() < followers && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        if (following.get() < followers) {
            throw new IllegalStateException("only " + following.get() + " of " + followers + " followed");
        }
        System.out.printf("%d followers following, their snapshots reported, in %.1f s%n", followers,
                (System.nanoTime() - t0) / 1e9);

        double[] sumCountBefore = new double[2];
        TreeMap<Double, Double> before = null;
        double[] cpuBefore = null;
        Map<String, Double> threadsBefore = Map.of();
        List<Double> converge = new ArrayList<>();
        List<Long> counted = new ArrayList<>();
        int notConverged = 0;
        for (int k = 0; k < warmUp + commits; k++) {
            if (k == warmUp) {
                Thread.sleep(500);
                before = scrape(base, sumCountBefore);
                cpuBefore = new double[] {cpu(server), cpu("self"), System.nanoTime() / 1e9};
                threadsBefore = threads(server);
            }
            long start = System.nanoTime();
            HttpResponse<String> put = call(HttpRequest.newBuilder(URI.create(base + "/nodes/c-" + (k % 10)))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"weight\":" + (1 + k % 7) + "}")));
            long answered = System.nanoTime();
            Matcher v = VERSION.matcher(put.body());
            if (put.statusCode() / 100 != 2 || !v.find()) {
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
            System.out.printf("commit %d%s: version %d, answered in %.1f ms, converged %s %.1f ms after: %s%n", k,
                    k < warmUp ? " (warm-up)" : "", version, (answered - start) / 1e6, ok, ms, c.body());
            long rest = interval - (System.nanoTime() - start) / 1_000_000;
            if (rest > 0) {
                Thread.sleep(rest);
            }
        }
        double[] cpuAfter = {cpu(server), cpu("self"), System.nanoTime() / 1e9};
        Map<String, Double> threadsAfter = threads(server);
        Thread.sleep(500);
        double[] sumCountAfter = new double[2];
        TreeMap<Double, Double> after = scrape(base, sumCountAfter);
        TreeMap<Double, Double> delta = new TreeMap<>();
        for (Map.Entry<Double, Double> e : after.entrySet()) {
            delta.put(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0.0));
        }
        double count = sumCountAfter[1] - sumCountBefore[1];
        double sum = sumCountAfter[0] - sumCountBefore[0];

        double[] conv = converge.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double[] s = values(atSend, counted);
        double[] a = values(atAnswer, counted);
        TreeMap<Double, Double> binned = new TreeMap<>(); // the followers' own times in the server's buckets
        for (double le : delta.keySet()) {
            binned.put(le, (double) Arrays.stream(s).filter(x -> x / 1000 <= le).count());
        }
        double seconds = cpuAfter[2] - cpuBefore[2];
        System.out.printf("commit answered -> converged:true, %d commits: p50 %.1f ms, p99 %.1f ms, max %.1f ms; "
                + "not converged %d%n", conv.length, pick(conv, 0.5), pick(conv, 0.99), conv[conv.length - 1],
                notConverged);
        System.out.printf("followers' own, committedAt -> sending the report, %d reports (%d expected): p50 %.1f ms, "
                + "p99 %.1f ms, max %.1f ms, mean %.1f ms; in the server's buckets p50 %.1f ms, p99 %.1f ms%n",
                s.length, counted.size() * followers, pick(s, 0.5), pick(s, 0.99), s[s.length - 1],
                Arrays.stream(s).average().orElse(0), quantile(binned, 0.5) * 1000, quantile(binned, 0.99) * 1000);
        System.out.printf("followers' own, committedAt -> the report's 204, %d reports: p50 %.1f ms, p99 %.1f ms, "
                + "max %.1f ms, mean %.1f ms%n", a.length, pick(a, 0.5), pick(a, 0.99), a[a.length - 1],
                Arrays.stream(a).average().orElse(0));
        System.out.printf("server's ringd_follower_apply_seconds{ring=\"default\"}, bucket deltas: %.0f observations, "
                + "p50 %.1f ms, p99 %.1f ms (interpolated), mean %.1f ms%n", count, quantile(delta, 0.5) * 1000,
                quantile(delta, 0.99) * 1000, count == 0 ? 0 : sum / count * 1000);
        System.out.printf("CPU over the %d counted commits (%.1f s): server %.2f s (%.0f ms a commit), followers' "
                + "harness %.2f s (%.0f ms a commit)%n", commits, seconds, cpuAfter[0] - cpuBefore[0],
                (cpuAfter[0] - cpuBefore[0]) * 1000 / commits, cpuAfter[1] - cpuBefore[1],
                (cpuAfter[1] - cpuBefore[1]) * 1000 / commits);
        Map<String, Double> before0 = threadsBefore;
        System.out.println("the server's threads over them, ms a commit: " + threadsAfter.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), (e.getValue() - before0.getOrDefault(e.getKey(), 0.0)) * 1000 / commits))
                .filter(e -> e.getValue() >= 1).sorted((x, y) -> Double.compare(y.getValue(), x.getValue())).limit(8)
                .map(e -> String.format("%s %.0f", e.getKey(), e.getValue())).reduce((x, y) -> x + ", " + y).orElse("-"));
        System.out.println(reports.line("reports"));
        System.out.printf("streams ended %d%n", streamsEnded.get());
        System.exit(reports.failed == 0 && notConverged == 0 && streamsEnded.get() == 0 ? 0 : 1);
    }

    public static void main(String[] args) throws Exception {
        switch (args.length > 0 ? args[0] : "") {
            case "report" -> report(args);
            case "probe" -> probe(args);
            case "converge" -> converge(args);
            default -> {
                System.err.println("usage: java bench/FollowersLoad.java report CONTROL FOLLOWERS PERIOD_S BASE[,BASE...]"
                        + " [ID_PREFIX] | probe PROBES V1:FP1 V2:FP2 BASE,BASE[,BASE...]"
                        + " | converge BASE TOKEN FOLLOWERS COMMITS WARM_UP INTERVAL_MS SERVER_PID");
                System.exit(2);
            }
        }
    }
}
