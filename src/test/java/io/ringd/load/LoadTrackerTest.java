package io.ringd.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import io.ringd.ring.RingException;
import io.ringd.state.NodeLoads;
import io.ringd.state.RingListener;
import io.ringd.state.RingSettings;
import io.ringd.state.RingState;

/**
 * The decayed counts and reported loads of {@link LoadTracker}, on an injected
 * clock: a key counts 1 when routed and halves every half-life, whatever the
 * epochs in between; reports stand in for the count until they are cleared or
 * expire; loads follow membership.
 */
class LoadTrackerTest {

    static final long SECOND = 1_000_000_000L;
    static final long HALF_LIFE = 10 * SECOND;
    static final Duration TTL = Duration.ofSeconds(60);

    /** A clock the test moves. */
    static final class Clock {
        long now = 1_000 * SECOND; // an arbitrary origin: only differences matter

        long get() {
            return now;
        }

        void advance(long nanos) {
            now += nanos;
        }
    }

    final Clock clock = new Clock();
    final LoadTracker tracker = new LoadTracker(Duration.ofNanos(HALF_LIFE), TTL, clock::get);

    static RingState state(long version, String... ids) {
        List<Node> nodes = new ArrayList<>();
        for (String id : ids) {
            nodes.add(Node.of(id, 1));
        }
        HashRing ring = HashRing.of(RingConfig.defaults(), version, nodes);
        return new RingState(RingSettings.defaults(), ring, ring.fingerprint(), Instant.EPOCH);
    }

    void members(long version, String... ids) {
        tracker.ringSwapped(null, state(version, ids), RingListener.Op.BATCH);
    }

    /** The decayed count of {@code id} now, as GET /loads shows it. */
    double decayed(String id) {
        return tracker.snapshot().nodes().stream().filter(e -> e.id().equals(id)).findFirst().orElseThrow().decayed();
    }

    // ------------------------------------------------------------ decay

    @Test
    void oneKey_countsOne_thenHalvesEveryHalfLife() {
        members(1, "a", "b");
        tracker.routed(1, "a");
        assertThat(tracker.load("a")).isEqualTo(1.0);
        assertThat(tracker.load("b")).isZero();
        clock.advance(HALF_LIFE);
        assertThat(tracker.load("a")).isCloseTo(0.5, within(1e-15));
        clock.advance(HALF_LIFE);
        assertThat(tracker.load("a")).isCloseTo(0.25, within(1e-15));
        clock.advance(HALF_LIFE / 2);
        assertThat(tracker.load("a")).isCloseTo(0.25 / Math.sqrt(2), within(1e-15));
    }

    @Test
    void steadyTraffic_convergesToRateTimesHalfLifeOverLn2() {
        members(1, "a");
        long step = SECOND / 100; // 100 keys a second for 20 half-lives
        for (int i = 0; i < 20 * 10 * 100; i++) {
            tracker.routed(1, "a");
            clock.advance(step);
        }
        // the sum of a geometric series: 1 / (1 - 2^(-step/h)), just under 100 * 10 / ln 2
        double expected = 1 / (1 - Math.pow(2, -(double) step / HALF_LIFE));
        assertThat(tracker.load("a")).isCloseTo(expected * Math.pow(2, -(double) step / HALF_LIFE),
                within(expected * 1e-5));
        assertThat(expected).isCloseTo(100 * 10 / Math.log(2), within(1.0));
    }

    @Test
    void decay_matchesABruteForceSum_overManyEpochs_seeded() {
        for (long seed = 1; seed <= 20; seed++) {
            Random rnd = new Random(seed);
            Clock c = new Clock();
            long halfLife = (1 + rnd.nextInt(1000)) * 1_000_000L; // 1 ms to 1 s
            LoadTracker t = new LoadTracker(Duration.ofNanos(halfLife), TTL, c::get);
            String[] ids = {"a", "b", "c", "d"};
            t.ringSwapped(null, state(1, ids), RingListener.Op.START);
            Map<String, List<Long>> routedAt = new HashMap<>();
            for (int i = 0; i < 3000; i++) {
                // mostly small steps, sometimes long gaps: the run crosses many epochs of 64 half-lives
                long gap = rnd.nextInt(50) == 0 ? (long) (rnd.nextDouble() * 100 * halfLife)
                        : (long) (rnd.nextDouble() * halfLife / 4);
                c.advance(gap);
                String id = ids[Math.min(rnd.nextInt(5), 3)]; // d is routed to twice as often
                t.routed(1, id);
                routedAt.computeIfAbsent(id, k -> new ArrayList<>()).add(c.now);
                if (rnd.nextInt(100) == 0) {
                    for (String n : ids) {
                        double oracle = oracle(routedAt.getOrDefault(n, List.of()), c.now, halfLife);
                        assertThat(t.load(n)).as("seed %d, node %s, step %d", seed, n, i)
                                .isCloseTo(oracle, within(1e-9 * Math.max(1, oracle)));
                    }
                }
            }
        }
    }

    private static double oracle(List<Long> times, long now, long halfLife) {
        double sum = 0;
        for (long t : times) {
            sum += Math.pow(2, -(double) (now - t) / halfLife);
        }
        return sum;
    }

    @Test
    void landmarkMove_keepsTheCount() {
        members(1, "a");
        for (int i = 0; i < 1000; i++) {
            tracker.routed(1, "a");
        }
        long epoch = LoadTracker.EPOCH_HALF_LIVES * HALF_LIFE;
        clock.advance(epoch - 1); // just before the landmark moves
        double before = tracker.load("a");
        assertThat(before).isCloseTo(1000 * Math.pow(2, -(double) (epoch - 1) / HALF_LIFE), within(before * 1e-12));
        clock.advance(1); // the landmark moves on the next read or count
        tracker.routed(1, "a");
        assertThat(tracker.load("a")).isCloseTo(1 + 1000 * Math.pow(2, -LoadTracker.EPOCH_HALF_LIVES),
                within(1e-12));
        clock.advance(HALF_LIFE);
        assertThat(tracker.load("a")).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void longIdle_decaysToZero_withoutOverflow_andCountsAfresh() {
        members(1, "a");
        for (int i = 0; i < 1_000; i++) {
            tracker.routed(1, "a");
            clock.advance(HALF_LIFE / 3);
        }
        clock.advance(1_000 * HALF_LIFE); // far past two epochs, with no read in between
        assertThat(tracker.load("a")).isFinite().isLessThan(1e-200);
        tracker.routed(1, "a");
        assertThat(tracker.load("a")).isCloseTo(1.0, within(1e-12));
        NodeLoads.Reading r = tracker.read();
        assertThat(r.mean()).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void concurrentCounting_losesNothing_frozenClock() throws Exception {
        members(1, "a", "b");
        int threads = 8;
        int each = 20_000;
        runConcurrently(threads, i -> {
            for (int k = 0; k < each; k++) {
                tracker.routed(1, k % 2 == 0 ? "a" : "b");
            }
        });
        assertThat(tracker.load("a")).isEqualTo(threads * each / 2.0);
        assertThat(tracker.load("b")).isEqualTo(threads * each / 2.0);
    }

    @Test
    void concurrentCounting_acrossManyEpochs_matchesTheTimesHandedOut() throws Exception {
        // Every call of the clock hands out a new time; the only calls during the run are the counts',
        // so the keys were routed at exactly the times handed out, whatever the interleaving.
        AtomicLong time = new AtomicLong(0);
        long step = 10;
        long halfLife = 1_000; // 64 half-lives every 6,400 counts: the landmark moves about 25 times
        LoadTracker t = new LoadTracker(Duration.ofNanos(halfLife), TTL, () -> time.addAndGet(step));
        t.ringSwapped(null, state(1, "a"), RingListener.Op.START);
        long start = time.get();
        int threads = 8;
        int each = 20_000;
        runConcurrently(threads, i -> {
            for (int k = 0; k < each; k++) {
                t.routed(1, "a");
            }
        });
        long end = time.get();
        long readAt = end + step; // the next time handed out, the one load() reads at
        double oracle = 0;
        for (long at = start + step; at <= end; at += step) {
            oracle += Math.pow(2, -(double) (readAt - at) / halfLife);
        }
        assertThat(end - start).isEqualTo((long) threads * each * step);
        assertThat(t.load("a")).isCloseTo(oracle, within(oracle * 1e-9));
    }

    private static void runConcurrently(int threads, java.util.function.IntConsumer body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int n = i;
                done.add(pool.submit(() -> {
                    go.await();
                    body.accept(n);
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    // ------------------------------------------------------------ what counts

    @Test
    void onlyTheVersionTheLoadsFollow_andMembers_count() {
        members(3, "a", "b");
        tracker.routed(2, "a"); // an older version
        tracker.routed(4, "a"); // a version not followed yet
        tracker.routed(3, "zz"); // not a member
        assertThat(tracker.load("a")).isZero();
        assertThat(tracker.load("zz")).isZero();
        tracker.routed(3, "a");
        assertThat(tracker.load("a")).isEqualTo(1.0);
    }

    @Test
    void aBatchOfKeys_weighsAsManyKeysRoutedAtTheSameInstant_seeded() {
        long seed = Long.getLong("ringd.seed", System.nanoTime());
        Random rnd = new Random(seed);
        Clock c = new Clock();
        LoadTracker batched = new LoadTracker(Duration.ofNanos(HALF_LIFE), TTL, c::get);
        LoadTracker single = new LoadTracker(Duration.ofNanos(HALF_LIFE), TTL, c::get);
        for (LoadTracker t : List.of(batched, single)) {
            t.ringSwapped(null, state(1, "a", "b"), RingListener.Op.BATCH);
        }
        for (int step = 0; step < 200; step++) { // over several epochs (64 half-lives each)
            String id = rnd.nextBoolean() ? "a" : "b";
            int k = rnd.nextInt(1_001);
            batched.routed(1, id, k);
            for (int i = 0; i < k; i++) {
                single.routed(1, id);
            }
            c.advance((long) (rnd.nextDouble() * 5 * HALF_LIFE));
            for (String n : List.of("a", "b")) {
                double expected = single.load(n);
                assertThat(batched.load(n)).as("seed %d, step %d, node %s", seed, step, n)
                        .isCloseTo(expected, within(Math.max(expected, 1e-300) * 1e-12));
            }
        }
    }

    @Test
    void aBatch_countsLikeItsKeys_onlyAtTheFollowedVersion_andForMembers() {
        members(3, "a", "b");
        tracker.routed(2, "a", 5); // an older version
        tracker.routed(3, "zz", 5); // not a member
        tracker.routed(3, "a", 0);
        tracker.routed(3, "a", -1);
        assertThat(tracker.load("a")).isZero();
        tracker.routed(3, "a", 7);
        assertThat(tracker.load("a")).isEqualTo(7.0);
        clock.advance(HALF_LIFE);
        assertThat(tracker.load("a")).isCloseTo(3.5, within(1e-14));
    }

    @Test
    void beforeTheFirstRing_nothingCounts_andTheMeanIsZero() {
        tracker.routed(0, "a");
        tracker.routed(-1, "a");
        assertThat(tracker.read().mean()).isZero();
        assertThat(tracker.snapshot().nodes()).isEmpty();
        assertThat(tracker.snapshot().version()).isEqualTo(-1);
    }

    // ------------------------------------------------------------ reports

    @Test
    void report_standsInForTheDecayedCount_untilItExpires() {
        members(1, "a", "b");
        tracker.routed(1, "a");
        LoadTracker.One one = tracker.report("a", 42.5);
        assertThat(one.version()).isEqualTo(1);
        assertThat(one.node()).isEqualTo(new LoadTracker.Entry("a", 42.5, true, 1.0));
        assertThat(tracker.load("a")).isEqualTo(42.5);
        tracker.routed(1, "a"); // the decayed count goes on under the report
        clock.advance(TTL.toNanos() - 1);
        assertThat(tracker.load("a")).isEqualTo(42.5);
        assertThat(decayed("a")).isCloseTo(2 * Math.pow(2, -(double) (TTL.toNanos() - 1) / HALF_LIFE), within(1e-12));
        clock.advance(1); // exactly the TTL old: expired
        assertThat(tracker.load("a")).isCloseTo(2 * Math.pow(2, -(double) TTL.toNanos() / HALF_LIFE), within(1e-12));
        LoadTracker.Entry e = tracker.snapshot().nodes().get(0);
        assertThat(e.reported()).isFalse();
        assertThat(e.load()).isEqualTo(e.decayed());
    }

    @Test
    void report_isReplacedAndCleared() {
        members(1, "a");
        tracker.report("a", 5);
        clock.advance(TTL.toNanos() / 2);
        tracker.report("a", 7); // a new report: a new TTL
        clock.advance(TTL.toNanos() / 2 + 1);
        assertThat(tracker.load("a")).isEqualTo(7.0);
        LoadTracker.One cleared = tracker.clear("a");
        assertThat(cleared.node().reported()).isFalse();
        assertThat(tracker.load("a")).isZero();
        assertThat(tracker.clear("a").node().reported()).as("clearing twice answers the same").isFalse();
    }

    @Test
    void report_refusesNonMembersAndBadValues() {
        members(1, "a");
        assertThatThrownBy(() -> tracker.report("b", 1)).isInstanceOf(RingException.UnknownNode.class);
        assertThatThrownBy(() -> tracker.clear("b")).isInstanceOf(RingException.UnknownNode.class);
        for (double bad : new double[] {-1, -Double.MIN_VALUE, Double.NaN, Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY}) {
            assertThatThrownBy(() -> tracker.report("a", bad)).as("load %s", bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("load");
        }
        assertThat(tracker.report("a", -0.0).node().load()).as("-0.0 is kept as 0.0")
                .isEqualTo(0.0).matches(v -> Double.doubleToRawLongBits(v) == 0L);
        assertThat(tracker.report("a", Double.MAX_VALUE).node().load()).isEqualTo(Double.MAX_VALUE);
    }

    // ------------------------------------------------------------ membership

    @Test
    void loadsFollowMembership_leavingDropsThem_joiningStartsAtZero() {
        members(1, "a", "b");
        tracker.routed(1, "a");
        tracker.routed(1, "b");
        tracker.report("b", 9);
        members(2, "a", "b", "c"); // a change that keeps a and b
        assertThat(tracker.load("a")).isEqualTo(1.0);
        assertThat(tracker.load("b")).isEqualTo(9.0);
        assertThat(tracker.load("c")).isZero();
        members(3, "a", "c"); // b leaves
        assertThat(tracker.snapshot().nodes()).extracting(LoadTracker.Entry::id).containsExactly("a", "c");
        assertThatThrownBy(() -> tracker.report("b", 1)).isInstanceOf(RingException.UnknownNode.class);
        assertThat(tracker.load("b")).isZero();
        members(4, "a", "b", "c"); // b is back: from zero, no report
        LoadTracker.Entry b = tracker.snapshot().nodes().get(1);
        assertThat(b).isEqualTo(new LoadTracker.Entry("b", 0, false, 0));
        tracker.routed(3, "a"); // the old version: not counted
        tracker.routed(4, "a");
        assertThat(tracker.load("a")).isEqualTo(2.0);
    }

    @Test
    void mean_isOverEveryMember_andTheSnapshotShowsTheSameMean() {
        members(1, "a", "b", "c", "d");
        tracker.report("a", 0.1);
        tracker.report("b", 0.2);
        tracker.report("c", 0.3);
        tracker.routed(1, "d");
        tracker.routed(1, "d");
        NodeLoads.Reading r = tracker.read();
        double expected = (((0.1 + 0.2) + 0.3) + 2.0) / 4; // ascending id order
        assertThat(r.mean()).isEqualTo(expected);
        assertThat(tracker.snapshot().mean()).isEqualTo(expected);
        assertThat(r.load("a")).isEqualTo(0.1);
        assertThat(r.load("d")).isEqualTo(2.0);
        assertThat(r.load("nope")).isZero();
        assertThat(tracker.snapshot().version()).isEqualTo(1);
    }

    @Test
    void hugeReportedLoads_keepTheMeanFinite() {
        members(1, "a", "b", "c");
        tracker.report("a", Double.MAX_VALUE);
        tracker.report("b", Double.MAX_VALUE);
        double expected = Double.MAX_VALUE / 3 + Double.MAX_VALUE / 3;
        assertThat(tracker.read().mean()).isFinite().isEqualTo(expected);
        assertThat(tracker.snapshot().mean()).isEqualTo(expected);
    }

    @Test
    void properties_defaultsAndLimits() {
        LoadProperties p = new LoadProperties(Duration.ofSeconds(10), Duration.ofSeconds(60), null);
        assertThat(new LoadTracker(p, clock::get).toString()).contains("half-life PT10S", "report TTL PT1M");
        assertThatThrownBy(() -> new LoadProperties(Duration.ZERO, Duration.ofSeconds(60), null))
                .hasMessageContaining("ringd.load.half-life");
        assertThatThrownBy(() -> new LoadProperties(Duration.ofDays(2), Duration.ofSeconds(60), null))
                .hasMessageContaining("ringd.load.half-life");
        assertThatThrownBy(() -> new LoadProperties(Duration.ofSeconds(10), Duration.ofMillis(999), null))
                .hasMessageContaining("ringd.load.report-ttl");
    }
}
