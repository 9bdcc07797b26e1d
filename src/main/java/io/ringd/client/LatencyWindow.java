package io.ringd.client;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The latencies recorded to one node over the last 20 to 30 seconds, and
 * their p99: what a follower report says of the node (docs/ring.md
 * section 23, {@code latencyMs}). A node is reported only while it is
 * being measured: with at least {@link #MIN_SAMPLES} samples and one of them
 * at most {@link #STALE_NANOS} old. A node without a sample for longer (one
 * that bounded routing sheds gets no requests) drops out of the reports, so
 * the server gives it the mean and it gets requests again; its next sample
 * starts the window afresh, so what it is measured by then is how it
 * answers now, not the slow samples that had it shed.
 */
final class LatencyWindow {

    /*
     * Design note.
     *
     * Buckets. Time is cut into slots of BUCKET_NANOS (10 s) of
     * System.nanoTime; slot s is counted in buckets[floorMod(s, BUCKETS)], a
     * Bucket that names its slot. A sample for slot s finds a bucket of an
     * older slot there and swaps in a fresh one (compare-and-set: one thread
     * wins, the others count into the winner's). The window is the slots
     * cur - BUCKETS + 1 .. cur: the current one, partly elapsed, and the two
     * before it, so 20 to 30 s of samples. A recorder that loaded a bucket
     * just before it was replaced counts into the old one: a few samples at
     * a slot's turn may be lost, never counted in the wrong window.
     *
     * Histogram. Each bucket counts samples in log-linear bins of whole
     * microseconds, as HdrHistogram does: values below 2 * SUB are exact;
     * above, each power of two is split into SUB = 32 equal bins, so a bin
     * is at most 1/32 of its lower bound wide. The p99 is the nearest rank,
     * ceil(0.99 * n), found by walking the bins, and answered as the middle
     * of its bin: within 1/64 (1.6 %) of the exact nearest-rank p99 of the
     * samples in microseconds. Values are clamped to MAX_MICROS (about 134 s).
     *
     * Freshness. `newest` is the time of the newest sample, kept to within
     * TOUCH_NANOS (it is written at most once per TOUCH_NANOS, so that
     * recorders do not all write one field). A sample that finds it older
     * than STALE_NANOS wins a compare-and-set on it and swaps in an empty
     * array of buckets: the window starts afresh. Recorders that loaded the
     * old array count into it, a few samples lost at the turn as above.
     *
     * Cost. record: one nanoTime, two volatile reads, one atomic increment;
     * it allocates only the first sample of a slot (a Bucket, BINS ints,
     * about 3 KB) or after a gap. A node holds at most BUCKETS buckets: 9 KB.
     */

    static final long BUCKET_NANOS = TimeUnit.SECONDS.toNanos(10);
    static final int BUCKETS = 3;
    static final int SUB_BITS = 5;
    static final int SUB = 1 << SUB_BITS;
    static final long MAX_MICROS = (1L << 27) - 1;
    static final int BINS = index(MAX_MICROS) + 1;
    /** A node without a sample for longer than this is not reported, and its next sample starts afresh. */
    static final long STALE_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** Fewer samples than this in the window are too few for a p99: the node is not reported. */
    static final int MIN_SAMPLES = 20;
    static final long TOUCH_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long NONE = Long.MIN_VALUE;

    private static final class Bucket {
        final long slot;
        final AtomicIntegerArray counts = new AtomicIntegerArray(BINS);

        Bucket(long slot) {
            this.slot = slot;
        }
    }

    private final AtomicReference<AtomicReferenceArray<Bucket>> window =
            new AtomicReference<>(new AtomicReferenceArray<>(BUCKETS));
    private final AtomicLong newest = new AtomicLong(NONE);

    /**
     * Counts one sample of {@code nanos} (negative: ignored) at {@code nowNanos} (System.nanoTime);
     * after a gap of more than {@link #STALE_NANOS} without one, into an emptied window.
     */
    void record(long nanos, long nowNanos) {
        if (nanos < 0) {
            return;
        }
        long last = newest.get();
        if (last == NONE || nowNanos - last > STALE_NANOS) {
            if (newest.compareAndSet(last, nowNanos) && last != NONE) {
                window.set(new AtomicReferenceArray<>(BUCKETS)); // a gap: what it was measured by before is gone
            }
        } else if (nowNanos - last > TOUCH_NANOS) {
            newest.compareAndSet(last, nowNanos); // lost to another recorder: it wrote a time as new
        }
        AtomicReferenceArray<Bucket> buckets = window.get();
        long slot = Math.floorDiv(nowNanos, BUCKET_NANOS);
        int i = (int) Math.floorMod(slot, (long) BUCKETS);
        Bucket b = buckets.get(i);
        if (b == null || b.slot < slot) {
            b = fresh(buckets, i, b, slot);
        }
        b.counts.incrementAndGet(index(Math.min(nanos / 1000, MAX_MICROS)));
    }

    /** The bucket of {@code slot} at {@code i}, made if {@code seen} is of an older slot. */
    private static Bucket fresh(AtomicReferenceArray<Bucket> buckets, int i, Bucket seen, long slot) {
        Bucket mine = new Bucket(slot);
        while (!buckets.compareAndSet(i, seen, mine)) {
            seen = buckets.get(i);
            if (seen != null && seen.slot >= slot) {
                return seen; // another thread made it (or a later one: this sample is late, count it there)
            }
        }
        return mine;
    }

    /** What the window holds: how many samples, and their p99 in milliseconds. */
    record Recent(long count, double p99Millis) {
    }

    /**
     * The p99 of the samples in the window at {@code nowNanos}, in
     * milliseconds (whole microseconds); -1 when there are none.
     */
    double p99Millis(long nowNanos) {
        Recent r = recent(nowNanos);
        return r == null ? -1 : r.p99Millis();
    }

    /**
     * What a report says of the node at {@code nowNanos}: the window's samples and p99 while the
     * node is being measured (at least {@link #MIN_SAMPLES} samples, the newest at most
     * {@link #STALE_NANOS} old); null otherwise.
     */
    Recent reported(long nowNanos) {
        long last = newest.get();
        if (last == NONE || nowNanos - last > STALE_NANOS + TOUCH_NANOS) {
            return null;
        }
        Recent r = recent(nowNanos);
        return r == null || r.count() < MIN_SAMPLES ? null : r;
    }

    /** The samples in the window at {@code nowNanos}: their count and p99; null when there are none. */
    Recent recent(long nowNanos) {
        AtomicReferenceArray<Bucket> buckets = window.get();
        long cur = Math.floorDiv(nowNanos, BUCKET_NANOS);
        Bucket[] in = new Bucket[BUCKETS];
        int n = 0;
        for (int i = 0; i < BUCKETS; i++) {
            Bucket b = buckets.get(i);
            if (b != null && b.slot <= cur && b.slot > cur - BUCKETS) {
                in[n++] = b;
            }
        }
        long[] counts = new long[BINS];
        long total = 0;
        for (int j = 0; j < n; j++) {
            for (int bin = 0; bin < BINS; bin++) {
                int c = in[j].counts.get(bin);
                counts[bin] += c;
                total += c;
            }
        }
        if (total == 0) {
            return null;
        }
        long rank = (total * 99 + 99) / 100; // ceil(0.99 * total), the nearest rank
        long seen = 0;
        for (int bin = 0; bin < BINS; bin++) {
            seen += counts[bin];
            if (seen >= rank) {
                return new Recent(total, middleMicros(bin) / 1000.0);
            }
        }
        throw new AssertionError("rank " + rank + " beyond " + seen + " samples");
    }

    /** The bin of {@code micros} (0 .. MAX_MICROS). */
    static int index(long micros) {
        if (micros < 2 * SUB) {
            return (int) micros;
        }
        int shift = 63 - Long.numberOfLeadingZeros(micros) - SUB_BITS;
        return (int) (shift * SUB + (micros >>> shift));
    }

    /** The smallest value in {@code bin}. */
    static long lowerMicros(int bin) {
        if (bin < 2 * SUB) {
            return bin;
        }
        int shift = bin / SUB - 1;
        return (long) (bin - shift * SUB) << shift;
    }

    /** The middle of {@code bin}, in microseconds: a whole number for the exact bins. */
    static double middleMicros(int bin) {
        long lower = lowerMicros(bin);
        long width = bin < 2 * SUB ? 1 : 1L << (bin / SUB - 1);
        return lower + (width - 1) / 2.0;
    }
}
