package io.ringd.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The p99 a follower report gives of a node (docs/ring.md section 23), against a sorted array of the samples. */
class LatencyWindowTest {

    private static final long SECOND = 1_000_000_000L;

    /** The nearest-rank p99 of {@code micros}, in milliseconds: the oracle. */
    private static double sortedP99Millis(long[] micros) {
        long[] sorted = micros.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(0.99 * sorted.length);
        return sorted[rank - 1] / 1000.0;
    }

    @Test
    void p99_isTheNearestRankP99OfTheSamples_within1Point6Percent() {
        for (long seed = 1; seed <= 200; seed++) {
            Random random = new Random(seed);
            int n = 1 + random.nextInt(random.nextBoolean() ? 50 : 20_000);
            long[] micros = new long[n];
            LatencyWindow w = new LatencyWindow();
            long now = 7 * SECOND;
            for (int i = 0; i < n; i++) {
                long nanos = switch (random.nextInt(3)) {
                    case 0 -> random.nextInt(200_000); // below 200 µs, the exact bins included
                    case 1 -> (long) (Math.exp(random.nextGaussian() * 1.5 + 14)); // log-normal around 1.2 ms
                    default -> (long) (random.nextDouble() * random.nextDouble() * 5e9); // up to 5 s
                };
                micros[i] = nanos / 1000;
                w.record(nanos, now + i);
            }
            double oracle = sortedP99Millis(micros);
            assertThat(w.p99Millis(now + n)).as("seed %d, %d samples", seed, n)
                    .isCloseTo(oracle, within(oracle / 64 + 1e-9));
        }
    }

    @Test
    void p99_ofFewSamplesInTheExactBins_isExact() {
        LatencyWindow w = new LatencyWindow();
        for (long micros : new long[] {5, 1, 63, 17}) {
            w.record(micros * 1000 + 999, 0); // sub-microsecond parts are dropped
        }
        assertThat(w.p99Millis(0)).isEqualTo(0.063);
        LatencyWindow one = new LatencyWindow();
        one.record(42_000, 0);
        assertThat(one.p99Millis(0)).isEqualTo(0.042);
    }

    @Test
    void noSamples_orNegativeOnes_isNoP99() {
        LatencyWindow w = new LatencyWindow();
        assertThat(w.p99Millis(0)).isEqualTo(-1);
        w.record(-5, 0);
        assertThat(w.p99Millis(0)).isEqualTo(-1);
    }

    @Test
    void theWindow_keeps20To30Seconds_thenForgets() {
        LatencyWindow w = new LatencyWindow();
        long t0 = 100 * SECOND; // the start of a 10 s slot
        w.record(50_000_000L, t0 + SECOND); // 50 ms
        for (long s = 5; s <= 29; s += 4) { // 1 ms every 4 s: never a gap that starts the window afresh
            w.record(1_000_000L, t0 + s * SECOND);
        }
        assertThat(w.p99Millis(t0 + 29 * SECOND)).as("two slots on").isEqualTo(50, within(50.0 / 64));
        assertThat(w.p99Millis(t0 + 30 * SECOND)).as("three slots on: out of the window")
                .isEqualTo(1, within(1.0 / 64));
        assertThat(w.recent(t0 + 30 * SECOND).count()).as("t0 + 13 .. 29 s, slots 11 to 13").isEqualTo(5);

        w.record(9_000_000L, t0 + 33 * SECOND); // into the bucket of the first slot, now reused
        assertThat(w.recent(t0 + 33 * SECOND).count()).as("the reused bucket starts empty").isEqualTo(6);
        assertThat(w.p99Millis(t0 + 33 * SECOND)).isEqualTo(9, within(9.0 / 64));
        assertThat(w.p99Millis(t0 + 49 * SECOND)).as("t0 + 13 and 17 s gone, 9 ms still in")
                .isEqualTo(9, within(9.0 / 64));
        assertThat(w.recent(t0 + 49 * SECOND).count()).as("t0 + 21, 25, 29 and 33 s").isEqualTo(4);
        assertThat(w.p99Millis(t0 + 60 * SECOND)).as("none left").isEqualTo(-1);
    }

    @Test
    void aNodeIsReported_onlyWithTwentySamples_andOneOfThemAtMostFiveSecondsOld() {
        LatencyWindow w = new LatencyWindow();
        long t0 = 100 * SECOND;
        for (int i = 0; i < LatencyWindow.MIN_SAMPLES - 1; i++) {
            w.record(20_000_000L, t0 + i * 1_000_000L); // 20 ms, a millisecond apart
        }
        assertThat(w.reported(t0 + SECOND)).as("19 samples: too few for a p99").isNull();
        assertThat(w.recent(t0 + SECOND).count()).isEqualTo(19);
        w.record(20_000_000L, t0 + 19_000_000L);
        assertThat(w.reported(t0 + SECOND)).isEqualTo(new LatencyWindow.Recent(20, w.p99Millis(t0 + SECOND)));
        assertThat(w.reported(t0 + 5 * SECOND).p99Millis()).as("5 s after the newest").isEqualTo(20, within(0.4));
        assertThat(w.reported(t0 + 6 * SECOND)).as("6 s without a sample: not measured any more").isNull();
        assertThat(w.p99Millis(t0 + 6 * SECOND)).as("though the window still holds them").isEqualTo(20, within(0.4));
    }

    @Test
    void aSampleAfterAGap_startsTheWindowAfresh() {
        LatencyWindow w = new LatencyWindow();
        long t0 = 100 * SECOND;
        for (int i = 0; i < 1_000; i++) {
            w.record(20_000_000L, t0 + i * 1_000_000L); // shed while slow: 20 ms for a second
        }
        long back = t0 + 7 * SECOND; // its keys come back to it, as it answers now
        w.record(1_000_000L, back);
        assertThat(w.recent(back).count()).as("only the sample after the gap").isEqualTo(1);
        assertThat(w.p99Millis(back)).isEqualTo(1, within(1.0 / 64));
        assertThat(w.reported(back)).as("one sample is not yet a measure").isNull();
        for (int i = 1; i < LatencyWindow.MIN_SAMPLES; i++) {
            w.record(1_000_000L, back + i * 1_000_000L);
        }
        assertThat(w.reported(back + SECOND).p99Millis()).as("recovered: its p99 now, not before the gap")
                .isEqualTo(1, within(1.0 / 64));

        LatencyWindow steady = new LatencyWindow(); // samples 4.9 s apart: one window, no fresh start
        steady.record(20_000_000L, t0);
        steady.record(1_000_000L, t0 + 4_900_000_000L);
        assertThat(steady.recent(t0 + 4_900_000_000L).count()).isEqualTo(2);
    }

    @Test
    void recordersOnManyThreads_acrossAGap_loseAtMostAFewSamplesAtTheTurn() throws Exception {
        LatencyWindow w = new LatencyWindow();
        long t0 = 100 * SECOND;
        w.record(50_000_000L, t0);
        long back = t0 + 6 * SECOND;
        int threads = 4;
        int each = 50_000;
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        Thread[] all = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            all[t] = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < each; i++) {
                    w.record(1_000_000L, back + i);
                }
            });
            all[t].start();
        }
        go.countDown();
        for (Thread t : all) {
            t.join();
        }
        LatencyWindow.Recent r = w.recent(back + each);
        assertThat(r.p99Millis()).as("the 50 ms before the gap is gone").isEqualTo(1, within(1.0 / 64));
        assertThat(r.count()).isBetween((long) threads * each - 100, (long) threads * each);
    }

    @Test
    void hugeLatencies_areClampedToTheLastBin() {
        LatencyWindow w = new LatencyWindow();
        w.record(Long.MAX_VALUE, 0);
        double max = LatencyWindow.MAX_MICROS / 1000.0;
        assertThat(w.p99Millis(0)).isCloseTo(max, within(max / 64));
    }

    @Test
    void theBins_coverEveryValue_inOrder_eachAtMostA32ndOfItsLowerBoundWide() {
        Random random = new Random(11);
        for (int i = 0; i < 200_000; i++) {
            long v = i < 5000 ? i : (long) (random.nextDouble() * LatencyWindow.MAX_MICROS);
            int bin = LatencyWindow.index(v);
            assertThat(bin).isBetween(0, LatencyWindow.BINS - 1);
            assertThat(LatencyWindow.lowerMicros(bin)).as("lower bound of the bin of %d", v).isLessThanOrEqualTo(v);
            if (bin + 1 < LatencyWindow.BINS) {
                assertThat(LatencyWindow.lowerMicros(bin + 1)).as("next bin after %d", v).isGreaterThan(v);
            }
        }
        for (int bin = 2 * LatencyWindow.SUB; bin + 1 < LatencyWindow.BINS; bin++) {
            long width = LatencyWindow.lowerMicros(bin + 1) - LatencyWindow.lowerMicros(bin);
            assertThat(width * LatencyWindow.SUB).as("bin %d", bin).isLessThanOrEqualTo(LatencyWindow.lowerMicros(bin));
        }
        assertThat(LatencyWindow.index(LatencyWindow.MAX_MICROS)).isEqualTo(LatencyWindow.BINS - 1);
    }
}
