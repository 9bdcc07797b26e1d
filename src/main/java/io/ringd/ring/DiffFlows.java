package io.ringd.ring;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A diff's flows, bounded in memory by what is kept rather than by what moves: {@link Sums}
 * sums flows met many times (once per moved segment), {@link Kept} counts every flow and keeps
 * the first of the flow order (RingDiff's design note says how).
 */
final class DiffFlows {

    private DiffFlows() {
    }

    /** Flows between owners numbered from 1 (0: no node), of counts 1 .. 2^32. */
    private static final int OWNER_BITS = 14;
    private static final long OWNER_MASK = (1L << OWNER_BITS) - 1;
    private static final long COUNT_MASK = (1L << 33) - 1;

    static {
        if (HashRing.MAX_NODES >= OWNER_MASK) {
            throw new AssertionError("owner numbers need more than " + OWNER_BITS + " bits");
        }
    }

    /**
     * Every flow counted, the first {@code keep} of the flow order kept: a
     * max-heap of sort keys (ascending key = flow order), so that a flow
     * past the kept ones costs one comparison.
     */
    static final class Kept {
        private final int keep;
        private long[] heap = new long[16];
        private int size;
        private int count;

        Kept(int keep) {
            this.keep = keep;
        }

        /** One flow, of {@code count > 0} values; each pair at most once. */
        void add(int from, int to, long count) {
            this.count++;
            long key = ((COUNT_MASK - count) << (2 * OWNER_BITS)) | ((long) from << OWNER_BITS) | to;
            if (size < keep) {
                if (size == heap.length) {
                    heap = Arrays.copyOf(heap, (int) Math.min((long) size * 2, keep));
                }
                int i = size++;
                while (i > 0) { // sift up
                    int parent = (i - 1) >>> 1;
                    if (heap[parent] >= key) {
                        break;
                    }
                    heap[i] = heap[parent];
                    i = parent;
                }
                heap[i] = key;
            } else if (size > 0 && key < heap[0]) {
                int i = 0; // replace the largest, sift down
                while (true) {
                    int child = 2 * i + 1;
                    if (child >= size) {
                        break;
                    }
                    if (child + 1 < size && heap[child + 1] > heap[child]) {
                        child++;
                    }
                    if (heap[child] <= key) {
                        break;
                    }
                    heap[i] = heap[child];
                    i = child;
                }
                heap[i] = key;
            }
        }

        int count() {
            return count;
        }

        /** The kept flows in the flow order, owners named from the two rings' ids. */
        List<RingDiff.Flow> kept(String[] fromIds, String[] toIds) {
            long[] keys = Arrays.copyOf(heap, size);
            Arrays.sort(keys);
            List<RingDiff.Flow> out = new ArrayList<>(size);
            for (long key : keys) {
                int from = (int) ((key >>> OWNER_BITS) & OWNER_MASK);
                int to = (int) (key & OWNER_MASK);
                out.add(new RingDiff.Flow(from == 0 ? null : fromIds[from - 1], to == 0 ? null : toIds[to - 1],
                        COUNT_MASK - (key >>> (2 * OWNER_BITS))));
            }
            return List.copyOf(out);
        }
    }

    /**
     * Flows met many times each (one per segment), summed: (pair << 33 |
     * count) longs, sorted and summed in place when the array fills, grown
     * only when summing leaves it more than half full.
     */
    static final class Sums {
        private long[] sums = new long[1024];
        private int size;

        void add(int from, int to, long count) {
            if (size == sums.length) {
                compact();
                if (size > sums.length / 2) {
                    sums = Arrays.copyOf(sums, sums.length * 2);
                }
            }
            sums[size++] = ((((long) from << OWNER_BITS) | to) << 33) | count;
        }

        private void compact() {
            Arrays.sort(sums, 0, size);
            int out = -1;
            for (int i = 0; i < size; i++) {
                long pair = sums[i] >>> 33;
                if (out >= 0 && sums[out] >>> 33 == pair) {
                    sums[out] += sums[i] & COUNT_MASK; // a pair's sum is at most 2^32: no carry into the pair
                } else {
                    sums[++out] = sums[i];
                }
            }
            size = out + 1;
        }

        /** Hands every summed flow to {@code flows}. */
        void drainTo(Kept flows) {
            compact();
            for (int i = 0; i < size; i++) {
                long pair = sums[i] >>> 33;
                flows.add((int) (pair >>> OWNER_BITS), (int) (pair & OWNER_MASK), sums[i] & COUNT_MASK);
            }
            sums = null;
        }
    }
}
