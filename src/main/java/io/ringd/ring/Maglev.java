package io.ringd.ring;

/**
 * The Maglev lookup table (docs/ring.md section 15): each member's
 * permutation of the entries, and the table filled from them in weighted
 * rounds.
 */
final class Maglev {

    /*
     * Design note. Eisenbud et al., "Maglev: A Fast and Reliable Software
     * Network Load Balancer" (NSDI 2016), section 3.4, with weights as in
     * Envoy's MaglevTable (source/extensions/load_balancing_policies/maglev).
     *
     * Permutations. Member X prefers the entries
     *     (offset + j * skip) mod M, j = 0, 1, 2, ...
     * with offset = md5(X + "#offset") mod M and
     * skip = md5(X + "#skip") mod (M - 1) + 1, md5 being ringd's md5 hash
     * (first 4 digest bytes big-endian, unsigned) whatever the ring's key
     * hash. M is prime and 1 <= skip < M, so each walk visits every entry.
     * perm[2m] and perm[2m+1] hold member m's offset and skip; a change
     * copies them for every member it keeps (same id, same M) and hashes
     * only the members it adds.
     *
     * Filling. Rounds r = 1, 2, ...; in each round the members take turns in
     * ascending id order; member X of weight w takes its next preferred free
     * entry when r * w >= target_X, and then target_X += maxWeight (targets
     * start at 0.0). Everything is double arithmetic, as in Envoy: r * w is
     * the double product, and target_X is a running sum (maxWeight added
     * once per entry taken), not a product. The fill stops as soon as the
     * last entry is taken, possibly mid-round. Envoy first divides every
     * weight by their sum; ringd uses the weights as given (the wording of
     * docs/ring.md section 15), which gives the same table whenever the division is exact
     * and may differ from Envoy's in the last bit otherwise.
     *
     * Rather than visiting every member in every round (rounds x members,
     * up to M x 10,000 with one heavy member among light ones), the fill
     * keeps the members in a binary heap ordered by (the next round in
     * which they take, id index): the same order of takes, in
     * O(M log n) plus the walks. A member's next round after taking in
     * round r is the least r' > r with r' * w >= target; it is found from
     * ceil(target / w) and corrected by at most a step or two, since r * w
     * rounds monotonically in r. The walk along a permutation keeps its
     * position, so each probe is an add and a compare, against a bitmap of
     * the entries taken (8 KB for M = 65537, where the table itself is
     * 256 KB); the probes add up to about M ln M (the last free entries are
     * the hard ones to hit), as in the paper.
     */

    /** Heap keys are {@code round << INDEX_BITS | member}: members fit in 14 bits (at most 10,000). */
    private static final int INDEX_BITS = 14;
    private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;
    /** Past this round a member never takes again: the table is full long before (round <= ~M + 1). */
    private static final long NEVER = 1L << 40;

    private Maglev() {
    }

    /** {@code md5(id + "#offset") mod size}; {@code id} is the placement string (the hashKey, or the id). */
    static int offset(String id, int size) {
        return (int) (KeyHashes.md5().hashUnsigned(id + "#offset") % size);
    }

    /** {@code md5(id + "#skip") mod (size - 1) + 1}. */
    static int skip(String id, int size) {
        return (int) (KeyHashes.md5().hashUnsigned(id + "#skip") % (size - 1) + 1);
    }

    /**
     * Offsets and skips of {@code members}, interleaved; those of members
     * of {@code previous} (a Maglev ring of the same size, or null) are
     * copied, not hashed again.
     */
    static int[] permutations(Node[] members, int size, HashRing previous) {
        int[] perm = new int[2 * members.length];
        boolean reuse = previous != null && previous.tableSize == size && previous.maglevPerm != null;
        Node[] old = reuse ? previous.members : new Node[0];
        int[] oldPerm = reuse ? previous.maglevPerm : null;
        int o = 0;
        for (int m = 0; m < members.length; m++) {
            String id = members[m].id();
            while (o < old.length && old[o].id().compareTo(id) < 0) {
                o++;
            }
            if (o < old.length && old[o].id().equals(id) && old[o].samePlacement(members[m])) {
                perm[2 * m] = oldPerm[2 * o];
                perm[2 * m + 1] = oldPerm[2 * o + 1];
                o++;
            } else {
                String placement = members[m].placementKey();
                perm[2 * m] = offset(placement, size);
                perm[2 * m + 1] = skip(placement, size);
            }
        }
        return perm;
    }

    /**
     * The table: entry e holds the index of the member that owns it.
     * Empty when there are no members.
     */
    static int[] fill(Node[] members, int[] perm, int size) {
        int n = members.length;
        double maxWeight = 0;
        double sum = 0;
        for (Node m : members) {
            maxWeight = Math.max(maxWeight, m.weight());
            sum += m.weight();
        }
        // rounds x members against the heap's takes x log n (a heap step costs a few loop steps)
        double rounds = size * (maxWeight / sum) + 2;
        boolean byRounds = rounds * n <= 4.0 * size * (32 - Integer.numberOfLeadingZeros(n));
        return byRounds ? fillByRounds(members, perm, size) : fillByHeap(members, perm, size);
    }

    /** The fill as the contract words it: every member visited in every round. */
    static int[] fillByRounds(Node[] members, int[] perm, int size) {
        int n = members.length;
        if (n == 0) {
            return new int[0];
        }
        Fill f = new Fill(members, perm, size);
        int filled = 0;
        for (long round = 1; filled < size; round++) {
            for (int i = 0; i < n; i++) {
                if ((double) round * f.weight[i] >= f.target[i]) {
                    f.take(i);
                    if (++filled == size) {
                        break;
                    }
                }
            }
        }
        return f.table;
    }

    /** The same fill, members kept in a heap by the next round they take in. */
    static int[] fillByHeap(Node[] members, int[] perm, int size) {
        int n = members.length;
        if (n == 0) {
            return new int[0];
        }
        if (n > INDEX_MASK + 1) {
            throw new IllegalArgumentException("too many members for a Maglev table: " + n);
        }
        Fill f = new Fill(members, perm, size);
        long[] heap = new long[n];
        for (int i = 0; i < n; i++) {
            heap[i] = (1L << INDEX_BITS) | i; // round 1, ascending index: already a heap
        }
        int heapSize = n;
        for (int filled = 0; filled < size; filled++) {
            if (heapSize == 0) {
                throw new IllegalStateException("Maglev fill ran out of members with " + (size - filled) + " free");
            }
            long top = heap[0];
            int i = (int) (top & INDEX_MASK);
            f.take(i);
            long next = nextRound(top >>> INDEX_BITS, f.weight[i], f.target[i]);
            if (next >= NEVER) {
                heap[0] = heap[--heapSize];
            } else {
                heap[0] = (next << INDEX_BITS) | i;
            }
            siftDown(heap, heapSize);
        }
        return f.table;
    }

    /** The state of a fill: the table, a bitmap of the entries taken, each member's walk and target. */
    private static final class Fill {
        final int size;
        final int[] table;
        final long[] taken;
        final double[] weight;
        final double[] target;
        final int[] pos;
        final int[] skip;
        final double maxWeight;

        Fill(Node[] members, int[] perm, int size) {
            int n = members.length;
            this.size = size;
            table = new int[size];
            taken = new long[(size + 63) >>> 6]; // one bit per entry: probes stay in a few KB of cache
            weight = new double[n];
            target = new double[n];
            pos = new int[n];
            skip = new int[n];
            double max = 0;
            for (int i = 0; i < n; i++) {
                weight[i] = members[i].weight();
                max = Math.max(max, weight[i]);
                pos[i] = perm[2 * i];
                skip[i] = perm[2 * i + 1];
            }
            maxWeight = max;
        }

        /** Member i takes its next preferred free entry; its target grows by the largest weight. */
        void take(int i) {
            target[i] += maxWeight;
            int c = pos[i];
            int s = skip[i];
            while ((taken[c >>> 6] & (1L << c)) != 0) {
                c += s;
                if (c >= size) {
                    c -= size;
                }
            }
            taken[c >>> 6] |= 1L << c;
            table[c] = i;
            c += s;
            pos[i] = c >= size ? c - size : c;
        }
    }

    /** The least round r' > round with r' * w >= target, in double arithmetic; {@link #NEVER} past that. */
    static long nextRound(long round, double w, double target) {
        double estimate = Math.ceil(target / w);
        if (!(estimate < NEVER)) { // also NaN or infinite for a vanishing weight
            return NEVER;
        }
        long r = Math.max(round + 1, (long) estimate);
        while (r > round + 1 && (double) (r - 1) * w >= target) {
            r--;
        }
        while ((double) r * w < target) {
            r++;
        }
        return r;
    }

    private static void siftDown(long[] heap, int size) {
        int i = 0;
        long v = size > 0 ? heap[0] : 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && heap[child + 1] < heap[child]) {
                child++;
            }
            if (heap[child] >= v) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        if (size > 0) {
            heap[i] = v;
        }
    }

    /** The number of hash values {@code h} in {@code [0, 2^32)} with {@code h mod size == entry}. */
    static long valuesOfEntry(int entry, int size) {
        long q = HashRing.HASH_SPACE / size;
        return entry < HashRing.HASH_SPACE % size ? q + 1 : q;
    }
}
