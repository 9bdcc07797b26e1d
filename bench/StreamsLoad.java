import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Lightweight readers of GET /ring/events for bench/fanout.sh and bench/fanout-cluster.sh: N streams
 * held open by one thread on one selector (not a thread per stream), each decoding the chunked answer
 * and the server-sent events, and timestamping every change event it receives. Single-file program:
 *
 * <pre>
 *   java bench/StreamsLoad.java BASE STREAMS OPEN_PER_SECOND CONTROL_DIR [ADDRESSES]
 * </pre>
 *
 * Opens STREAMS streams to BASE/ring/events at OPEN_PER_SECOND, prints "open N" once all answered
 * 200, then reads until the file CONTROL_DIR/stop appears (or 30 minutes pass). Each change event's
 * delay is its receipt (wall clock) less its committedAt; on stop it writes CONTROL_DIR/delays.csv
 * (version,streams,p50ms,p99ms,maxms) and CONTROL_DIR/receipts.csv (version,delayms: a line a
 * receipt, so that the delays of several harnesses can be merged), and prints a summary line, "lost"
 * counting streams that missed a version between their first and last. The file CONTROL_DIR/reset
 * clears what was recorded so far (a phase boundary); CONTROL_DIR/close-all closes every stream at
 * once and CONTROL_DIR/reopen opens them again with Last-Event-ID (a reconnect storm), printing
 * "reopened N in T ms".
 *
 * ADDRESSES (optional): host or host:port, comma-separated; stream i connects to the (i mod n)-th of
 * them instead of BASE's host and port (its Host header stays BASE's), so that more streams than one
 * destination has ephemeral ports (about 28,000) can be spread over several addresses a load
 * balancer listens on.
 */
public class StreamsLoad {

    static final long MAX_RUN_NANOS = TimeUnit.MINUTES.toNanos(30);

    /** One stream's decoding state. */
    static final class Stream {
        final int index;
        SocketChannel channel;
        final StringBuilder head = new StringBuilder();
        boolean headDone;
        boolean chunked;
        long chunkLeft = -1; // -1: reading a chunk-size line
        final StringBuilder sizeLine = new StringBuilder();
        int skipCrlf;
        final StringBuilder line = new StringBuilder();
        /** A body line cut by the end of a read: its first bytes (the fields read here come early). */
        final byte[] part = new byte[256];
        int partLength;
        String event;
        long id;
        long lastVersion = -1;
        long firstVersion = -1;
        int status;
        boolean open;

        Stream(int index) {
            this.index = index;
        }
    }

    final URI base;
    final InetSocketAddress[] addresses;
    final Path control;
    final Selector selector;
    final List<Stream> streams = new ArrayList<>();
    final ByteBuffer in = ByteBuffer.allocateDirect(64 * 1024);
    final byte[] bytes = new byte[64 * 1024];
    final Map<Long, long[]> delays = new HashMap<>(); // version -> delays (ms), grown as needed
    final Map<Long, Integer> counts = new HashMap<>();
    int answered;
    int failed;
    final Map<String, Integer> failures = new TreeMap<>(); // why streams failed to open
    int garbled;
    long lost;

    StreamsLoad(URI base, InetSocketAddress[] addresses, Path control) throws IOException {
        this.base = base;
        this.addresses = addresses;
        this.control = control;
        this.selector = Selector.open();
    }

    public static void main(String[] args) throws Exception {
        URI base = URI.create(args[0]);
        int n = Integer.parseInt(args[1]);
        int perSecond = Integer.parseInt(args[2]);
        Path control = Path.of(args[3]);
        InetSocketAddress[] addresses = args.length > 4 && !args[4].isBlank()
                ? Arrays.stream(args[4].split(",")).map(a -> address(a.strip(), base.getPort()))
                        .toArray(InetSocketAddress[]::new)
                : new InetSocketAddress[] {new InetSocketAddress(base.getHost(), base.getPort())};
        Files.createDirectories(control);
        new StreamsLoad(base, addresses, control).run(n, perSecond);
    }

    /** host or host:port, the port BASE's when not given. */
    static InetSocketAddress address(String a, int defaultPort) {
        int colon = a.lastIndexOf(':');
        return colon < 0 ? new InetSocketAddress(a, defaultPort)
                : new InetSocketAddress(a.substring(0, colon), Integer.parseInt(a.substring(colon + 1)));
    }

    void run(int n, int perSecond) throws Exception {
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            streams.add(new Stream(i));
        }
        openAll(perSecond, false);
        System.out.println("open " + answered + " failed " + failed);
        printFailures();
        System.out.flush();
        while (System.nanoTime() - start < MAX_RUN_NANOS) {
            selectOnce(200);
            if (Files.exists(control.resolve("reset"))) {
                Files.delete(control.resolve("reset"));
                delays.clear();
                counts.clear();
                lost = 0;
                System.out.println("reset");
                System.out.flush();
            }
            if (Files.exists(control.resolve("close-all"))) {
                Files.delete(control.resolve("close-all"));
                for (Stream s : streams) {
                    close(s);
                }
                System.out.println("closed " + streams.size());
                System.out.flush();
            }
            if (Files.exists(control.resolve("reopen"))) {
                Files.delete(control.resolve("reopen"));
                long t0 = System.nanoTime();
                answered = 0;
                failed = 0;
                failures.clear();
                openAll(perSecond, true);
                System.out.println(String.format("reopened %d failed %d in %d ms", answered, failed,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0))); // one write: the script greps it
                printFailures();
                System.out.flush();
            }
            if (Files.exists(control.resolve("stop"))) {
                break;
            }
        }
        report();
    }

    /**
     * Opens every stream not open, OPEN_PER_SECOND a second (0: all at once), until all answered. The
     * rate is a ceiling: a harness that fell behind (its CPU taken by others) opens at most 10 ms'
     * worth of streams between two selects rather than all it owes at once, which would leave
     * thousands of connections without their request for seconds (a proxy answers 408 to those).
     */
    void openAll(int perSecond, boolean resume) throws IOException {
        long t0 = System.nanoTime();
        int next = 0;
        long deadline = t0 + TimeUnit.MINUTES.toNanos(5);
        int burst = perSecond <= 0 ? streams.size() : Math.max(1, perSecond / 100);
        while ((next < streams.size() || answered + failed < streams.size()) && System.nanoTime() < deadline) {
            long due = perSecond <= 0 ? streams.size()
                    : Math.min(streams.size(), (System.nanoTime() - t0) * perSecond / 1_000_000_000L + 1);
            for (int b = 0; next < due && b < burst; b++) {
                connect(streams.get(next++), resume);
            }
            selectOnce(5);
        }
    }

    /** Why streams failed to open, when some did: "failures: reason count, ...". */
    void printFailures() {
        if (!failures.isEmpty()) {
            StringBuilder b = new StringBuilder("failures:");
            failures.forEach((reason, c) -> b.append(' ').append(reason).append(" x").append(c).append(';'));
            System.out.println(b);
        }
    }

    void fail(String reason) {
        failed++;
        failures.merge(reason, 1, Integer::sum);
    }

    void connect(Stream s, boolean resume) throws IOException {
        s.head.setLength(0);
        s.headDone = false;
        s.chunked = false;
        s.chunkLeft = -1;
        s.sizeLine.setLength(0);
        s.skipCrlf = 0;
        s.line.setLength(0);
        s.partLength = 0;
        s.status = 0;
        SocketChannel c = SocketChannel.open();
        c.configureBlocking(false);
        c.setOption(StandardSocketOptions.TCP_NODELAY, true);
        c.setOption(StandardSocketOptions.SO_RCVBUF, 8 * 1024);
        c.connect(addresses[s.index % addresses.length]);
        s.channel = c;
        s.open = true;
        String request = "GET " + base.getPath() + "/ring/events HTTP/1.1\r\nHost: " + base.getHost() + ":"
                + base.getPort() + "\r\nAccept: text/event-stream\r\n"
                + (resume && s.lastVersion >= 0 ? "Last-Event-ID: " + s.lastVersion + "\r\n" : "") + "\r\n";
        c.register(selector, SelectionKey.OP_CONNECT, new Object[] {s, ByteBuffer.wrap(
                request.getBytes(StandardCharsets.ISO_8859_1))});
    }

    void selectOnce(long millis) throws IOException {
        selector.select(millis);
        for (SelectionKey k : selector.selectedKeys()) {
            Object[] att = (Object[]) k.attachment();
            Stream s = (Stream) att[0];
            try {
                if (k.isConnectable()) {
                    s.channel.finishConnect();
                    k.interestOps(SelectionKey.OP_WRITE);
                } else if (k.isWritable()) {
                    ByteBuffer req = (ByteBuffer) att[1];
                    s.channel.write(req);
                    if (!req.hasRemaining()) {
                        k.interestOps(SelectionKey.OP_READ);
                    }
                } else if (k.isReadable()) {
                    read(s, k);
                }
            } catch (IOException | RuntimeException e) { // a stream that cannot be read on is closed
                if (e instanceof RuntimeException) {
                    garbled++;
                }
                if (s.status == 0) {
                    fail(e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"));
                }
                k.cancel();
                close(s);
            }
        }
        selector.selectedKeys().clear();
    }

    /**
     * Reads what the connection has: one read a readiness, unless it filled the buffer (the selector
     * reports the rest again), since a second read that finds nothing costs a system call per event.
     */
    void read(Stream s, SelectionKey k) throws IOException {
        long now = System.currentTimeMillis();
        while (true) {
            in.clear();
            int r = s.channel.read(in);
            if (r < 0) {
                if (s.status == 0) {
                    fail("closed before an answer");
                }
                k.cancel();
                close(s);
                return;
            }
            in.flip();
            in.get(bytes, 0, r);
            int i = 0;
            while (i < r && !s.headDone) {
                feed(s, bytes[i++], now);
            }
            if (i < r && !s.chunked) {
                body(s, bytes, i, r, now); // delimited by the close: the events' bytes as they are
            } else {
                for (; i < r; i++) {
                    feed(s, bytes[i], now);
                }
            }
            if (r < in.capacity()) {
                return;
            }
        }
    }

    /**
     * The bytes {@code b[from, to)} of an answer's body that is not chunked: whole lines are read in
     * place, only a line cut by the end of a read is copied (its first 256 bytes: the fields read here
     * come early).
     */
    void body(Stream s, byte[] b, int from, int to, long now) {
        int start = from;
        for (int i = from; i < to; i++) {
            if (b[i] != '\n') {
                continue;
            }
            if (s.partLength > 0) {
                append(s, b, start, i);
                line(s, s.part, 0, s.partLength, now);
                s.partLength = 0;
            } else {
                line(s, b, start, i, now);
            }
            start = i + 1;
        }
        if (start < to) {
            append(s, b, start, to);
        }
    }

    static void append(Stream s, byte[] b, int from, int to) {
        int n = Math.min(to - from, s.part.length - s.partLength);
        System.arraycopy(b, from, s.part, s.partLength, n);
        s.partLength += n;
    }

    static final byte[] EVENT = "event:".getBytes(StandardCharsets.US_ASCII);
    static final byte[] ID = "id:".getBytes(StandardCharsets.US_ASCII);
    static final byte[] DATA = "data:".getBytes(StandardCharsets.US_ASCII);
    static final byte[] COMMITTED = "\"committedAt\":\"".getBytes(StandardCharsets.US_ASCII);
    /** The last committedAt read and its value: every stream carries the same one for a version. */
    final byte[] lastCommitted = new byte[32];
    int lastCommittedLength = -1;
    long lastCommittedMillis;

    /** One line of the event stream, {@code b[from, to)} without its newline. */
    void line(Stream s, byte[] b, int from, int to, long now) {
        if (to == from) {
            s.event = null;
        } else if (starts(b, from, to, EVENT)) {
            s.event = new String(b, from + EVENT.length, to - from - EVENT.length, StandardCharsets.US_ASCII);
        } else if (starts(b, from, to, ID)) {
            long id = 0;
            for (int i = from + ID.length; i < to; i++) {
                id = id * 10 + (b[i] - '0');
            }
            s.id = id;
        } else if (starts(b, from, to, DATA) && "change".equals(s.event)) {
            int at = find(b, from, Math.min(to, from + 256), COMMITTED);
            if (at >= 0) {
                int f = at + COMMITTED.length;
                int end = f;
                while (end < to && b[end] != '"') {
                    end++;
                }
                record(s, s.id, now - committedMillis(b, f, end));
            }
        } else if (starts(b, from, to, DATA) && "snapshot".equals(s.event)) {
            s.lastVersion = s.id;
        }
    }

    long committedMillis(byte[] b, int from, int to) {
        int n = to - from;
        if (n != lastCommittedLength || !Arrays.equals(b, from, to, lastCommitted, 0, n)) {
            lastCommittedMillis = Instant.parse(new String(b, from, n, StandardCharsets.US_ASCII)).toEpochMilli();
            System.arraycopy(b, from, lastCommitted, 0, Math.min(n, lastCommitted.length));
            lastCommittedLength = n <= lastCommitted.length ? n : -1;
        }
        return lastCommittedMillis;
    }

    static boolean starts(byte[] b, int from, int to, byte[] prefix) {
        return to - from >= prefix.length && Arrays.equals(b, from, from + prefix.length, prefix, 0, prefix.length);
    }

    static int find(byte[] b, int from, int to, byte[] what) {
        outer:
        for (int i = from; i <= to - what.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (b[i + j] != what[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** One byte of the answer: the head, then the chunk framing, then the events. */
    void feed(Stream s, byte b, long now) {
        char ch = (char) (b & 0xff);
        if (!s.headDone) {
            s.head.append(ch);
            int n = s.head.length();
            if (n >= 4 && s.head.charAt(n - 1) == '\n' && s.head.charAt(n - 2) == '\r' && s.head.charAt(n - 3) == '\n'
                    && s.head.charAt(n - 4) == '\r') {
                s.headDone = true;
                String h = s.head.toString();
                s.status = Integer.parseInt(h.substring(9, 12));
                s.chunked = h.toLowerCase().contains("transfer-encoding: chunked");
                if (s.status == 200) {
                    answered++;
                } else {
                    fail("status " + s.status);
                }
                s.head.setLength(0);
            }
            return;
        }
        if (!s.chunked) {
            event(s, ch, now);
            return;
        }
        if (s.skipCrlf > 0) {
            s.skipCrlf--;
            return;
        }
        if (s.chunkLeft < 0) {
            if (ch == '\n') {
                String size = s.sizeLine.toString().strip();
                s.sizeLine.setLength(0);
                if (size.isEmpty()) {
                    return; // the blank line after the last chunk
                }
                int semi = size.indexOf(';');
                s.chunkLeft = Long.parseLong(semi < 0 ? size : size.substring(0, semi), 16);
                s.sizeLine.setLength(0);
                if (s.chunkLeft == 0) {
                    s.chunkLeft = -1; // the last chunk: the server ended the stream
                }
            } else {
                s.sizeLine.append(ch);
            }
            return;
        }
        event(s, ch, now);
        if (--s.chunkLeft == 0) {
            s.chunkLeft = -1;
            s.skipCrlf = 2;
        }
    }

    /** One character of the event stream (ASCII is enough for the fields read here). */
    void event(Stream s, char ch, long now) {
        if (ch != '\n') {
            if (s.line.length() < 256) { // only the fields' starts are read: committedAt comes early
                s.line.append(ch);
            }
            return;
        }
        String l = s.line.toString();
        s.line.setLength(0);
        if (l.isEmpty()) {
            s.event = null;
            return;
        }
        if (l.startsWith("event:")) {
            s.event = l.substring(6);
        } else if (l.startsWith("id:")) {
            s.id = Long.parseLong(l.substring(3));
        } else if (l.startsWith("data:") && "change".equals(s.event)) {
            int at = l.indexOf("\"committedAt\":\"");
            if (at >= 0) {
                int from = at + 15;
                long committed = Instant.parse(l.substring(from, l.indexOf('"', from))).toEpochMilli();
                record(s, s.id, now - committed);
            }
        } else if (l.startsWith("data:") && "snapshot".equals(s.event)) {
            s.lastVersion = s.id;
        }
    }

    void record(Stream s, long version, long delayMs) {
        if (s.lastVersion >= 0 && version > s.lastVersion + 1 && s.firstVersion >= 0) {
            lost += version - s.lastVersion - 1;
        }
        if (s.firstVersion < 0) {
            s.firstVersion = version;
        }
        s.lastVersion = version;
        long[] d = delays.computeIfAbsent(version, v -> new long[16]);
        int c = counts.getOrDefault(version, 0);
        if (c == d.length) {
            d = Arrays.copyOf(d, d.length * 2);
            delays.put(version, d);
        }
        d[c] = delayMs;
        counts.put(version, c + 1);
    }

    void close(Stream s) {
        if (s.open) {
            s.open = false;
            try {
                s.channel.close();
            } catch (IOException e) {
                // closing
            }
        }
    }

    void report() throws IOException {
        List<Long> versions = new ArrayList<>(counts.keySet());
        versions.sort(null);
        StringBuilder csv = new StringBuilder("version,streams,p50ms,p99ms,maxms\n");
        StringBuilder receipts = new StringBuilder("version,delayms\n");
        List<Long> all = new ArrayList<>();
        long[] p99s = new long[versions.size()];
        int i = 0;
        for (long v : versions) {
            int c = counts.get(v);
            long[] d = Arrays.copyOf(delays.get(v), c);
            Arrays.sort(d);
            csv.append(v).append(',').append(c).append(',').append(rank(d, 0.50)).append(',')
                    .append(rank(d, 0.99)).append(',').append(d[c - 1]).append('\n');
            p99s[i++] = rank(d, 0.99);
            for (long x : d) {
                all.add(x);
                receipts.append(v).append(',').append(x).append('\n');
            }
        }
        Files.writeString(control.resolve("delays.csv"), csv);
        Files.writeString(control.resolve("receipts.csv"), receipts);
        long[] a = all.stream().mapToLong(Long::longValue).sorted().toArray();
        PrintStream out = System.out;
        if (a.length == 0) {
            out.println("events 0");
        } else {
            Arrays.sort(p99s);
            out.println(String.format("events %d versions %d streams-open %d lost %d garbled %d delay ms p50 %d p99 %d "
                    + "max %d; per version p99: median %d max %d", a.length, versions.size(),
                    streams.stream().filter(s -> s.open).count(), lost, garbled, rank(a, 0.5), rank(a, 0.99), a[a.length - 1],
                    p99s[p99s.length / 2], p99s[p99s.length - 1]));
        }
        out.flush();
    }

    /** The nearest-rank quantile q of sorted values. */
    static long rank(long[] sorted, double q) {
        int r = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, r - 1)];
    }
}
