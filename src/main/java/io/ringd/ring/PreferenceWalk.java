package io.ringd.ring;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * Preference lists: up to {@code n} distinct nodes met walking clockwise
 * from a ring index, plainly or zone-aware (docs/ring.md section 6).
 */
final class PreferenceWalk {

    /*
     * Design note.
     *
     * A walk reads the ring's owners[] from a start index, wrapping to 0,
     * and takes each member the first time it is met. For a Maglev table
     * owners[] is the table and the start its entry for the key, so the
     * same walk reads the entries forward, as section 15 asks. It asks for
     * want = min(n, owningCount) members, and every member counted in
     * owningCount owns at least one point (RingBuilder.snapshot counts
     * them from the points themselves), so a plain walk ends within one
     * turn of the ring and a zone-aware walk within two.
     *
     * Zone-aware walks take, in walk order, each member whose zone class
     * is new until want members or every owning zone class is taken
     * (owningZoneCount, counted the same way), then fill from the members
     * met but not taken, in the same order, then keep walking. Zone classes
     * are small ints (RingBuilder.snapshot): one per zone, and one of its
     * own for each zoneless member, so two zoneless members never count as
     * one zone.
     *
     * Allocation: a walk allocates its answer only, the ids array and the
     * immutable list around it (Ids). A plain walk of up to SMALL members
     * uses that array as its seen set, comparing ids by reference (each
     * member's id is one String object, HashRing.idArray). Longer and
     * zone-aware walks mark what they met in a per-thread Scratch: int
     * arrays over members and zone classes holding the stamp of the walk
     * that last marked them, so nothing is cleared between walks and
     * nothing is allocated once a thread's arrays are as large as the
     * largest ring it walked.
     */

    /** Up to this many, a plain walk scans its answer instead of marking. */
    static final int SMALL = 16;

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private PreferenceWalk() {
    }

    /**
     * Up to {@code n} distinct owners clockwise from {@code start}; zone-aware
     * with {@code distinctZones}.
     *
     * @throws IllegalArgumentException if {@code n < 1}
     */
    static List<String> from(HashRing ring, int start, int n, boolean distinctZones) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1: " + n);
        }
        int want = Math.min(n, ring.owningCount);
        String[] out = new String[want];
        if (distinctZones) {
            zoned(ring, start, out);
        } else if (want <= SMALL) {
            plainSmall(ring, start, out);
        } else {
            plain(ring, start, out);
        }
        return new Ids(out);
    }

    /** The first {@code out.length} distinct owners clockwise from {@code start}, the answer its own seen set. */
    private static void plainSmall(HashRing ring, int start, String[] out) {
        int[] owners = ring.owners;
        String[] ids = ring.ids;
        int want = out.length;
        int count = 0;
        for (int i = start; count < want; i = i + 1 == owners.length ? 0 : i + 1) {
            String id = ids[owners[i]];
            int k = 0;
            while (k < count && out[k] != id) {
                k++;
            }
            if (k == count) {
                out[count++] = id;
            }
        }
    }

    /** The first {@code out.length} distinct owners clockwise from {@code start}. */
    private static void plain(HashRing ring, int start, String[] out) {
        int[] owners = ring.owners;
        String[] ids = ring.ids;
        Scratch scratch = SCRATCH.get();
        int stamp = scratch.next(ring.nodeCount(), 0);
        int[] seen = scratch.members;
        int want = out.length;
        int count = 0;
        for (int i = start; count < want; i = i + 1 == owners.length ? 0 : i + 1) {
            int m = owners[i];
            if (seen[m] != stamp) {
                seen[m] = stamp;
                out[count++] = ids[m];
            }
        }
    }

    private static void zoned(HashRing ring, int start, String[] out) {
        int[] owners = ring.owners;
        String[] ids = ring.ids;
        int[] zoneClass = ring.zoneClass;
        int owningZoneCount = ring.owningZoneCount;
        Scratch scratch = SCRATCH.get();
        int stamp = scratch.next(ring.nodeCount(), ring.owningCount);
        int[] mark = scratch.members; // stamp: met; -stamp: met and taken
        int[] zones = scratch.zones;
        int[] order = scratch.order; // distinct owners in clockwise order, as met
        int want = out.length;
        int count = 0;
        int met = 0;
        int zonesTaken = 0;
        int i = start;
        while (count < want && zonesTaken < owningZoneCount) {
            int m = owners[i];
            i = i + 1 == owners.length ? 0 : i + 1;
            if (mark[m] != stamp && mark[m] != -stamp) {
                mark[m] = stamp;
                order[met++] = m;
                int z = zoneClass[m];
                if (zones[z] != stamp) {
                    zones[z] = stamp;
                    out[count++] = ids[m];
                    mark[m] = -stamp;
                    zonesTaken++;
                }
            }
        }
        for (int k = 0; k < met && count < want; k++) {
            if (mark[order[k]] != -stamp) {
                out[count++] = ids[order[k]];
            }
        }
        while (count < want) { // every node met so far is taken: keep walking
            int m = owners[i];
            i = i + 1 == owners.length ? 0 : i + 1;
            if (mark[m] != stamp && mark[m] != -stamp) {
                mark[m] = stamp;
                out[count++] = ids[m];
            }
        }
    }

    /** One thread's marks: stamps over members and zone classes, and the walk order. */
    private static final class Scratch {
        int[] members = new int[0];
        int[] zones = new int[0];
        int[] order = new int[0];
        private int stamp;

        /**
         * A fresh stamp (positive) for a walk over {@code memberCount}
         * members, with room for {@code orderSize} in the walk order.
         */
        int next(int memberCount, int orderSize) {
            if (members.length < memberCount) {
                members = new int[memberCount];
                zones = new int[memberCount]; // zone classes number at most the members
            }
            if (order.length < orderSize) {
                order = new int[Math.max(orderSize, memberCount)];
            }
            if (stamp == Integer.MAX_VALUE) { // start over: no stale mark may equal a new stamp
                java.util.Arrays.fill(members, 0);
                java.util.Arrays.fill(zones, 0);
                stamp = 0;
            }
            return ++stamp;
        }
    }

    /** An immutable list over the answer's array, which nothing else holds. */
    private static final class Ids extends AbstractList<String> implements RandomAccess {
        private final String[] ids;

        Ids(String[] ids) {
            this.ids = ids;
        }

        @Override
        public String get(int index) {
            return ids[index];
        }

        @Override
        public int size() {
            return ids.length;
        }

        @Override
        public Object[] toArray() {
            return ids.clone();
        }
    }
}
