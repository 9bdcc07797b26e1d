package io.ringd.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Loopback connections that each send one byte every one to two seconds,
 * driven by one thread and one selector: slow bodies (a {@code POST /route}
 * announcing a megabyte, its body trickled) and slow headers (a request
 * whose header line never ends). A connection the server ends is recorded
 * ({@link Ended}: its kind, how long it lived, the first line of the answer
 * if there was one) and, while {@link #stop()} has not been called, replaced
 * by a new one, so that as many stay open as were asked for.
 */
final class SlowClients implements AutoCloseable {

    /** What the server did with one slow connection. */
    record Ended(boolean body, long livedMillis, String answer) {
    }

    private static final byte[] BODY_HEAD = ("POST /route HTTP/1.1\r\nHost: localhost\r\n"
            + "Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{\"keys\":[").getBytes(
                    StandardCharsets.ISO_8859_1);
    private static final byte[] HEADER_HEAD = "GET /route/slow HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
            .getBytes(StandardCharsets.ISO_8859_1);

    private final InetSocketAddress server;
    private final Selector selector;
    private final Random random = new Random(18);
    private final List<Conn> open = new ArrayList<>();
    private final ConcurrentLinkedQueue<Ended> ended = new ConcurrentLinkedQueue<>();
    private final Thread driver;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean replace = true;
    private volatile boolean running = true;
    private volatile IOException failure;
    private volatile int openCount;

    private static final class Conn {
        final SocketChannel channel;
        final boolean body;
        final long openedNanos = System.nanoTime();
        final StringBuilder answer = new StringBuilder();
        long nextWriteNanos;

        Conn(SocketChannel channel, boolean body) {
            this.channel = channel;
            this.body = body;
        }
    }

    /** Opens {@code bodies} slow bodies and {@code headers} slow headers to {@code port} on loopback. */
    SlowClients(int port, int bodies, int headers) throws IOException {
        this.server = new InetSocketAddress("127.0.0.1", port);
        this.selector = Selector.open();
        for (int i = 0; i < Math.max(bodies, headers); i++) {
            if (i < bodies) {
                open.add(connect(true));
            }
            if (i < headers) {
                open.add(connect(false));
            }
        }
        openCount = open.size();
        driver = new Thread(this::drive, "slow-clients");
        driver.setDaemon(true);
        driver.start();
    }

    private Conn connect(boolean body) throws IOException {
        SocketChannel ch = SocketChannel.open();
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ch.connect(server);
        ch.write(ByteBuffer.wrap(body ? BODY_HEAD : HEADER_HEAD));
        ch.configureBlocking(false);
        Conn c = new Conn(ch, body);
        c.nextWriteNanos = System.nanoTime() + delayNanos();
        ch.register(selector, SelectionKey.OP_READ, c);
        return c;
    }

    /** One to two seconds. */
    private long delayNanos() {
        return TimeUnit.MILLISECONDS.toNanos(1000 + random.nextInt(1001));
    }

    private void drive() {
        ByteBuffer buf = ByteBuffer.allocate(4096);
        ByteBuffer one = ByteBuffer.allocate(1);
        try {
            while (running) {
                selector.select(20);
                for (Iterator<SelectionKey> it = selector.selectedKeys().iterator(); it.hasNext();) {
                    SelectionKey key = it.next();
                    it.remove();
                    Conn c = (Conn) key.attachment();
                    buf.clear();
                    int n;
                    try {
                        n = c.channel.read(buf);
                    } catch (IOException e) {
                        n = -1; // reset by the server
                    }
                    if (n > 0) {
                        c.answer.append(new String(buf.array(), 0, n, StandardCharsets.ISO_8859_1));
                    } else if (n < 0) {
                        end(c);
                    }
                }
                long now = System.nanoTime();
                for (int i = 0; i < open.size(); i++) {
                    Conn c = open.get(i);
                    if (!c.channel.isOpen() || now < c.nextWriteNanos) {
                        continue;
                    }
                    one.clear();
                    one.put((byte) (c.body ? ' ' : 'a')).flip();
                    try {
                        c.channel.write(one);
                    } catch (IOException e) {
                        // the server has closed it: the read side records the end
                    }
                    c.nextWriteNanos = now + delayNanos();
                }
                open.removeIf(c -> !c.channel.isOpen());
                openCount = open.size();
            }
        } catch (IOException e) {
            failure = e;
        } finally {
            for (Conn c : open) {
                closeQuietly(c.channel);
            }
            open.clear();
            stopped.countDown();
        }
    }

    private void end(Conn c) throws IOException {
        closeQuietly(c.channel);
        String text = c.answer.toString();
        int eol = text.indexOf("\r\n");
        ended.add(new Ended(c.body, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - c.openedNanos),
                eol < 0 ? text : text.substring(0, eol) + "\n" + text.substring(eol + 2)));
        if (replace) {
            open.add(connect(c.body));
        }
    }

    private static void closeQuietly(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    /** The connections the server has ended so far. */
    List<Ended> ended() {
        return List.copyOf(ended);
    }

    /** The slow connections open now. */
    int openCount() {
        return openCount;
    }

    /** From now on, a connection the server ends is not replaced. */
    void stopReplacing() {
        replace = false;
    }

    @Override
    public void close() {
        running = false;
        try {
            if (!stopped.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the slow clients did not stop");
            }
            selector.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            throw new UncheckedIOException(failure);
        }
    }
}
