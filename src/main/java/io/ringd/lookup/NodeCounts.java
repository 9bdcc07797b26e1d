package io.ringd.lookup;

import java.util.function.ObjIntConsumer;

/**
 * How many keys of a batch went to each node, so that the batch reports each
 * node once. Counting a key is a probe of a small table, without boxing.
 */
final class NodeCounts {

    /*
     * Design note. Open addressing with linear probing over a power-of-two table of at least twice as many
     * slots as distinct nodes, so it never fills up: a batch counts at most min(its ring's nodes, its keys). Node ids come from the
     * ring's own array, so a probe is an == on the id most often and String.hashCode is cached in the id.
     * Invariants: ids[i] == null iff counts[i] == 0; a probe stops at the id or the first empty slot.
     */

    private final String[] ids;
    private final int[] counts;
    private final int mask;

    /** A table for at most {@code nodes} distinct nodes. */
    NodeCounts(int nodes) {
        int size = Integer.highestOneBit(Math.max(4, nodes) * 2 - 1) << 1;
        ids = new String[size];
        counts = new int[size];
        mask = size - 1;
    }

    /** Counts one key routed to {@code node}. */
    void add(String node) {
        int i = node.hashCode() & mask;
        for (;;) {
            String id = ids[i];
            if (id == node) {
                counts[i]++;
                return;
            }
            if (id == null) {
                ids[i] = node;
                counts[i] = 1;
                return;
            }
            if (id.equals(node)) {
                counts[i]++;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /** Each node counted, with its count (in no particular order). */
    void forEach(ObjIntConsumer<String> action) {
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] != null) {
                action.accept(ids[i], counts[i]);
            }
        }
    }
}
