package io.ringd.follow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ringd.ring.Node;
import io.ringd.state.ExpensiveReads;
import io.ringd.state.RingService;
import io.ringd.state.RingSettings;
import io.ringd.store.MemoryRingStore;

/**
 * The followers of one ring, on a fake clock: states, silence and forgetting, the limit and
 * who goes first, convergence, latencies, and what an instance posts of them.
 */
class FollowerRegistryTest {

    static final String WRONG = "0".repeat(64);

    final AtomicLong now = new AtomicLong(1_800_000_000_000L);
    final List<Double> applied = new ArrayList<>();
    RingService service;
    FollowerRegistry registry;

    @BeforeEach
    void ring() {
        service = new RingService(new MemoryRingStore(), RingSettings.defaults(), 8, List.of(), Clock.systemUTC(),
                ExpensiveReads.unlimited(), false);
        registry = new FollowerRegistry("default", service, new FollowersProperties(Duration.ofSeconds(60), 5, 1000,
                10), now::get, applied::add);
        service.listen(registry);
        service.start();
    }

    long put(String id) {
        return service.put(Node.of(id, 1), null).state().version();
    }

    String fp() {
        return service.current().fingerprint();
    }

    Map<String, FollowerRegistry.Row> rows() {
        Map<String, FollowerRegistry.Row> out = new HashMap<>();
        for (FollowerRegistry.Row r : registry.rows(now.get())) {
            out.put(r.entry().id(), r);
        }
        return out;
    }

    @Test
    void states_followTheRing_withoutTouchingEntries() {
        long v1 = put("a");
        String fp1 = fp();
        assertThat(registry.report("f1", v1, fp1, Map.of())).isEqualTo(FollowerRegistry.Outcome.TAKEN);
        assertThat(rows().get("f1").state()).isEqualTo(FollowerState.CURRENT);
        long v2 = put("b");
        assertThat(rows().get("f1").state()).isEqualTo(FollowerState.BEHIND);
        assertThat(rows().get("f1").lagVersions()).isEqualTo(v2 - v1);
        registry.report("f2", v1, WRONG, Map.of()); // a fingerprint that is not v1's
        registry.report("f3", v2 + 5, fp(), Map.of()); // a version never made
        registry.report("f4", v2, WRONG, Map.of()); // the current version, another ring
        Map<String, FollowerRegistry.Row> r = rows();
        assertThat(r.get("f2").state()).isEqualTo(FollowerState.DIVERGED);
        assertThat(r.get("f3").state()).isEqualTo(FollowerState.DIVERGED);
        assertThat(r.get("f4").state()).isEqualTo(FollowerState.DIVERGED);
        FollowerCounts.Summary s = registry.summary(registry.rows(now.get()));
        assertThat(s).isEqualTo(new FollowerCounts.Summary(v2, 0, 1, 3, 0));
    }

    @Test
    void aVersionNoLongerKept_isBehind_whateverItsFingerprint() {
        long v1 = put("a");
        for (int i = 0; i < 10; i++) {
            put("n" + i); // history keeps 8 versions
        }
        assertThat(service.oldestVersion()).isGreaterThan(v1);
        registry.report("old", v1, WRONG, Map.of());
        assertThat(rows().get("old").state()).isEqualTo(FollowerState.BEHIND);
        assertThat(rows().get("old").entry().appliedSeconds()).isNull();
    }

    @Test
    void appliedSeconds_fromTheCommit_toTheFirstReportOfTheVersion() {
        long v1 = put("a");
        long committed = service.current().committedAt().toEpochMilli();
        now.set(committed + 1500);
        registry.report("f", v1, fp(), Map.of());
        now.addAndGet(20_000);
        registry.report("f", v1, fp(), Map.of()); // a refresh: the first report's time stays
        assertThat(registry.localEntry("f").appliedSeconds()).isEqualTo(1.5);
        assertThat(applied).containsExactly(1.5);
        assertThat(registry.localEntry("f").reportedAt()).isEqualTo(committed + 21_500);
    }

    @Test
    void silentAfterTheTtl_forgottenAfterTenTimesIt() {
        long v = put("a");
        registry.report("f", v, fp(), Map.of());
        now.addAndGet(59_999);
        assertThat(rows().get("f").state()).isEqualTo(FollowerState.CURRENT);
        now.addAndGet(1);
        assertThat(rows().get("f").state()).isEqualTo(FollowerState.SILENT);
        now.addAndGet(540_000 - 1);
        registry.sweep(now.get());
        assertThat(rows()).containsKey("f");
        now.addAndGet(1);
        registry.sweep(now.get());
        assertThat(rows()).doesNotContainKey("f");
    }

    @Test
    void full_refusesNewIds_untilOldOnesAreSilent_thenTheOldestGoFirst() {
        long v = put("a");
        for (int i = 0; i < 5; i++) {
            registry.report("f" + i, v, fp(), Map.of());
            now.addAndGet(1000);
        }
        assertThat(registry.report("new", v, fp(), Map.of())).isEqualTo(FollowerRegistry.Outcome.FULL);
        assertThat(registry.report("f3", v, fp(), Map.of())).as("a known id still reports")
                .isEqualTo(FollowerRegistry.Outcome.TAKEN);
        now.addAndGet(57_000); // f0 and f1 silent (60 s and 59 s... f0 at 61 s), the rest not
        assertThat(registry.report("new", v, fp(), Map.of())).isEqualTo(FollowerRegistry.Outcome.TAKEN);
        assertThat(rows()).containsKey("new").doesNotContainKey("f0").hasSize(5);
    }

    @Test
    void convergence_countsTheLiveOnes_atOrPast() {
        long v1 = put("a");
        String fp1 = fp();
        long v2 = put("b");
        registry.report("a", v2, fp(), Map.of());
        registry.report("b", v1, fp1, Map.of());
        registry.report("c", v1, WRONG, Map.of());
        FollowerCounts.Tally t = registry.tally(registry.rows(now.get()));
        assertThat(t.converged(v2, 1.0)).isEqualTo(new FollowerCounts.Convergence(v2, 1.0, false, 3, 1, 1));
        assertThat(t.converged(v1, 0.66).converged()).isTrue();
        assertThat(t.converged(v1, 0.67).converged()).isFalse();
        assertThat(t.converged(v2 + 1, 0.01).converged()).as("a version the ring has not reached").isFalse();
        now.addAndGet(60_000);
        FollowerCounts.Tally none = registry.tally(registry.rows(now.get()));
        assertThat(none.converged(v2, 1.0)).as("only silent followers: none counts")
                .isEqualTo(new FollowerCounts.Convergence(v2, 1.0, true, 0, 0, 0));
    }

    @Test
    void census_isKeptWhileFollowersReportWhatTheyReportedBefore_andCountedAgainOnEachChange() {
        long v1 = put("a");
        String fp1 = fp();
        registry.report("f1", v1, fp1, Map.of());
        registry.report("f2", v1, fp1, Map.of());
        FollowerCounts.Census c = registry.census(now.get());
        assertThat(c.summary()).isEqualTo(new FollowerCounts.Summary(v1, 2, 0, 0, 0));
        assertThat(c.validUntil()).isEqualTo(now.get() + 60_000);
        now.addAndGet(1000);
        registry.report("f1", v1, fp1, Map.of());
        assertThat(registry.census(now.get())).as("a report of the same version changes nothing").isSameAs(c);
        registry.report("f3", v1, fp1, Map.of());
        FollowerCounts.Census c3 = registry.census(now.get());
        assertThat(c3).as("a new follower").isNotSameAs(c);
        assertThat(c3.summary().current()).isEqualTo(3);
        long v2 = put("b");
        FollowerCounts.Census afterCommit = registry.census(now.get());
        assertThat(afterCommit.summary()).as("a commit").isEqualTo(new FollowerCounts.Summary(v2, 0, 3, 0, 0));
        registry.report("f1", v2, fp(), Map.of());
        assertThat(registry.census(now.get()).summary()).as("another version")
                .isEqualTo(new FollowerCounts.Summary(v2, 1, 2, 0, 0));
        registry.report("f1", v2, WRONG, Map.of());
        assertThat(registry.census(now.get()).summary()).as("another fingerprint")
                .isEqualTo(new FollowerCounts.Summary(v2, 0, 2, 1, 0));
        // f2 reported last at the start: it falls silent 60 s after, with nothing else happening.
        now.set(c.at() + 60_000 - 1);
        assertThat(registry.census(now.get()).summary().silent()).isZero();
        now.incrementAndGet();
        assertThat(registry.census(now.get()).summary()).as("the first live follower falls silent")
                .isEqualTo(new FollowerCounts.Summary(v2, 0, 1, 1, 1));
        registry.report("f2", v1, fp1, Map.of());
        assertThat(registry.census(now.get()).summary()).as("back from silence, at the same version")
                .isEqualTo(new FollowerCounts.Summary(v2, 0, 2, 1, 0));
    }

    /**
     * Whatever happens (reports of any version and fingerprint, commits, time passing across the
     * TTL, forgetting, other instances' posts), the census kept answers what counting every row
     * answers.
     */
    @Test
    void census_alwaysAgreesWithCountingEveryRow() {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        service = new RingService(new MemoryRingStore(), RingSettings.defaults(), 8, List.of(), Clock.systemUTC(),
                ExpensiveReads.unlimited(), false);
        registry = new FollowerRegistry("default", service, new FollowersProperties(Duration.ofSeconds(60), 1000,
                1_000_000, 10), now::get, null);
        service.listen(registry);
        service.start();
        List<Long> versions = new ArrayList<>();
        Map<Long, String> fps = new HashMap<>();
        versions.add(put("n0"));
        fps.put(versions.get(0), fp());
        int kept = 0;
        for (int step = 0; step < 3000; step++) {
            int op = rnd.nextInt(100);
            if (op < 55) {
                String id = "f" + rnd.nextInt(60);
                long v = rnd.nextInt(10) == 0 ? versions.get(versions.size() - 1) + 1 + rnd.nextInt(3)
                        : versions.get(rnd.nextInt(versions.size()));
                String f = rnd.nextInt(8) == 0 || !fps.containsKey(v) ? WRONG : fps.get(v);
                registry.report(id, v, f, Map.of());
            } else if (op < 75) {
                now.addAndGet(rnd.nextInt(4) == 0 ? 60_000 - rnd.nextInt(3) : rnd.nextInt(20_000));
            } else if (op < 80) {
                long v = put("n" + step);
                versions.add(v);
                fps.put(v, fp());
            } else if (op < 85) {
                registry.sweep(now.get());
            } else if (op < 90) {
                Map<String, FollowerEntry> there = new HashMap<>();
                for (int i = rnd.nextInt(20); i > 0; i--) {
                    String id = "f" + rnd.nextInt(80);
                    long v = versions.get(rnd.nextInt(versions.size()));
                    boolean match = rnd.nextInt(6) != 0;
                    there.put(id, new FollowerEntry(id, v, null, match, now.get() - rnd.nextInt(90_000),
                            now.get(), null, Map.of()));
                }
                registry.remote(there.isEmpty() ? Map.of() : Map.of("i2", there), Map.of());
            } else {
                now.addAndGet(rnd.nextInt(3));
            }
            FollowerCounts.Census before = registry.census(now.get());
            FollowerCounts.Census c = registry.census(now.get());
            if (c == before && c.at() < now.get()) {
                kept++;
            }
            List<FollowerRegistry.Row> rows = registry.rows(now.get());
            assertThat(c.summary()).as("seed %d step %d", seed, step).isEqualTo(registry.summary(rows));
            FollowerCounts.Tally t = registry.tally(rows);
            assertThat(c.tally().followers()).as("seed %d step %d", seed, step).isEqualTo(t.followers());
            assertThat(c.tally().diverged()).as("seed %d step %d", seed, step).isEqualTo(t.diverged());
            assertThat(c.tally().versions()).as("seed %d step %d", seed, step).containsExactly(t.versions());
            assertThat(c.tally().ringVersion()).as("seed %d step %d", seed, step).isEqualTo(t.ringVersion());
        }
        assertThat(kept).as("seed %d: censuses kept from an earlier instant", seed).isPositive();
    }

    @Test
    void latencies_ofMembersOnly_medianOfTheLiveOnes() {
        long v = put("a");
        put("b");
        v = service.current().version();
        registry.report("f1", v, fp(), Map.of("a", 1.0, "b", 10.0, "gone", 5.0));
        registry.report("f2", v, fp(), Map.of("a", 3.0));
        registry.report("f3", v, fp(), Map.of("a", 8.0, "b", 20.0));
        registry.sweep(now.get());
        assertThat(registry.medians()).containsExactlyInAnyOrderEntriesOf(Map.of("a", 3.0, "b", 15.0));
        assertThat(registry.localEntry("f1").latencies()).doesNotContainKey("gone");
        now.addAndGet(60_000);
        registry.report("f2", v, fp(), Map.of("a", 3.0));
        registry.sweep(now.get());
        assertThat(registry.medians()).as("the silent ones do not count").containsExactlyEntriesOf(Map.of("a", 3.0));
    }

    @Test
    void sketches_exactUpToTheirPoints_closeBeyond() {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        for (int round = 0; round < 200; round++) {
            int instances = 1 + rnd.nextInt(4);
            List<double[]> sketches = new ArrayList<>();
            List<Double> all = new ArrayList<>();
            boolean small = rnd.nextBoolean();
            for (int i = 0; i < instances; i++) {
                int n = 1 + rnd.nextInt(small ? LatencySketch.POINTS : 5000);
                List<Double> values = new ArrayList<>();
                for (int k = 0; k < n; k++) {
                    values.add(Math.round(rnd.nextDouble() * 1000) / 10.0);
                }
                all.addAll(values);
                sketches.add(LatencySketch.of(values));
                assertThat(LatencySketch.valid(sketches.get(i))).isTrue();
            }
            double[] sorted = all.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int n = sorted.length;
            double exact = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
            double got = LatencySketch.median(sketches);
            if (small) {
                assertThat(got).as("seed %d round %d", seed, round).isEqualTo(exact);
            } else { // within the spread of two order-statistic steps around the middle
                int lo = Arrays.binarySearch(sorted, got);
                double rank = (lo < 0 ? -lo - 1 : lo) / (double) n;
                assertThat(rank).as("seed %d round %d: rank of the median", seed, round).isBetween(0.47, 0.53);
            }
        }
    }

    @Test
    void boardDocument_roundTrips() {
        long v = put("a");
        registry.report("web-1:42/x", v, fp(), Map.of("a", 2.5));
        registry.report("ahead", v + 3, WRONG, Map.of());
        byte[] doc = BoardDocument.encode(registry.localEntries(), registry.localLatencies(now.get()));
        BoardDocument.Decoded d = BoardDocument.decode(doc);
        assertThat(d.followers().keySet()).containsExactlyInAnyOrder("web-1:42/x", "ahead");
        FollowerEntry mine = registry.localEntry("web-1:42/x");
        assertThat(d.followers().get("web-1:42/x")).isEqualTo(new FollowerEntry(mine.id(), mine.version(),
                null, true, mine.reportedAt(), mine.firstAt(), mine.appliedSeconds(), Map.of()));
        assertThat(d.followers().get("ahead").fingerprint()).isEqualTo(WRONG);
        assertThat(d.followers().get("ahead").match()).isNull();
        assertThat(d.latencies().get("a")).containsExactly(1, 2.5);
        assertThatThrownBy(() -> BoardDocument.decode("not gzip".getBytes()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void remoteFollowers_mergeWithLocal_newestReportWins() {
        long v1 = put("a");
        String fp1 = fp();
        long v2 = put("b");
        registry.report("both", v1, fp1, Map.of());
        FollowerEntry newer = new FollowerEntry("both", v2, null, true, now.get() + 10, now.get(),
                0.1, Map.of());
        FollowerEntry other = new FollowerEntry("there", v2, null, true, now.get(), now.get(), 0.2,
                Map.of());
        registry.remote(Map.of("i2", Map.of("both", newer, "there", other)), Map.of("i2", Map.of("a",
                new double[] {1, 7.0})));
        Map<String, FollowerRegistry.Row> r = rows();
        assertThat(r).containsOnlyKeys("both", "there");
        assertThat(r.get("both").entry().version()).isEqualTo(v2);
        assertThat(r.get("both").state()).isEqualTo(FollowerState.CURRENT);
        registry.sweep(now.get());
        assertThat(registry.medians()).containsExactlyEntriesOf(Map.of("a", 7.0));
    }

    @Test
    void reportBudget_takesABurst_thenTheRate() {
        ReportBudget b = new ReportBudget(10, 20, now::get);
        for (int i = 0; i < 20; i++) {
            b.take();
        }
        assertThatThrownBy(b::take).isInstanceOf(ReportBudget.Exhausted.class)
                .hasMessageContaining("10 follower reports a second");
        now.addAndGet(100); // one more token
        b.take();
        assertThatThrownBy(b::take).isInstanceOf(ReportBudget.Exhausted.class);
    }
}
