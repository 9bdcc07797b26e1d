package io.ringd.ring;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

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
     * The seen sets are Seen: a linear scan over at most Seen.SMALL ints,
     * a boolean[] over the members beyond. For a plain walk of up to
     * Seen.SMALL members the taken array itself is the seen set, so a
     * short list allocates only its answer.
     */

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
        int want = Math.min(n, ring.owningCount());
        int[] taken = distinctZones ? zoned(ring, start, want) : plain(ring, start, want);
        Node[] members = ring.memberArray();
        String[] ids = new String[taken.length];
        for (int i = 0; i < taken.length; i++) {
            ids[i] = members[taken[i]].id();
        }
        return Collections.unmodifiableList(Arrays.asList(ids));
    }

    /** The first {@code want} distinct owners clockwise from {@code start}. */
    private static int[] plain(HashRing ring, int start, int want) {
        int[] owners = ring.ownerIndices();
        int[] taken = new int[want];
        int count = 0;
        if (want <= Seen.SMALL) { // the taken nodes are the seen set: scan them
            for (int i = start; count < want; i = i + 1 == owners.length ? 0 : i + 1) {
                int m = owners[i];
                int k = 0;
                while (k < count && taken[k] != m) {
                    k++;
                }
                if (k == count) {
                    taken[count++] = m;
                }
            }
            return taken;
        }
        Seen seen = new Seen(ring.nodeCount(), want);
        for (int i = start; count < want; i = i + 1 == owners.length ? 0 : i + 1) {
            int m = owners[i];
            if (seen.add(m)) {
                taken[count++] = m;
            }
        }
        return taken;
    }

    private static int[] zoned(HashRing ring, int start, int want) {
        int[] owners = ring.ownerIndices();
        int[] zoneClass = ring.zoneClasses();
        int owningCount = ring.owningCount();
        int owningZoneCount = ring.owningZoneCount();
        int members = ring.nodeCount();
        int[] taken = new int[want];
        int count = 0;
        int[] order = new int[owningCount]; // distinct owners in clockwise order, as met
        int met = 0;
        Seen seen = new Seen(members, owningCount);
        Seen zones = new Seen(zoneClass.length, owningZoneCount);
        boolean[] isTaken = new boolean[members];
        int zonesTaken = 0;
        int i = start;
        while (count < want && zonesTaken < owningZoneCount) {
            int m = owners[i];
            i = i + 1 == owners.length ? 0 : i + 1;
            if (seen.add(m)) {
                order[met++] = m;
                if (zones.add(zoneClass[m])) {
                    taken[count++] = m;
                    isTaken[m] = true;
                    zonesTaken++;
                }
            }
        }
        for (int k = 0; k < met && count < want; k++) {
            if (!isTaken[order[k]]) {
                taken[count++] = order[k];
            }
        }
        while (count < want) { // every node met so far is taken: keep walking
            int m = owners[i];
            i = i + 1 == owners.length ? 0 : i + 1;
            if (seen.add(m)) {
                taken[count++] = m;
            }
        }
        return taken;
    }

    /** A set of small ints: a linear scan while small, a bitmap beyond. */
    private static final class Seen {
        static final int SMALL = 16;
        private final int[] few;
        private final boolean[] bits;
        private int size;

        Seen(int universe, int expected) {
            if (expected <= SMALL) {
                few = new int[expected];
                bits = null;
            } else {
                few = null;
                bits = new boolean[universe];
            }
        }

        boolean add(int v) {
            if (bits != null) {
                if (bits[v]) {
                    return false;
                }
                bits[v] = true;
                return true;
            }
            for (int k = 0; k < size; k++) {
                if (few[k] == v) {
                    return false;
                }
            }
            few[size++] = v;
            return true;
        }
    }
}
