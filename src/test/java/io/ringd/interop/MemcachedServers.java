package io.ringd.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Real memcached servers (Debian's {@code /usr/bin/memcached}) on loopback addresses, and the
 * text protocol spoken to each of them directly: what a server holds, and emptying it.
 *
 * <p>The first {@link #DEFAULT_PORT_SERVERS} servers listen on port 11211, each on an address of
 * its own in one random block {@code 127.a.b.2 ..} of the loopback range (Linux routes all of
 * 127.0.0.0/8 to the loopback interface), so the clients' rule "port 11211 is left out of the
 * hashed name" is exercised; the others listen on free ports of 127.0.0.1. Every server runs
 * under {@code timeout}, so none outlives a killed test run by more than {@link #LIFETIME}, and
 * {@link #close()} ends them all.
 */
final class MemcachedServers implements AutoCloseable {

    static final Path MEMCACHED = Path.of(System.getProperty("ringd.memcached", "/usr/bin/memcached"));
    static final String INSTALL = "install it (Debian package memcached: apt-get install memcached; "
            + ".ci/run installs it)";
    /** How many servers listen on port 11211 (on addresses of their own). */
    static final int DEFAULT_PORT_SERVERS = 6;
    static final int DEFAULT_PORT = 11211;
    /** The longest a server lives, whatever happens to the test JVM. */
    static final Duration LIFETIME = Duration.ofMinutes(5);
    private static final int IO_TIMEOUT_MS = 10_000;

    /** One server: where it listens. */
    record Server(String host, int port) {
        InetSocketAddress address() {
            return new InetSocketAddress(host, port);
        }

        /** {@code host:port}, as the clients are told. */
        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    private final List<Server> servers = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();

    private MemcachedServers() {
    }

    /** Starts {@code count} servers; fails the test, naming the package, when memcached is missing. */
    static MemcachedServers start(int count) {
        if (!Files.isExecutable(MEMCACHED)) {
            fail("memcached is not at " + MEMCACHED + ": " + INSTALL);
        }
        MemcachedServers all = new MemcachedServers();
        try {
            Random random = new Random();
            String block = null;
            for (int attempt = 0; attempt < 5 && block == null; attempt++) {
                String candidate = "127." + (1 + random.nextInt(250)) + "." + (1 + random.nextInt(250)) + ".";
                if (all.tryStart(candidate + 2, DEFAULT_PORT)) {
                    block = candidate;
                }
            }
            if (block == null) {
                fail("no loopback address of 127.0.0.0/8 took a memcached on port 11211 in 5 tries");
            }
            for (int i = 1; i < Math.min(count, DEFAULT_PORT_SERVERS); i++) {
                if (!all.tryStart(block + (2 + i), DEFAULT_PORT)) {
                    fail("memcached did not start on " + block + (2 + i) + ":" + DEFAULT_PORT);
                }
            }
            while (all.servers.size() < count) {
                boolean started = false;
                for (int attempt = 0; attempt < 5 && !started; attempt++) {
                    started = all.tryStart("127.0.0.1", freePort());
                }
                if (!started) {
                    fail("memcached did not start on a free port of 127.0.0.1 in 5 tries");
                }
            }
            return all;
        } catch (RuntimeException | Error e) {
            all.close();
            throw e;
        }
    }

    List<Server> servers() {
        return List.copyOf(servers);
    }

    Server get(int i) {
        return servers.get(i);
    }

    /** Starts one server and waits (at most 5 s) until it answers; false when it could not listen there. */
    private boolean tryStart(String host, int port) {
        List<String> command = List.of("timeout", "--kill-after=5", LIFETIME.toSeconds() + "s", MEMCACHED.toString(),
                "-u", System.getProperty("user.name"), "-l", host, "-p", Integer.toString(port), "-U", "0", "-m", "64",
                "-t", "1", "-c", "256");
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + command, e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        Server server = new Server(host, port);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                return false; // address in use, or a loopback address the machine refuses
            }
            try {
                if (command(server, "version\r\n", "\r\n").startsWith("VERSION ")) {
                    processes.add(process);
                    servers.add(server);
                    return true;
                }
            } catch (UncheckedIOException notYet) {
                // not listening yet
            }
            sleep(20);
        }
        stop(process);
        return false;
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------ the text protocol

    /** {@code flush_all} on every server: each one answers OK and then holds nothing. */
    void flushAll() {
        for (Server s : servers) {
            assertThat(command(s, "flush_all\r\n", "\r\n")).as("flush_all on %s", s).isEqualTo("OK\r\n");
        }
        for (Server s : servers) {
            assertThat(metadump(s)).as("keys on %s after flush_all", s).isEmpty();
        }
    }

    /**
     * Asks every server, with the text protocol's multi-key {@code get}, for every one of
     * {@code keys}: the servers that hold each key and the value each holds. Keys no server
     * holds are absent from the answer.
     */
    Map<String, Map<Server, String>> holders(List<String> keys) {
        Map<String, Map<Server, String>> out = new HashMap<>();
        for (Server s : servers) {
            get(s, keys).forEach((k, v) -> out.computeIfAbsent(k, x -> new HashMap<>()).put(s, v));
        }
        return out;
    }

    /** Every key {@code server} holds, listed by {@code lru_crawler metadump all}. */
    Set<String> metadump(Server server) {
        for (int attempt = 0; attempt < 50; attempt++) {
            String answer = command(server, "lru_crawler metadump all\r\n", "END\r\n", "BUSY");
            if (answer.startsWith("BUSY")) {
                sleep(20); // a crawl of the previous request still running
                continue;
            }
            Set<String> keys = new HashSet<>();
            for (String line : answer.split("\n")) {
                if (line.startsWith("key=")) {
                    int end = line.indexOf(' ');
                    keys.add(percentDecode(line.substring(4, end < 0 ? line.length() : end)));
                }
            }
            return keys;
        }
        throw new AssertionError("lru_crawler metadump on " + server + " stayed busy for a second");
    }

    /** The values {@code server} holds for those of {@code keys} it holds (multi-key gets of at most ~4 KB). */
    private static Map<String, String> get(Server server, List<String> keys) {
        Map<String, String> found = new HashMap<>();
        try (Socket socket = connect(server)) {
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            int i = 0;
            while (i < keys.size()) {
                ByteArrayOutputStream line = new ByteArrayOutputStream();
                line.writeBytes("get".getBytes(StandardCharsets.US_ASCII));
                int asked = 0;
                while (i < keys.size() && (asked == 0 || line.size() < 4096)) {
                    line.write(' ');
                    line.writeBytes(keys.get(i++).getBytes(StandardCharsets.UTF_8));
                    asked++;
                }
                line.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
                out.write(line.toByteArray());
                out.flush();
                readValues(in, found, server);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("get on " + server, e);
        }
        return found;
    }

    /** Reads {@code VALUE <key> <flags> <bytes>} blocks up to {@code END}. */
    private static void readValues(InputStream in, Map<String, String> found, Server server) throws IOException {
        while (true) {
            String header = new String(readLine(in), StandardCharsets.UTF_8);
            if (header.equals("END")) {
                return;
            }
            String[] f = header.split(" ");
            if (f.length < 4 || !f[0].equals("VALUE")) {
                throw new AssertionError("unexpected answer to get from " + server + ": " + header);
            }
            int length = Integer.parseInt(f[3]);
            byte[] data = in.readNBytes(length);
            if (data.length != length || readLine(in).length != 0) {
                throw new AssertionError("a cut VALUE from " + server + " for " + f[1]);
            }
            found.put(f[1], new String(data, StandardCharsets.UTF_8));
        }
    }

    private static byte[] readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b; (b = in.read()) >= 0;) {
            if (b == '\r') {
                if (in.read() != '\n') {
                    throw new IOException("CR without LF");
                }
                return line.toByteArray();
            }
            line.write(b);
        }
        throw new IOException("connection closed mid-line");
    }

    /** Sends {@code request} and reads until the answer ends with {@code end} (or starts with {@code alt}). */
    private static String command(Server server, String request, String end, String... alt) {
        try (Socket socket = connect(server)) {
            socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            byte[] buf = new byte[1 << 16];
            while (true) {
                int n = in.read(buf);
                if (n < 0) {
                    throw new IOException("closed before the answer ended: " + answer.toString(StandardCharsets.UTF_8));
                }
                answer.write(buf, 0, n);
                String text = answer.toString(StandardCharsets.UTF_8);
                if (text.endsWith(end) || alt.length > 0 && text.startsWith(alt[0]) && text.endsWith("\r\n")) {
                    return text;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(request.strip() + " on " + server, e);
        }
    }

    private static Socket connect(Server server) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(server.address(), 2_000);
            socket.setSoTimeout(IO_TIMEOUT_MS);
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** metadump writes a key's bytes outside the unreserved set as %XX. */
    private static String percentDecode(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length()) {
                out.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                out.write(c);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------ lifetime

    /** Ends every server (memcached itself, then the {@code timeout} around it), waiting at most 5 s each. */
    @Override
    public void close() {
        for (Process p : processes) {
            stop(p);
        }
        processes.clear();
        servers.clear();
    }

    private static void stop(Process process) {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
