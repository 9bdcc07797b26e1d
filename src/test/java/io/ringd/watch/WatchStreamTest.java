package io.ringd.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One stream's queue: order, a slow reader closed past the limit without blocking the offerer, failures. */
class WatchStreamTest {

    final ExecutorService writers = Executors.newFixedThreadPool(2);
    final ExecutorService closer = Executors.newSingleThreadExecutor();
    final List<String> closedWhy = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void stop() {
        writers.shutdownNow();
        closer.shutdownNow();
    }

    WatchStream stream(WatchStream.Sink sink, int maxQueued) {
        return stream(sink, maxQueued, true);
    }

    /** A stream that, unless {@code started}, is held until {@link WatchStream#start()}. */
    WatchStream stream(WatchStream.Sink sink, int maxQueued, boolean started) {
        return new WatchStream(sink, writers, closer, maxQueued, new WatchStream.Events() {
            @Override
            public void written(WatchStream.Item item) {
            }

            @Override
            public void closed(WatchStream stream, String why) {
                closedWhy.add(why);
            }
        }, started);
    }

    /**
     * Records what is written; blocks every write while {@code gate} is closed, and a close too (as
     * the HTTP answer's does while one of its writes is blocked).
     */
    static final class Recorder implements WatchStream.Sink {
        final List<String> written = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch gate;
        volatile boolean closed;

        Recorder(CountDownLatch gate) {
            this.gate = gate;
        }

        @Override
        public void event(String name, long id, String data) throws IOException {
            await();
            written.add(name + " " + id);
        }

        @Override
        public void comment(String text) throws IOException {
            await();
            written.add(":" + text);
        }

        private void await() throws IOException {
            try {
                gate.await();
            } catch (InterruptedException e) {
                throw new IOException("interrupted");
            }
        }

        @Override
        public void close() {
            try {
                await();
            } catch (IOException e) {
                // closed anyway
            }
            closed = true;
        }
    }

    @Test
    void events_areWrittenInTheOrderOffered() throws Exception {
        Recorder sink = new Recorder(new CountDownLatch(0));
        WatchStream s = stream(sink, 1000);
        for (int v = 1; v <= 500; v++) {
            assertThat(s.offer(WatchStream.Item.event("change", v, "{}", null))).isTrue();
            if (v % 100 == 0) {
                s.offer(WatchStream.Item.KEEP_ALIVE);
            }
        }
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (sink.written.size() < 505 && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        List<String> expected = new ArrayList<>();
        for (int v = 1; v <= 500; v++) {
            expected.add("change " + v);
            if (v % 100 == 0) {
                expected.add(": keep-alive");
            }
        }
        assertThat(sink.written).containsExactlyElementsOf(expected);
        assertThat(s.isClosed()).isFalse();
    }

    @Test
    void aReaderThatFallsBehind_isClosedPastTheLimit_andOfferingNeverWaitsForIt() throws Exception {
        CountDownLatch gate = new CountDownLatch(1); // the connection accepts nothing
        Recorder sink = new Recorder(gate);
        WatchStream s = stream(sink, 10);
        assertThat(s.offer(WatchStream.Item.event("change", 1, "{}", null))).isTrue();
        long start = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (s.writingFor(System.nanoTime()) == 0 && System.nanoTime() < start) {
            Thread.sleep(1);
        }
        int accepted = 1;
        for (int v = 2; v <= 50; v++) { // returns at once although every write blocks
            if (s.offer(WatchStream.Item.event("change", v, "{}", null))) {
                accepted++;
            }
        }
        assertThat(s.isClosed()).isTrue();
        assertThat(closedWhy).hasSize(1);
        assertThat(closedWhy.get(0)).contains("more than 10 events queued");
        // one event is being written (blocked), ten wait: the eleventh queued closes the stream
        assertThat(accepted).isEqualTo(11);
        assertThat(s.offer(WatchStream.Item.event("change", 51, "{}", null))).as("a closed stream takes nothing").isFalse();
        assertThat(s.writingFor(System.nanoTime())).as("the write still blocked").isPositive();
        Thread.sleep(100);
        assertThat(sink.closed).as("the answer is not ended while its write is blocked").isFalse();
        gate.countDown();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!sink.closed && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(sink.closed).as("ended by its writer once the write returned").isTrue();
        assertThat(sink.written).hasSize(1);
        assertThat(s.writingFor(System.nanoTime())).isZero();
    }

    @Test
    void closingAStreamThatIsNotWriting_endsTheAnswerOffTheClosersThread() throws Exception {
        Recorder sink = new Recorder(new CountDownLatch(0));
        WatchStream s = stream(sink, 10);
        s.close("the ring was reloaded from the store");
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!sink.closed && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(sink.closed).isTrue();
        assertThat(closedWhy).containsExactly("the ring was reloaded from the store");
    }

    @Test
    void aFailedWrite_closesTheStreamOnce() throws Exception {
        WatchStream.Sink failing = new WatchStream.Sink() {
            @Override
            public void event(String name, long id, String data) throws IOException {
                throw new IOException("broken pipe");
            }

            @Override
            public void comment(String text) throws IOException {
                throw new IOException("broken pipe");
            }

            @Override
            public void close() {
            }
        };
        WatchStream s = stream(failing, 100);
        s.offer(WatchStream.Item.event("change", 1, "{}", null));
        s.offer(WatchStream.Item.event("change", 2, "{}", null));
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!s.isClosed() && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(s.isClosed()).isTrue();
        Thread.sleep(100);
        assertThat(closedWhy).containsExactly("the connection failed");
    }

    @Test
    void aHeldStream_writesNothingUntilStarted_thenAllInOrder() throws Exception {
        Recorder sink = new Recorder(new CountDownLatch(0));
        WatchStream s = stream(sink, 100, false);
        s.offer(WatchStream.Item.event("snapshot", 3, "{}", null));
        s.offer(WatchStream.Item.event("change", 4, "{}", null));
        Thread.sleep(100);
        assertThat(sink.written).as("held: the answer is not asynchronous yet").isEmpty();
        s.start();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (sink.written.size() < 2 && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(sink.written).containsExactly("snapshot 3", "change 4");
    }

    @Test
    void aStreamClosedWhileHeld_endsItsAnswerWhenStarted_andNotBefore() throws Exception {
        Recorder sink = new Recorder(new CountDownLatch(0));
        WatchStream s = stream(sink, 100, false);
        s.offer(WatchStream.Item.event("snapshot", 3, "{}", null));
        s.close("the ring r was deleted");
        Thread.sleep(100);
        assertThat(sink.closed).as("the answer is not there to end yet").isFalse();
        s.start();
        assertThat(sink.closed).as("ended by start, on its thread").isTrue();
        assertThat(sink.written).isEmpty();
        assertThat(closedWhy).containsExactly("the ring r was deleted");
    }

    @Test
    void anItemsWireBytes_areTheServerSentEventsFormat() {
        assertThat(new String(WatchStream.Item.event("change", 8, "{\"version\":8}", null).wire(),
                StandardCharsets.UTF_8)).isEqualTo("event:change\nid:8\ndata:{\"version\":8}\n\n");
        assertThat(new String(WatchStream.Item.event("snapshot", 2, "a\nb", null).wire(), StandardCharsets.UTF_8))
                .as("each line of the data is a data line").isEqualTo("event:snapshot\nid:2\ndata:a\ndata:b\n\n");
        assertThat(new String(WatchStream.Item.KEEP_ALIVE.wire(), StandardCharsets.UTF_8)).isEqualTo(": keep-alive\n\n");
        assertThat(new String(WatchStream.Item.PROBE.wire(), StandardCharsets.UTF_8)).isEqualTo(":\n\n");
        assertThat(new String(WatchStream.Item.event("change", 9, "{\"id\":\"caf\u00e9\"}", null).wire(),
                StandardCharsets.UTF_8)).as("UTF-8").contains("caf\u00e9");
    }

    /**
     * A sink whose writes end later, as a connection's that cannot take the bytes at once: each write
     * is recorded and its completion kept until the test ends it.
     */
    static final class LaterSink implements WatchStream.Sink {
        final List<String> started = Collections.synchronizedList(new ArrayList<>());
        final java.util.concurrent.BlockingQueue<WatchStream.Completion> pending =
                new java.util.concurrent.LinkedBlockingQueue<>();
        final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
        volatile int mostInFlight;
        volatile boolean closed;

        @Override
        public void write(WatchStream.Item item, WatchStream.Completion done) {
            mostInFlight = Math.max(mostInFlight, inFlight.incrementAndGet());
            started.add(item.name() == null ? ":" + item.data() : item.name() + " " + item.id());
            pending.add(done);
        }

        /** Ends the oldest write in flight, as written ({@code ok}) or failed. */
        void end(boolean ok) throws InterruptedException {
            WatchStream.Completion done = pending.poll(10, TimeUnit.SECONDS);
            assertThat(done).as("a write in flight").isNotNull();
            inFlight.decrementAndGet();
            if (ok) {
                done.written();
            } else {
                done.failed(new IOException("connection reset"));
            }
        }

        @Override
        public void event(String name, long id, String data) {
            throw new AssertionError("a sink that writes later is never asked to block");
        }

        @Override
        public void comment(String text) {
            throw new AssertionError("a sink that writes later is never asked to block");
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean() && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        assertThat(condition.getAsBoolean()).isTrue();
    }

    @Test
    void writesThatEndLater_holdNoThread_comeOneAtATime_inOrder() throws Exception {
        LaterSink sink = new LaterSink();
        WatchStream s = stream(sink, 100);
        for (int v = 1; v <= 5; v++) {
            assertThat(s.offer(WatchStream.Item.event("change", v, "{}", null))).isTrue();
        }
        await(() -> sink.started.size() == 1);
        assertThat(s.writingFor(System.nanoTime())).as("a write in progress").isPositive();
        assertThat(s.writeHoldsAThread()).as("no thread waits for a write that ends later").isFalse();
        assertThat(s.queued()).isEqualTo(4);
        for (int v = 1; v <= 5; v++) {
            Thread.sleep(20);
            assertThat(sink.started).as("the next write starts only when the last one ended").hasSize(v);
            sink.end(true);
        }
        await(() -> s.queued() == 0 && s.writingFor(System.nanoTime()) == 0);
        assertThat(sink.started).containsExactly("change 1", "change 2", "change 3", "change 4", "change 5");
        assertThat(sink.mostInFlight).isEqualTo(1);
        assertThat(s.isClosed()).isFalse();
    }

    @Test
    void aWriteThatFailsLater_closesTheStreamOnce_andEndsTheAnswerAfterIt() throws Exception {
        LaterSink sink = new LaterSink();
        WatchStream s = stream(sink, 100);
        s.offer(WatchStream.Item.event("change", 1, "{}", null));
        s.offer(WatchStream.Item.event("change", 2, "{}", null));
        await(() -> sink.started.size() == 1);
        s.close("closed by a test while its write is in flight");
        Thread.sleep(50);
        assertThat(sink.closed).as("not ended while its write is in flight").isFalse();
        sink.end(false);
        await(() -> sink.closed);
        assertThat(closedWhy).containsExactly("closed by a test while its write is in flight");
        assertThat(sink.started).as("nothing written after the close").containsExactly("change 1");
        assertThat(s.writingFor(System.nanoTime())).isZero();

        LaterSink other = new LaterSink();
        WatchStream t = stream(other, 100);
        t.offer(WatchStream.Item.event("change", 1, "{}", null));
        t.offer(WatchStream.Item.event("change", 2, "{}", null));
        await(() -> other.started.size() == 1);
        other.end(false);
        await(() -> other.closed);
        assertThat(t.isClosed()).isTrue();
        assertThat(closedWhy).containsExactly("closed by a test while its write is in flight", "the connection failed");
        assertThat(other.started).containsExactly("change 1");
    }

    @Test
    void aFanOut_claimsAnIdleStreamOnce_andItsDrainWritesAllInOrder() throws Exception {
        Recorder sink = new Recorder(new CountDownLatch(0));
        WatchStream s = stream(sink, 100);
        assertThat(s.offerClaimed(WatchStream.Item.event("change", 1, "{}", null))).as("idle: claimed").isTrue();
        assertThat(s.offerClaimed(WatchStream.Item.KEEP_ALIVE)).as("claimed already: queued").isFalse();
        assertThat(s.offerClaimed(WatchStream.Item.event("change", 2, "{}", null))).isFalse();
        assertThat(s.queued()).isEqualTo(3);
        Thread.sleep(50);
        assertThat(sink.written).as("a claimed stream waits for its drain").isEmpty();
        s.drainClaimed();
        assertThat(sink.written).containsExactly("change 1", ": keep-alive", "change 2");
        assertThat(s.queued()).isZero();
        assertThat(s.offerClaimed(WatchStream.Item.event("change", 3, "{}", null))).as("idle again").isTrue();
        s.close("the ring was reloaded from the store");
        s.drainClaimed();
        assertThat(sink.closed).as("a drain that finds its stream closed ends the answer").isTrue();
        assertThat(sink.written).hasSize(3);

        WatchStream held = stream(new Recorder(new CountDownLatch(0)), 100, false);
        assertThat(held.offerClaimed(WatchStream.Item.event("change", 1, "{}", null)))
                .as("a held stream is never claimed: its start drains it").isFalse();
    }
}
