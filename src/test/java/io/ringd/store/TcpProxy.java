package io.ringd.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay from a local port to one address, which a test can cut as a
 * crash would: {@link #kill()} drops every connection and stops listening,
 * so a ZooKeeper client behind it falls silent without closing its session
 * (the ensemble keeps the session, and its ephemeral znodes, until the
 * session timeout), as when its process is killed.
 */
final class TcpProxy implements AutoCloseable {

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

    TcpProxy(String host, int port) throws IOException {
        this.target = new InetSocketAddress(host, port);
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "test-tcp-proxy");
        t.setDaemon(true);
        t.start();
    }

    /** {@code host:port} of the relay. */
    String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket in = server.accept();
                Socket out = new Socket();
                sockets.add(in);
                sockets.add(out);
                if (server.isClosed()) {
                    break;
                }
                out.connect(target, 3000);
                pump(in, out);
                pump(out, in);
            } catch (IOException e) {
                // closed, or the target refused: the client tries again
            }
        }
        kill();
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buf)) >= 0;) {
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side went away
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "test-tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    /** Drops every connection and listens no more. */
    void kill() {
        closeQuietly(server);
        for (Socket s : sockets) {
            closeQuietly(s);
        }
    }

    @Override
    public void close() {
        kill();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // closing is all that was wanted
        }
    }
}
