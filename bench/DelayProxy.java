import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * TCP forwarders on loopback that pass bytes both ways and, while a delay is
 * set for one, hold each chunk its server sends back for that long: a server
 * made slow from outside, for bench/slow-node.sh.
 *
 * <pre>
 * java bench/DelayProxy.java CONTROL_PORT LISTEN_PORT=TARGET_PORT [LISTEN_PORT=TARGET_PORT ...]
 * </pre>
 *
 * A line {@code delay LISTEN_PORT MS} sent to CONTROL_PORT sets the delay of
 * that forwarder (0: none, the start) and is answered
 * {@code ok LISTEN_PORT MS}. Requests go through at once; a response chunk
 * read from the server at time t is written to the client at t + delay, so a
 * client that waits for each answer before it asks again (memcached's text
 * protocol, one request in flight per connection) sees every answer that much
 * later, and chunks of one answer are not delayed twice over. Two threads a
 * connection, one each way.
 */
public final class DelayProxy {

    /** Listen port to its delay in nanoseconds. */
    private static final Map<Integer, Long> DELAYS = new ConcurrentHashMap<>();

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: java bench/DelayProxy.java CONTROL_PORT LISTEN_PORT=TARGET_PORT "
                    + "[LISTEN_PORT=TARGET_PORT ...]");
        }
        InetAddress loopback = InetAddress.getLoopbackAddress();
        for (int i = 1; i < args.length; i++) {
            String[] pair = args[i].split("=");
            int listen = Integer.parseInt(pair[0]);
            int target = Integer.parseInt(pair[1]);
            DELAYS.put(listen, 0L);
            ServerSocket socket = new ServerSocket(listen, 128, loopback);
            daemon("accept-" + listen, () -> accept(socket, listen, new InetSocketAddress(loopback, target)));
            System.err.println("[delay-proxy] 127.0.0.1:" + listen + " -> 127.0.0.1:" + target);
        }
        ServerSocket control = new ServerSocket(Integer.parseInt(args[0]), 8, loopback);
        System.err.println("[delay-proxy] control on " + args[0]);
        control(control);
    }

    private static void accept(ServerSocket listen, int port, InetSocketAddress target) {
        while (true) {
            try {
                Socket client = listen.accept();
                Socket server = new Socket();
                try {
                    server.connect(target, 2000);
                } catch (IOException e) {
                    System.err.println("[delay-proxy] cannot reach " + target + ": " + e.getMessage());
                    client.close();
                    continue;
                }
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                daemon("up-" + port, () -> pump(client, server, -1));
                daemon("down-" + port, () -> pump(server, client, port));
            } catch (IOException e) {
                System.err.println("[delay-proxy] accept on " + port + ": " + e.getMessage());
                return;
            }
        }
    }

    private static void control(ServerSocket control) {
        while (true) {
            try (Socket s = control.accept();
                    BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                            StandardCharsets.US_ASCII));
                    PrintWriter out = new PrintWriter(s.getOutputStream(), true, StandardCharsets.US_ASCII)) {
                for (String line; (line = in.readLine()) != null;) {
                    String[] w = line.trim().split("\\s+");
                    if (w.length == 3 && w[0].equals("delay") && DELAYS.containsKey(Integer.valueOf(w[1]))) {
                        long ms = Math.max(0, Long.parseLong(w[2]));
                        DELAYS.put(Integer.valueOf(w[1]), TimeUnit.MILLISECONDS.toNanos(ms));
                        System.err.println("[delay-proxy] " + w[1] + ": delay " + ms + " ms");
                        out.println("ok " + w[1] + " " + ms);
                    } else {
                        out.println("error: delay LISTEN_PORT MS, for one of " + DELAYS.keySet());
                    }
                }
            } catch (IOException | NumberFormatException e) {
                System.err.println("[delay-proxy] control: " + e.getMessage());
            }
        }
    }

    /**
     * Copies {@code from} to {@code to} until either closes, holding each chunk for the delay of the
     * forwarder listening on {@code delayOf} ({@code -1}: never).
     */
    private static void pump(Socket from, Socket to, int delayOf) {
        byte[] buffer = new byte[16 * 1024];
        try (from; to) {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            for (int n; (n = in.read(buffer)) >= 0;) {
                long due = System.nanoTime() + (delayOf < 0 ? 0 : DELAYS.get(delayOf));
                for (long wait; (wait = due - System.nanoTime()) > 0;) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // either side closed: close both (try-with-resources)
        }
    }

    private static void daemon(String name, Runnable r) {
        Thread t = new Thread(r, "delay-proxy-" + name);
        t.setDaemon(true);
        t.start();
    }
}
