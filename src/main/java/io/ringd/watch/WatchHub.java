package io.ringd.watch;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PreDestroy;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.ringd.state.HistoryDelta;
import io.ringd.state.RingHistory;
import io.ringd.state.RingListener;
import io.ringd.state.RingNotFoundException;
import io.ringd.state.RingPart;
import io.ringd.state.RingService;
import io.ringd.state.RingState;
import io.ringd.state.ServedRing;
import io.ringd.web.problem.ApiException;
import io.ringd.web.problem.Problems;
import io.ringd.web.RingHeaders;
import io.ringd.wire.ChangeEventJson;
import io.ringd.wire.WireJson;
import io.ringd.wire.WireTime;
import tools.jackson.databind.json.JsonMapper;

/**
 * The open {@code /ring/events} streams, and what each is sent: on opening,
 * the changes after the client's version or a snapshot; then every version
 * as it is committed, in order, none skipped; and a keep-alive comment at a
 * fixed period.
 */
@Component
@Order(20)
class WatchHub implements RingPart, SmartLifecycle {

    /*
     * Design note. Every version reaches a stream exactly once and in order:
     * opening a stream (reading the history, queueing the backlog, joining
     * the set) and delivering a committed version (run by RingService on the
     * writer's thread, after the version is durable and swapped in) both hold
     * this hub's lock, and each stream remembers the last version offered to
     * it (lastOffered), so a version that is both in the backlog and
     * delivered live is sent once. The history is updated before the listener
     * runs, so a stream opened in between finds the version in the backlog.
     *
     * Nothing under the lock blocks: a change event is serialized once and
     * offered to each stream's queue; the writer pool does the I/O. An idle
     * stream is claimed by the offer (it takes the item without queueing
     * it), and the claimed streams are drained by a few pool tasks that take
     * them in runs, not by a task per stream: at 10,000 streams the
     * connection's write is then most of what an event costs. Closing a
     * stream (too slow, reloaded) only marks it and frees its slot; the
     * answer is ended by its writer after the write in progress, or by the
     * closer thread, never on the commit's thread.
     *
     * A stream's writes go to its connection without waiting: a write the
     * connection cannot take at once ends later, from the container, which
     * then goes on with that stream's queue; no writer thread waits for a
     * client. A write in progress for longer than writeTimeout ends its
     * stream (the watchdog below). Where a write does hold a thread (an
     * answer written through the servlet's output stream), the pool grows
     * by one thread for as long as that write stays blocked (until the
     * connection fails), so that the ringd.watch.writers threads always
     * serve the streams that read.
     */

    static final String SNAPSHOT = "snapshot";
    static final String CHANGE = "change";
    private static final Logger log = LoggerFactory.getLogger(WatchHub.class);

    private final WatchProperties props;
    private final JsonMapper json = WireJson.lenient();
    /** Every open stream, of every ring: the limit, the keep-alives and the watchdog count them all. */
    private final Set<WatchStream> streams = ConcurrentHashMap.newKeySet();
    private final WatchWriters writers;
    private final ScheduledExecutorService keepAlive;
    private final Set<WatchStream> lingering = ConcurrentHashMap.newKeySet(); // closed during a write
    private final Set<WatchStream> stuck = ConcurrentHashMap.newKeySet(); // a write blocked past writeTimeout
    /** The open streams whose connections do not tell of their clients closing: the ones the probes visit. */
    private final Set<WatchStream> probed = ConcurrentHashMap.newKeySet();
    /** Writes in progress, over all streams: the watchdog looks only while there are some. */
    private final AtomicInteger writing = new AtomicInteger();
    private final Counter snapshots;
    private final Counter changes;
    private final Timer delivery;

    /** The most probes one tick writes: ringd.watch.probe-rate over the ticks of a second. */
    private final int probesPerTick;

    WatchHub(WatchProperties props, ObjectProvider<MeterRegistry> registry) {
        this.props = props;
        this.writers = new WatchWriters(props.writers());
        this.keepAlive = Executors.newSingleThreadScheduledExecutor(WatchWriters.daemons("ringd-watch-keep-alive-"));
        long period = props.keepAlive().toMillis();
        keepAlive.scheduleAtFixedRate(this::keepAlive, period, period, TimeUnit.MILLISECONDS);
        long check = Math.max(10, Math.min(250, props.writeTimeout().toMillis() / 4));
        keepAlive.scheduleWithFixedDelay(this::watchdog, check, check, TimeUnit.MILLISECONDS);
        long tick = Math.max(25, props.probeInterval().toMillis() / 4);
        this.probesPerTick = (int) Math.max(1, Math.ceil(props.probeRate() * tick / 1000.0));
        keepAlive.scheduleWithFixedDelay(this::probe, tick, tick, TimeUnit.MILLISECONDS);
        MeterRegistry meters = registry.getIfAvailable();
        if (meters != null) {
            Gauge.builder("ringd.watch.streams", streams, Set::size).description("Open /ring/events streams")
                    .register(meters);
            snapshots = Counter.builder("ringd.watch.events").tag("event", SNAPSHOT)
                    .description("Events written to /ring/events streams").register(meters);
            changes = Counter.builder("ringd.watch.events").tag("event", CHANGE)
                    .description("Events written to /ring/events streams").register(meters);
            delivery = Timer.builder("ringd.watch.delivery")
                    .description("From a version's commit to its change event written to a stream")
                    .publishPercentileHistogram().minimumExpectedValue(Duration.ofNanos(100_000))
                    .maximumExpectedValue(Duration.ofSeconds(30)).register(meters);
        } else {
            snapshots = null;
            changes = null;
            delivery = null;
        }
    }

    /** The open streams of one ring, told of its versions. */
    final class RingStreams implements RingListener {
        final ServedRing ring;
        final Set<WatchStream> open = ConcurrentHashMap.newKeySet();
        volatile boolean deleted;
        /** The events streams open with, encoded once for all of them (a storm of reconnections); under the hub's lock. */
        final OpeningEvents opening = new OpeningEvents();

        RingStreams(ServedRing ring) {
            this.ring = ring;
        }

        @Override
        public void ringSwapped(RingState previous, RingState current, Op op) {
            swapped(this, current, op);
        }
    }

    @Override
    public Object attach(ServedRing ring) {
        return new RingStreams(ring);
    }

    /** The ring was deleted: its streams end (a follower that reconnects is told 404, naming {@code ring}). */
    @Override
    public synchronized void detach(ServedRing ring) {
        RingStreams of = ring.part(RingStreams.class);
        if (of != null) {
            of.deleted = true;
            for (WatchStream s : of.open) {
                s.close("the ring " + ring.name() + " was deleted");
            }
        }
    }

    /**
     * Opens a stream for a client that holds {@code lastEventId} (a version, or anything else) of the ring
     * {@code incarnation} (or {@code null}: not said): another incarnation than the ring's, or anything that is
     * not one, starts it with a snapshot.
     *
     * @throws ApiException 503 when {@code ringd.watch.max-streams} streams are open
     */
    synchronized WatchStream open(ServedRing ring, WatchStream.Sink sink, String lastEventId, String incarnation) {
        RingStreams of = ring.part(RingStreams.class);
        if (of == null || of.deleted) {
            throw new RingNotFoundException(ring.name(), "the ring " + ring.name() + " was deleted");
        }
        if (streams.size() >= props.maxStreams()) {
            throw new ApiException(Problems.BUSY, "at most " + props.maxStreams()
                    + " streams may be open at once; try again later", null);
        }
        WatchStream stream = new WatchStream(sink, writers.pool(), writers.closer(), props.maxQueued(), new WatchStream.Events() {
            @Override
            public void writeStarted() {
                writing.incrementAndGet();
            }

            @Override
            public void writeEnded() {
                writing.decrementAndGet();
            }

            @Override
            public void written(WatchStream.Item item) {
                count(item);
            }

            @Override
            public void closed(WatchStream s, String why) {
                streams.remove(s);
                probed.remove(s);
                of.open.remove(s);
                if (s.writingFor(System.nanoTime()) > 0) {
                    lingering.add(s); // the watchdog still watches its write
                }
                log.debug("Closed a /ring/events stream: {}", why);
            }
        }, false);
        RingService service = ring.service();
        RingHistory history = service.history();
        RingState current = service.current();
        Long after = incarnation == null || incarnation.equals(current.incarnation())
                ? RingHeaders.parseVersion(lastEventId) : null; // another history: its versions mean nothing here
        List<HistoryDelta> backlog = after != null && after >= history.baseVersion() && after <= current.version()
                ? history.after(after) : null;
        if (backlog != null && backlog.size() < props.maxQueued()) {
            for (HistoryDelta d : backlog) {
                stream.offer(of.opening.change(current.incarnation(), d.version(),
                        () -> WatchStream.Item.event(CHANGE, d.version(), changeEvent(d, service), null)));
                stream.lastOffered = d.version();
            }
            if (backlog.isEmpty()) {
                stream.lastOffered = after;
            }
        } else {
            stream.offer(of.opening.snapshot(current, () -> WatchStream.Item.event(SNAPSHOT, current.version(),
                    json.writeValueAsString(current.document()), null)));
            stream.lastOffered = current.version();
        }
        streams.add(stream);
        probed.add(stream);
        of.open.add(stream);
        return stream;
    }

    private synchronized void swapped(RingStreams of, RingState current, RingListener.Op op) {
        if (op == RingListener.Op.START || of.open.isEmpty()) {
            return;
        }
        if (op == RingListener.Op.RELOAD) { // versions may be missing: followers start again from what they hold
            of.opening.clear();
            for (WatchStream s : of.open) {
                s.close("the ring was reloaded from the store");
            }
            return;
        }
        RingService service = of.ring.service();
        HistoryDelta delta = service.history().delta(current.version());
        WatchStream.Item item = WatchStream.Item.event(CHANGE, current.version(), changeEvent(delta, service),
                current.committedAt());
        of.opening.changed(current.incarnation(), item);
        List<WatchStream> claimed = new ArrayList<>(of.open.size());
        for (WatchStream s : of.open) {
            if (current.version() > s.lastOffered) {
                s.lastOffered = current.version();
                if (s.offerClaimed(item)) {
                    claimed.add(s);
                }
            }
        }
        writers.drain(claimed);
    }

    /** The data of a {@code change} event. */
    private String changeEvent(HistoryDelta d, RingService service) {
        return json.writeValueAsString(ChangeEventJson.of(d.version(), service.current().incarnation(),
                WireTime.format(d.committedAt()),
                d.fingerprint() != null ? d.fingerprint() : service.ringAt(d.version()).fingerprint(), d.changes(),
                d.settings() == null ? null : d.settings().json(),
                d.plan() == null ? null : d.plan().json()));
    }

    private void count(WatchStream.Item item) {
        if (item.name() == null || snapshots == null) {
            return;
        }
        if (SNAPSHOT.equals(item.name())) {
            snapshots.increment();
        } else {
            changes.increment();
            if (item.committedAt() != null) {
                delivery.record(Duration.between(item.committedAt(), Instant.now()).abs());
            }
        }
    }

    private void keepAlive() {
        List<WatchStream> claimed = new ArrayList<>(streams.size());
        for (WatchStream s : streams) {
            if (s.offerClaimed(WatchStream.Item.KEEP_ALIVE)) {
                claimed.add(s);
            }
        }
        writers.drain(claimed);
    }

    /**
     * Writes an empty comment to the streams idle for ringd.watch.probe-interval
     * (or for {@code streams / probe-rate} seconds, when there are more
     * streams than the probe rate can probe that often), at most
     * {@code probe-rate * tick} of them a tick, so that probes come spread
     * out and idle streams cost a bounded share of the CPU. The container does
     * not watch an open asynchronous answer for the client going away, so a
     * stream learns of it only when a write fails: the first write after the
     * client left succeeds (the peer answers it with a reset), the next one
     * fails and frees the slot, within about two such periods. The streams
     * left over by the cap stay idle and come first in a later tick, since
     * those probed now were written to.
     */
    private void probe() {
        long now = System.nanoTime();
        long idle = props.probeIdleNanos(probed.size());
        int budget = probesPerTick;
        List<WatchStream> claimed = new ArrayList<>();
        for (WatchStream s : probed) {
            if (budget == 0) {
                break;
            }
            if (s.idleFor(now, idle)) {
                if (s.offerClaimed(WatchStream.Item.PROBE)) {
                    claimed.add(s);
                }
                budget--;
            }
        }
        writers.drain(claimed);
    }

    /**
     * Ends every stream whose write has been blocked for longer than
     * ringd.watch.write-timeout, and keeps one extra writer thread for each
     * such write until it returns.
     */
    private void watchdog() {
        try {
            if (writing.get() == 0 && lingering.isEmpty() && stuck.isEmpty()) {
                return; // nothing is being written: no write can be blocked
            }
            long now = System.nanoTime();
            long limit = props.writeTimeout().toNanos();
            for (Set<WatchStream> set : List.of(streams, lingering)) {
                for (WatchStream s : set) {
                    if (s.writingFor(now) > limit && stuck.add(s)) {
                        s.close("a write was blocked for more than " + props.writeTimeout().toMillis()
                                + " ms: the client reads too slowly");
                        resizeWriters();
                    }
                }
            }
            lingering.removeIf(s -> s.writingFor(now) == 0);
            if (stuck.removeIf(s -> s.writingFor(now) == 0)) {
                resizeWriters();
            }
        } catch (RuntimeException e) {
            log.warn("The /ring/events watchdog failed", e);
        }
    }

    private void resizeWriters() {
        writers.resize(props.writers() + (int) stuck.stream().filter(WatchStream::writeHoldsAThread).count());
    }

    /** Whether streams are told of their clients closing by their connections (ringd.watch.notice-closes). */
    boolean noticeCloses() {
        return props.noticeCloses();
    }

    /** {@code stream}'s connection tells of its client closing it: it is never probed. */
    void peerWatched(WatchStream stream) {
        stream.peerWatched();
        probed.remove(stream);
    }

    /** The streams open now. */
    int openStreams() {
        return streams.size();
    }

    private volatile boolean running = true;

    /**
     * Ends every stream when the application stops (or a test pauses it),
     * before the web server's graceful shutdown waits for open requests: a
     * stream never ends by itself. The hub goes on taking streams after a
     * restart; its threads end with the bean ({@link #destroy()}).
     */
    @Override
    public void stop() {
        running = false;
        for (WatchStream s : streams) {
            s.close("the server is stopping");
        }
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @PreDestroy
    void destroy() {
        stop();
        keepAlive.shutdownNow();
        writers.shutdown();
    }

    /** Stops first: before the web server's graceful shutdown (which stops at a lower phase). */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }
}
