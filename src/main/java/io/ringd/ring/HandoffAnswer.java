package io.ringd.ring;

/**
 * One distinct answer of a {@link HandoffIndex}: the position of its move, the positions at which
 * its earlier owners last held the key (descending), and the answer with every owner, made once.
 */
final class HandoffAnswer {

    final int movedAt;
    final int[] seen;
    final Handoff full;

    HandoffAnswer(int movedAt, int[] seen, Handoff full) {
        this.movedAt = movedAt;
        this.seen = seen;
        this.full = full;
    }

    /** This answer for a window cut at position {@code cut}. */
    Handoff at(int cut) {
        if (movedAt <= cut) {
            return null;
        }
        int k = seen.length;
        while (k > 0 && seen[k - 1] < cut) {
            k--;
        }
        return k == seen.length ? full
                : new Handoff(full.movedAt(), full.movedAtTime(), full.previous().subList(0, k));
    }
}
