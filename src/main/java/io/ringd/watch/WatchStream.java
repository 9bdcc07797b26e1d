package io.ringd.watch;

import java.io.IOException;
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
        /** Writes one event; may block on a slow connection. */
        void event(String name, long id, String data) throws IOException;

        /** Writes a comment line. */
        void comment(String text) throws IOException;

        /** Ends the answer; called once, never while a write of this sink is in progress on another thread. */
        void close();
    }

    /** An event to write; {@code committedAt} is set for live changes, whose delivery time is measured. */
    record Item(String name, long id, String data, Instant committedAt) {
        /** A comment (an item without a name: its data is the comment's text). */
        static final Item KEEP_ALIVE = new Item(null, -1, " keep-alive", null);
        /** An empty comment written to an idle stream, so that a client that went away is noticed. */
        static final Item PROBE = new Item(null, -1, "", null);
    }

    /** What a stream reports: each event written, and its closing. */
    interface Events {
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
    private final Executor closer;
    /** When the write in progress began ({@link System#nanoTime()}), or 0 when none is. */
    private volatile long writingSince;
    /** When the last write ended, or the stream opened ({@link System#nanoTime()}). */
    private volatile long lastWritten = System.nanoTime();
    /** The last version offered; guarded by the hub's lock. */
    long lastOffered;

    WatchStream(Sink sink, Executor writers, Executor closer, int maxQueued, Events events) {
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

    private void schedule() {
        if (draining.compareAndSet(false, true)) {
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
                writingSince = Math.max(1, System.nanoTime());
                try {
                    if (item.name() == null) {
                        sink.comment(item.data());
                    } else {
                        sink.event(item.name(), item.id(), item.data());
                    }
                } finally {
                    writingSince = 0;
                    lastWritten = System.nanoTime();
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
     * nothing is queued or being written: a probe is due.
     */
    boolean idleFor(long now, long idleNanos) {
        return queued.get() == 0 && writingSince == 0 && now - lastWritten >= idleNanos;
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
            if (!draining.get()) { // else the writer sees closed after its loop (draining is cleared first)
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
