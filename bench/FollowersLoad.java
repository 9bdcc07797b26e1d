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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
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
        /** Shorter than the server's keep-alive timeout (server.tomcat.keep-alive-timeout, 20 s). */
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

    public static void main(String[] args) throws Exception {
        switch (args.length > 0 ? args[0] : "") {
            case "report" -> report(args);
            case "probe" -> probe(args);
            default -> {
                System.err.println("usage: java bench/FollowersLoad.java report CONTROL FOLLOWERS PERIOD_S BASE[,BASE...]"
                        + " [ID_PREFIX] | probe PROBES V1:FP1 V2:FP2 BASE,BASE[,BASE...]");
                System.exit(2);
            }
        }
    }
}
