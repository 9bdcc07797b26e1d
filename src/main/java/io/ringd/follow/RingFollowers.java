package io.ringd.follow;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.state.BusyException;
import io.ringd.state.Convergence;
import io.ringd.state.NodeLatencies;
import io.ringd.state.RingListener;
import io.ringd.state.RingState;
import io.ringd.state.SharedBoard;

/**
 * The followers of one served ring: its {@link FollowerRegistry}, the
 * requests waiting for convergence, the periodic pass that recounts them, and
 * the board where it shares its followers with the other instances.
 *
 * <p>No thread waits for a request: a waiting {@code GET /followers/converged}
 * is a future, completed by the pass that finds its share reached (run within
 * {@link #NUDGE_MILLIS} of a report or commit that may reach it) or by its
 * timer.
 */
final class RingFollowers implements RingListener, NodeLatencies, Convergence {

    private static final Logger log = LoggerFactory.getLogger(RingFollowers.class);

    /** How often the followers are recounted: the metrics, the medians, the board. */
    static final long PASS_MILLIS = 500;
    /** From a report or commit to the pass that answers the waiting requests it may answer. */
    static final long NUDGE_MILLIS = 10;
    /** How often an instance posts on the board when its followers did not change: keeps their times fresh. */
    static final long REFRESH_MILLIS = 10_000;

    private final String ring;
    private final FollowerRegistry registry;
    private final FollowersProperties props;
    private final ScheduledExecutorService scheduler;
    private final ExecutorService poster;
    private final SharedBoard board;
    private final Set<Waiter> waiters = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean nudged = new AtomicBoolean();
    private final AtomicBoolean posting = new AtomicBoolean();
    private final ScheduledFuture<?> pass;
    private volatile FollowerCounts.Summary summary = FollowerCounts.Summary.EMPTY;
    private volatile boolean closed;
    private volatile long postedChanges = -1;
    private volatile long postedAt;
    private volatile boolean boardFailing;

    /** One waiting request. */
    private record Waiter(long version, double share, CompletableFuture<FollowerCounts.Convergence> answer) {
    }

    RingFollowers(String ring, FollowerRegistry registry, FollowersProperties props, ScheduledExecutorService scheduler,
            ExecutorService poster, SharedBoard board) {
        this.ring = ring;
        this.registry = registry;
        this.props = props;
        this.scheduler = scheduler;
        this.poster = poster;
        this.board = board;
        if (board != null) {
            board.follow(this::remote);
        }
        this.pass = scheduler.scheduleWithFixedDelay(this::passSafely, PASS_MILLIS, PASS_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    FollowerRegistry registry() {
        return registry;
    }

    /** The counts as of the last pass, for the metrics. */
    FollowerCounts.Summary summary() {
        return summary;
    }

    /** Whether the followers are shared with other instances through a board. */
    boolean shared() {
        return board != null;
    }

    @Override
    public void ringSwapped(RingState previous, RingState current, Op op) {
        registry.ringSwapped(previous, current, op);
        nudge();
    }

    @Override
    public Map<String, Double> medians() {
        return registry.medians();
    }

    /** A report was taken: answers the waiting requests it may answer, shortly. */
    FollowerRegistry.Outcome report(String id, long version, String fingerprint, Map<String, Double> latencies) {
        FollowerRegistry.Outcome o = registry.report(id, version, fingerprint, latencies);
        nudge();
        return o;
    }

    // ------------------------------------------------------------------ convergence

    @Override
    public Convergence.Answer converged(long version, double share) {
        FollowerCounts.Convergence c = registry.tally(registry.now()).converged(version, share);
        return new Convergence.Answer(c.converged(), c.followers(), c.atOrPast(), c.diverged());
    }

    /**
     * Answers whether the followers reached {@code share} at {@code version}: now when they have
     * or {@code wait} is zero, else as soon as they do or when {@code wait} runs out. Cancelling the
     * future stops the wait.
     *
     * @throws BusyException if as many requests wait for this ring as may
     */
    CompletableFuture<FollowerCounts.Convergence> await(long version, double share, Duration wait) {
        FollowerCounts.Convergence now = registry.tally(registry.now()).converged(version, share);
        if (now.converged() || wait.isZero() || closed) {
            return CompletableFuture.completedFuture(now);
        }
        if (waiters.size() >= props.maxWaiters()) {
            throw new BusyException(props.maxWaiters() + " requests wait for the followers of ring " + ring
                    + " already (ringd.followers.max-waiters)");
        }
        Waiter w = new Waiter(version, share, new CompletableFuture<>());
        waiters.add(w);
        ScheduledFuture<?> timer = scheduler.schedule(() -> w.answer().complete(
                registry.tally(registry.now()).converged(version, share)),
                wait.toMillis(), TimeUnit.MILLISECONDS);
        w.answer().whenComplete((c, e) -> {
            waiters.remove(w);
            timer.cancel(false);
        });
        return w.answer();
    }

    private void nudge() {
        if (!waiters.isEmpty() && nudged.compareAndSet(false, true)) {
            try {
                scheduler.schedule(this::answerWaiters, NUDGE_MILLIS, TimeUnit.MILLISECONDS);
            } catch (RuntimeException e) { // shutting down
                nudged.set(false);
            }
        }
    }

    private void answerWaiters() {
        nudged.set(false);
        if (waiters.isEmpty()) {
            return;
        }
        FollowerCounts.Tally t = registry.tally(registry.now());
        answer(t);
    }

    private void answer(FollowerCounts.Tally t) {
        for (Waiter w : waiters) {
            FollowerCounts.Convergence c = t.converged(w.version(), w.share());
            if (c.converged()) {
                w.answer().complete(c);
            }
        }
    }

    // ------------------------------------------------------------------ the pass

    private void passSafely() {
        try {
            pass();
        } catch (RuntimeException e) {
            log.error("The followers pass of ring {} failed", ring, e);
        }
    }

    /**
     * Takes the census (counted again only if something changed), forgets the long silent, answers
     * waiters, posts on the board.
     */
    void pass() {
        long now = registry.now();
        FollowerCounts.Census c = registry.sweep(now);
        summary = c.summary();
        if (!waiters.isEmpty()) {
            answer(c.tally());
        }
        if (board != null) {
            post(now);
        }
    }

    private void post(long now) {
        long changes = registry.localChanges();
        if (changes == 0 && postedChanges < 0) {
            return; // nothing reported here yet: nothing to post
        }
        if (changes == postedChanges && now - postedAt < REFRESH_MILLIS || closed) {
            return;
        }
        if (!posting.compareAndSet(false, true)) {
            return;
        }
        try {
            poster.execute(() -> {
                try {
                    byte[] doc = BoardDocument.encode(registry.localEntries(), registry.localLatencies(now));
                    board.post(doc);
                    postedChanges = changes;
                    postedAt = now;
                    if (boardFailing) {
                        log.info("Posting the followers of ring {} on its board works again", ring);
                        boardFailing = false;
                    }
                } catch (RuntimeException e) {
                    if (!boardFailing) {
                        log.warn("Could not post the followers of ring {} on its board (tried again every {} ms): {}",
                                ring, PASS_MILLIS, e.toString());
                        boardFailing = true;
                    }
                } finally {
                    posting.set(false);
                }
            });
        } catch (RuntimeException e) { // shutting down
            posting.set(false);
        }
    }

    /** Every other instance's post, as the board hands them over. */
    private void remote(Map<String, byte[]> posts) {
        Map<String, Map<String, FollowerEntry>> followers = new HashMap<>();
        Map<String, Map<String, double[]>> latencies = new HashMap<>();
        posts.forEach((instance, bytes) -> {
            try {
                BoardDocument.Decoded d = BoardDocument.decode(bytes);
                followers.put(instance, d.followers());
                latencies.put(instance, d.latencies());
            } catch (IllegalArgumentException e) {
                log.warn("Ignoring what instance {} posted of the followers of ring {}: {}", instance, ring,
                        e.getMessage());
            }
        });
        registry.remote(followers, latencies);
        nudge();
    }

    /** The ring was deleted or this instance stops: answers every waiting request and leaves the board. */
    void close() {
        closed = true;
        pass.cancel(false);
        FollowerCounts.Tally t = registry.tally(List.of());
        for (Waiter w : waiters) {
            w.answer().complete(t.converged(w.version(), w.share()));
        }
        if (board != null) {
            try {
                board.close();
            } catch (RuntimeException e) {
                log.debug("Leaving the followers board of ring {}", ring, e);
            }
        }
    }
}
