package io.ringd.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import com.google.common.cache.CacheBuilder;

/** One computation per key however many ask; the others wait only as long as the gate lets anyone wait. */
class SingleFlightTest {

    @Test
    void concurrentAsks_shareOneComputation_andALaterAskIsServedFromTheCache() throws Exception {
        ExpensiveReads reads = new ExpensiveReads(4, Duration.ofSeconds(10));
        SingleFlight<String, Integer> flight = new SingleFlight<>(CacheBuilder.newBuilder().<String, Integer>build(),
                reads);
        AtomicInteger computed = new AtomicInteger();
        CountDownLatch started = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            Future<Integer> first = pool.submit(() -> flight.get("k", "compute", () -> {
                started.countDown();
                sleep(300);
                return computed.incrementAndGet();
            }));
            assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
            Future<?>[] others = new Future<?>[7];
            for (int i = 0; i < others.length; i++) {
                others[i] = pool.submit(() -> flight.get("k", "compute", computed::incrementAndGet));
            }
            assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            for (Future<?> f : others) {
                assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(flight.get("k", "compute", computed::incrementAndGet)).isEqualTo(1);
        assertThat(computed.get()).isEqualTo(1);
        assertThat(reads.runs()).isEqualTo(1);
    }

    @Test
    void aWaiter_isRefusedBusy_whenTheComputationOutlastsTheWait_andAFailureIsNotCached() throws Exception {
        ExpensiveReads reads = new ExpensiveReads(4, Duration.ofMillis(30));
        SingleFlight<String, Integer> flight = new SingleFlight<>(CacheBuilder.newBuilder().<String, Integer>build(),
                reads);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> slow = pool.submit(() -> flight.get("k", "compute", () -> {
                started.countDown();
                await(release);
                return 7;
            }));
            assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
            assertThatThrownBy(() -> flight.get("k", "compute", () -> 8)).isInstanceOf(BusyException.class)
                    .hasMessageContaining("another request is computing");
            release.countDown();
            assertThat(slow.get(5, TimeUnit.SECONDS)).isEqualTo(7);
        } finally {
            pool.shutdownNow();
        }
        assertThat(flight.get("k", "compute", () -> 8)).isEqualTo(7);
        assertThatThrownBy(() -> flight.get("f", "fail", () -> {
            throw new IllegalStateException("boom");
        })).hasMessage("boom");
        assertThat(flight.get("f", "fail", () -> 9)).isEqualTo(9);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
