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
 * <p>A write need not hold a thread: a sink that writes without blocking
 * ({@link Sink#write(Item, Completion)}) tells of its end later, from the
 * connection, while the stream stays its owner's; most writes end at once,
 * and the writer goes on to the next item. A fan-out claims the streams it
 * offers to ({@link #offerClaimed(Item)}) and has its writers drain them in
 * turn ({@link #drainClaimed()}), rather than one pool task per stream.
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

        /**
         * Starts writing {@code item} and tells {@code done} when it ends, maybe before returning, maybe
         * later from another thread: one write at a time. The default writes it blocking.
         */
        default void write(Item item, Completion done) {
            try {
                write(item);
            } catch (IOException | RuntimeException e) {
                done.failed(e);
                return;
            }
            done.written();
        }

        /** Ends the answer; called once, never while a write of this sink is in progress on another thread. */
        void close();
    }

    /** The end of a write started with {@link Sink#write(Item, Completion)}. */
    interface Completion {
        void written();

        void failed(Throwable cause);
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
    /** The write in flight: {@link #WRITING} while the sink's call runs, then where it ended. */
    private final AtomicInteger write = new AtomicInteger(WRITTEN);
    private static final int WRITING = 0;
    private static final int PENDING = 1; // the sink's call returned first: its end continues the drain
    private static final int WRITTEN = 2;
    private static final int FAILED = 3;
    /** The item being written, for its report once written; only the drain's owner touches it. */
    private Item current;
    /** An item handed with the drain to its new owner ({@link #offerClaimed}); only the owner touches it. */
    private Item first;
    /** What ends a write that the sink's call returned before: its report, then the rest of the queue. */
    private final Completion completion = new Completion() {
        @Override
        public void written() {
            if (!write.compareAndSet(WRITING, WRITTEN)) { // PENDING: the drain left it to this end
                write.set(WRITTEN);
                if (ended()) {
                    resume();
                }
            }
        }

        @Override
        public void failed(Throwable cause) {
            if (!write.compareAndSet(WRITING, FAILED)) {
                write.set(FAILED);
                ended();
                release();
            }
        }
    };
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
        if (!admit()) {
            return false;
        }
        queue.add(item);
        schedule();
        return true;
    }

    /**
     * Queues {@code item} for a fan-out: like {@link #offer(Item)}, except that a stream whose drain
     * this call claims is not scheduled on its own but left to the caller, which must then have
     * {@link #drainClaimed()} called on a writer.
     *
     * @return whether the caller now owns the drain
     */
    boolean offerClaimed(Item item) {
        if (!admit()) {
            return false;
        }
        // an idle stream takes the item without its queue: nothing older can wait there (offers of versions
        // come one at a time, and an item queued by another thread while this one claims is only a comment)
        if (started && queue.isEmpty() && draining.compareAndSet(false, true)) {
            first = item;
            return true;
        }
        queue.add(item);
        return started && draining.compareAndSet(false, true);
    }

    /** Counts one more item queued; {@code false} if the stream is closed, or is closed now as too slow. */
    private boolean admit() {
        if (closed.get()) {
            return false;
        }
        if (queued.incrementAndGet() > maxQueued) {
            close("more than " + maxQueued + " events queued: the client reads too slowly");
            return false;
        }
        return true;
    }

    /** Writes what is queued, on the thread of a writer, for the caller of a {@link #offerClaimed} that claimed. */
    void drainClaimed() {
        drain();
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

    /** Writes the queued items while their writes end at once; owns the drain until it leaves it. */
    private void drain() {
        while (true) {
            Item item = first;
            if (item != null) {
                first = null;
            } else if (!closed.get()) {
                item = queue.poll();
            }
            if (item == null || closed.get()) {
                release();
                return;
            }
            queued.decrementAndGet();
            current = item;
            events.writeStarted();
            writingSince = Math.max(1, System.nanoTime());
            write.set(WRITING);
            try {
                sink.write(item, completion);
            } catch (RuntimeException e) {
                completion.failed(e);
            }
            if (write.compareAndSet(WRITING, PENDING)) {
                return; // it ends later: its end goes on (Completion)
            }
            if (!ended()) {
                release();
                return;
            }
        }
    }

    /** The write in flight ended: its report; {@code false} (and the stream closed) when it failed. */
    private boolean ended() {
        writingSince = 0;
        lastWritten = System.nanoTime();
        events.writeEnded();
        if (write.get() == FAILED) {
            first = null;
            close("the connection failed");
            return false;
        }
        events.written(current);
        current = null;
        return true;
    }

    /** Goes on with the queue after a write that ended later, on a writer. */
    private void resume() {
        try {
            writers.execute(this::drain);
        } catch (RuntimeException e) { // the pool is shut down
            close("the server is stopping");
            release();
        }
    }

    /** Leaves the drain: the answer ends here when the stream was closed, else a late offer is taken up. */
    private void release() {
        first = null;
        draining.set(false);
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

    /** Whether the write in progress holds a thread (a sink's call that blocks), rather than ending later. */
    boolean writeHoldsAThread() {
        return writingSince != 0 && write.get() == WRITING;
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
