package io.ringd.watch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One open {@code /ring/events} stream: a queue of events that a shared
 * writer pool drains into the connection, one writer at a time. Offering an
 * event never blocks (a membership write offers on its own thread); a
 * stream whose queue grows past its limit is closed, and its client
 * reconnects with {@code Last-Event-ID}.
 *
 * <p>Closing never waits either: it marks the stream closed at once, and the
 * answer is ended ({@link Sink#close()}, which waits for a write in progress)
 * by the writer that is writing, when its write returns, or else by the
 * closer executor. A write that has been blocked for too long is found with
 * {@link #writingFor(long)}.
 */
final class WatchStream {

    /** Where the events go: the HTTP answer, or a test's recorder. */
    interface Sink {
        /** Writes one item; may block on a slow connection. The HTTP answer writes its {@link Item#wire()} bytes. */
        default void write(Item item) throws IOException {
            if (item.name() == null) {
                comment(item.data());
            } else {
                event(item.name(), item.id(), item.data());
            }
        }

        /** Writes one event; may block on a slow connection. */
        void event(String name, long id, String data) throws IOException;

        /** Writes a comment line. */
        void comment(String text) throws IOException;

        /** Ends the answer; called once, never while a write of this sink is in progress on another thread. */
        void close();
    }

    /**
     * An event to write; {@code committedAt} is set for live changes, whose delivery time is measured.
     * {@code wire} is the event as the stream carries it, encoded once and written to every stream as is.
     */
    record Item(String name, long id, String data, Instant committedAt, byte[] wire) {
        /** A comment (an item without a name: its data is the comment's text). */
        static final Item KEEP_ALIVE = comment(" keep-alive");
        /** An empty comment written to an idle stream, so that a client that went away is noticed. */
        static final Item PROBE = comment("");

        /** An event named {@code name}, with id {@code id} and data {@code data}. */
        static Item event(String name, long id, String data, Instant committedAt) {
            String text = "event:" + name + "\nid:" + id + "\ndata:" + data.replace("\n", "\ndata:") + "\n\n";
            return new Item(name, id, data, committedAt, text.getBytes(StandardCharsets.UTF_8));
        }

        /** A comment line with {@code text}, which clients ignore. */
        static Item comment(String text) {
            return new Item(null, -1, text, null, (":" + text + "\n\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    /** What a stream reports: each write's start and end, each event written, and its closing. */
    interface Events {
        /** A write begins; {@link #writeEnded()} follows it, whether it succeeds or not. */
        default void writeStarted() {
        }

        default void writeEnded() {
        }

        void written(Item item);

        void closed(WatchStream stream, String why);
    }

    private final Sink sink;
    private final Executor writers;
    private final int maxQueued;
    private final Events events;
    private final Queue<Item> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean sinkClosed = new AtomicBoolean();
    /** Whether the writers may write: a stream is held from its opening until its answer has gone asynchronous. */
    private volatile boolean started;
    private final Executor closer;
    /** Whether the connection tells of the client closing it, so that the stream needs no probe to find out. */
    private volatile boolean peerWatched;
    /** When the write in progress began ({@link System#nanoTime()}), or 0 when none is. */
    private volatile long writingSince;
    /** When the last write ended, or the stream opened ({@link System#nanoTime()}). */
    private volatile long lastWritten = System.nanoTime();
    /** The last version offered; guarded by the hub's lock. */
    long lastOffered;

    WatchStream(Sink sink, Executor writers, Executor closer, int maxQueued, Events events) {
        this(sink, writers, closer, maxQueued, events, true);
    }

    /** A stream that, unless {@code started}, queues what it is offered and writes nothing until {@link #start()}. */
    WatchStream(Sink sink, Executor writers, Executor closer, int maxQueued, Events events, boolean started) {
        this.started = started;
        this.sink = sink;
        this.writers = writers;
        this.closer = closer;
        this.maxQueued = maxQueued;
        this.events = events;
    }

    /** Queues {@code item} without blocking; {@code false} if the stream is closed or was closed as too slow. */
    boolean offer(Item item) {
        if (closed.get()) {
            return false;
        }
        if (queued.incrementAndGet() > maxQueued) {
            close("more than " + maxQueued + " events queued: the client reads too slowly");
            return false;
        }
        queue.add(item);
        schedule();
        return true;
    }

    /** Events queued and not yet written. */
    int queued() {
        return queued.get();
    }

    boolean isClosed() {
        return closed.get();
    }

    /** Lets the writers write what was queued while the stream was held, and what comes next. */
    void start() {
        started = true;
        if (closed.get()) {
            closeSink(); // closed while held: nothing was written, the answer ends now
        } else {
            schedule();
        }
    }

    private void schedule() {
        if (started && draining.compareAndSet(false, true)) {
            try {
                writers.execute(this::drain);
            } catch (RuntimeException e) { // the pool is shut down
                draining.set(false);
                close("the server is stopping");
            }
        }
    }

    private void drain() {
        try {
            Item item;
            while (!closed.get() && (item = queue.poll()) != null) {
                queued.decrementAndGet();
                events.writeStarted();
                writingSince = Math.max(1, System.nanoTime());
                try {
                    sink.write(item);
                } finally {
                    writingSince = 0;
                    lastWritten = System.nanoTime();
                    events.writeEnded();
                }
                events.written(item);
            }
        } catch (IOException | RuntimeException e) {
            close("the connection failed");
        } finally {
            draining.set(false);
        }
        if (closed.get()) {
            closeSink(); // closed while this writer wrote: the answer is ended here, after the write
        } else if (!queue.isEmpty()) {
            schedule(); // offered after the loop ended and before draining was cleared
        }
    }

    /**
     * Whether nothing was written for {@code idleNanos} at {@code now} and
     * nothing is queued or being written: a probe is due, unless the
     * connection tells of the client closing it.
     */
    boolean idleFor(long now, long idleNanos) {
        return !peerWatched && queued.get() == 0 && writingSince == 0 && now - lastWritten >= idleNanos;
    }

    /** The connection tells of the client closing it: the stream is never probed. */
    void peerWatched() {
        peerWatched = true;
    }

    /** How long the write in progress has been blocked, in nanoseconds at {@code now}; 0 when none is. */
    long writingFor(long now) {
        long since = writingSince;
        return since == 0 ? 0 : Math.max(1, now - since);
    }

    /**
     * Closes the stream once, without waiting: queued events are dropped, and the
     * answer is ended by the writer when its write returns, or by the closer.
     */
    void close(String why) {
        if (closed.compareAndSet(false, true)) {
            queue.clear();
            events.closed(this, why);
            if (started && !draining.get()) { // else the writer sees closed after its loop (draining is cleared first)
                try {
                    closer.execute(this::closeSink);
                } catch (RuntimeException e) { // the closer is shut down
                    closeSink();
                }
            }
        }
    }

    private void closeSink() {
        if (sinkClosed.compareAndSet(false, true)) {
            try {
                sink.close();
            } catch (RuntimeException e) {
                // already gone
            }
        }
    }

    /** A callback that closes the stream, for the connection's completion, timeout and error. */
    Runnable closer(String why) {
        return () -> close(why);
    }
}
