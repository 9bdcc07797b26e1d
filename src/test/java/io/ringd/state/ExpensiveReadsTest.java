package io.ringd.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.store.MemoryRingStore;

/** The gate of expensive reads, and old versions rebuilt once through it however many ask. */
class ExpensiveReadsTest {

    @Test
    void pastThePermits_oneWaitsItsTurn_thenIsRefusedBusy_andTheWorkDoesNotRun() throws Exception {
        ExpensiveReads reads = new ExpensiveReads(1, Duration.ofMillis(50));
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<String> held = pool.submit(() -> reads.run("hold", () -> {
                holding.countDown();
                await(release);
                return "done";
            }));
            assertThat(holding.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(reads.running()).isEqualTo(1);
            boolean[] ran = {false};
            long start = System.nanoTime();
            assertThatThrownBy(() -> reads.run("compute", () -> ran[0] = true))
                    .isInstanceOf(BusyException.class).hasMessageContaining("could not compute now");
            assertThat(System.nanoTime() - start).as("it waited its turn first").isGreaterThanOrEqualTo(40_000_000L);
            assertThat(ran[0]).isFalse();
            assertThat(reads.refused()).isEqualTo(1);
            release.countDown();
            assertThat(held.get(5, TimeUnit.SECONDS)).isEqualTo("done");
            assertThat(reads.run("compute", () -> "now")).isEqualTo("now");
            assertThat(reads.running()).isZero();
            assertThat(reads.runs()).isEqualTo(2);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theDefaultPermits_areHalfTheProcessors_andNoMoreThanTheHeapHolds() {
        long gib = 1L << 30;
        assertThat(ReadLimitsProperties.defaultPermits(2, gib)).isEqualTo(1);
        assertThat(ReadLimitsProperties.defaultPermits(1, gib)).isEqualTo(1);
        assertThat(ReadLimitsProperties.defaultPermits(8, gib)).isEqualTo(2);
        assertThat(ReadLimitsProperties.defaultPermits(8, gib / 2)).isEqualTo(1);
        assertThat(ReadLimitsProperties.defaultPermits(8, 64L << 20)).isEqualTo(1);
        assertThat(ReadLimitsProperties.defaultPermits(16, 8 * gib)).isEqualTo(8);
        assertThat(new ReadLimitsProperties(3, Duration.ZERO).permits()).isEqualTo(3);
    }

    @Test
    void aPermitIsGivenBack_whenTheWorkFails() {
        ExpensiveReads reads = new ExpensiveReads(1, Duration.ZERO);
        assertThatThrownBy(() -> reads.run("fail", () -> {
            throw new IllegalStateException("boom");
        })).hasMessage("boom");
        assertThat(reads.run("again", () -> 1)).isEqualTo(1);
    }

    @Test
    void manyLookupsAtOneOldVersion_rebuildItOnce_andShareTheRing() throws Exception {
        ExpensiveReads reads = new ExpensiveReads(8, Duration.ofSeconds(5));
        RingService service = new RingService(new MemoryRingStore(), RingSettings.defaults(), 101, List.of(),
                java.time.Clock.systemUTC(), reads);
        List<Change> nodes = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            nodes.add(Change.put(Node.of("n" + i, 1)));
        }
        long old = service.apply(nodes, null).version();
        service.put(Node.of("late", 1), null);
        int threads = 16;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        Set<HashRing> seen = ConcurrentHashMap.newKeySet();
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                all.add(pool.submit(() -> {
                    await(go);
                    seen.add(service.ringAt(old));
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : all) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(reads.runs()).as("rebuilds of version %d", old).isEqualTo(1);
        assertThat(seen).hasSize(1);
        assertThat(seen.iterator().next().nodeCount()).isEqualTo(2000);
    }

    @Test
    void anOldVersion_isRefusedBusy_whenNoPermitFrees_andAKeptOneIsServedAtOnce() throws Exception {
        ExpensiveReads reads = new ExpensiveReads(1, Duration.ofMillis(20));
        RingService service = new RingService(new MemoryRingStore(), RingSettings.defaults(), 101, List.of(),
                java.time.Clock.systemUTC(), reads);
        long v1 = service.put(Node.of("a", 1), null).state().version();
        long v2 = service.put(Node.of("b", 1), null).state().version();
        service.put(Node.of("c", 1), null);
        HashRing cached = service.ringAt(v1);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            pool.submit(() -> reads.run("hold", () -> {
                holding.countDown();
                await(release);
                return null;
            }));
            assertThat(holding.await(5, TimeUnit.SECONDS)).isTrue();
            assertThatThrownBy(() -> service.ringAt(v2)).isInstanceOf(BusyException.class);
            assertThat(service.ringAt(v1)).isSameAs(cached);
            assertThat(service.ringAt(service.current().version())).isSameAs(service.current().ring());
            assertThatThrownBy(() -> service.ringAt(99)).isInstanceOf(VersionException.NotMade.class);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
        assertThat(service.ringAt(v2).nodeCount()).isEqualTo(2);
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("timed out");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
