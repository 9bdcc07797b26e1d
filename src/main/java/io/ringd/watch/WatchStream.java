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
 */
final class WatchStream {

    /** Where the events go: the HTTP answer, or a test's recorder. */
    interface Sink {
        /** Writes one event; may block on a slow connection. */
        void event(String name, long id, String data) throws IOException;

        /** Writes a comment line. */
        void comment(String text) throws IOException;

        /** Ends the answer; called once. */
        void close();
    }

    /** An event to write; {@code committedAt} is set for live changes, whose delivery time is measured. */
    record Item(String name, long id, String data, Instant committedAt) {
        static final Item KEEP_ALIVE = new Item(null, -1, null, null);
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
    /** The last version offered; guarded by the hub's lock. */
    long lastOffered;

    WatchStream(Sink sink, Executor writers, int maxQueued, Events events) {
        this.sink = sink;
        this.writers = writers;
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
                if (item == Item.KEEP_ALIVE) {
                    sink.comment(" keep-alive");
                } else {
                    sink.event(item.name(), item.id(), item.data());
                }
                events.written(item);
            }
        } catch (IOException | RuntimeException e) {
            close("the connection failed");
        } finally {
            draining.set(false);
        }
        if (!closed.get() && !queue.isEmpty()) {
            schedule(); // offered after the loop ended and before draining was cleared
        }
    }

    /** Closes the stream once; queued events are dropped. */
    void close(String why) {
        if (closed.compareAndSet(false, true)) {
            queue.clear();
            try {
                sink.close();
            } catch (RuntimeException e) {
                // already gone
            }
            events.closed(this, why);
        }
    }

    /** A callback that closes the stream, for the connection's completion, timeout and error. */
    Runnable closer(String why) {
        return () -> close(why);
    }
}
