package io.ringd.ring;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The sweep that builds a {@link HandoffIndex}: every held version's ownership merged into one
 * partition of the coordinate space, each segment carrying who held it before (the index's design
 * note says how), then reduced to the segments' distinct answers.
 */
final class HandoffSweep {

    /*
     * Design note.
     *
     * The index. All the held versions' ownership is merged into one
     * partition of the placement's coordinate space (hash values for a
     * ring or a ketama ring; entries 0 .. M-1 for a Maglev table of size M)
     * into segments on which every version's owner is the same. That is a
     * sweep from the oldest version on: the partition so far is merged with
     * the next version's arcs (or entries), and each segment's state moves
     * by that version's owner. A state is (owner now, movedAt, the distinct
     * earlier owners newest first, each with the newest position it held
     * the key, which is its "seen" position). A change of owner from X to
     * Y at position p makes the earlier owners (X, p-1) followed by the old
     * ones without Y. Nine are kept, one more than an answer shows, so that
     * dropping Y never loses the eighth. States are interned (one object per
     * distinct state, transitions memoized per version), so the sweep costs
     * O(segments) per version with a hash look-up per distinct
     * (state, owner) pair.
     *
     */

    /** A position for "no move", and an owner code for "no owner" (an empty ring). */
    private static final int NONE = HandoffIndex.NONE;
    /** Earlier owners a state keeps: one more than an answer lists. */
    private static final int KEEP = Handoff.MAX_PREVIOUS + 1;

    private HandoffSweep() {
    }

    /**
     * The merged partition: biased starts ascending from the space's first value, each segment's
     * answer id ({@code 0}: no move), and the answers by id ({@code answers[0]} is null).
     */
    record Result(int[] starts, int[] answerIds, HandoffAnswer[] answers) {
    }

    /** A segment state of the sweep: interned, so equal states are one object with one id. */
    private record State(int owner, int movedAt, int[] prev, int[] seen) {
        @Override
        public boolean equals(Object o) {
            return o instanceof State s && s.owner == owner && s.movedAt == movedAt && Arrays.equals(s.prev, prev)
                    && Arrays.equals(s.seen, seen);
        }

        @Override
        public int hashCode() {
            return (owner * 31 + movedAt) * 961 + Arrays.hashCode(prev) * 31 + Arrays.hashCode(seen);
        }
    }

    /** The states met in a sweep, by id. */
    private static final class States {
        final List<State> byId = new ArrayList<>();
        final Map<State, Integer> ids = new HashMap<>();

        int intern(State s) {
            Integer id = ids.get(s);
            if (id == null) {
                id = byId.size();
                byId.add(s);
                ids.put(s, id);
            }
            return id;
        }

        /** The state of a segment owned by {@code owner} at the first version. */
        int first(int owner) {
            return intern(new State(owner, NONE, new int[0], new int[0]));
        }

        /** The state after {@code id} meets {@code owner} at position {@code p}. */
        int next(int id, int owner, int p) {
            State s = byId.get(id);
            if (s.owner == owner) {
                return id;
            }
            int[] prev = new int[KEEP];
            int[] seen = new int[KEEP];
            int k = 0;
            if (s.owner != NONE) {
                prev[k] = s.owner;
                seen[k++] = p - 1;
            }
            for (int i = 0; i < s.prev.length && k < KEEP; i++) {
                if (s.prev[i] != owner) {
                    prev[k] = s.prev[i];
                    seen[k++] = s.seen[i];
                }
            }
            return intern(new State(owner, p, Arrays.copyOf(prev, k), Arrays.copyOf(seen, k)));
        }
    }

    /** A partition of the coordinate space: biased starts, ascending from the first value, and a value each. */
    private record Partition(int[] starts, int[] values) {
    }

    /**
     * Sweeps {@code rings} (consecutive versions, oldest first, committed at {@code times}) over
     * one coordinate space: {@code space} 0 for hash values, else a Maglev table of that size.
     */
    static Result sweep(HashRing[] rings, Instant[] times, int space) {
        int n = rings.length;
        long first = rings[0].version();
        Map<String, Integer> codes = new HashMap<>();
        List<String> names = new ArrayList<>();
        States states = new States();
        Partition p0 = partition(rings[0], space, codes, names);
        int[] st = p0.starts();
        int[] ids = new int[st.length];
        for (int i = 0; i < st.length; i++) {
            ids[i] = states.first(p0.values()[i]);
        }
        for (int p = 1; p < n; p++) {
            Partition next = partition(rings[p], space, codes, names);
            Map<Long, Integer> memo = new HashMap<>();
            int[] ns = new int[st.length + next.starts().length];
            int[] nid = new int[ns.length];
            int len = 0;
            int i = 0;
            int k = 0;
            int at = next.starts()[0]; // both start at the space's first value
            while (true) {
                int from = ids[i];
                int owner = next.values()[k];
                long memoKey = ((long) from << 32) | (owner & 0xFFFF_FFFFL);
                Integer to = memo.get(memoKey);
                if (to == null) {
                    to = states.next(from, owner, p);
                    memo.put(memoKey, to);
                }
                if (len == 0 || nid[len - 1] != to) {
                    ns[len] = at;
                    nid[len++] = to;
                }
                boolean moreA = i + 1 < st.length;
                boolean moreB = k + 1 < next.starts().length;
                if (!moreA && !moreB) {
                    break;
                }
                int a = moreA ? st[i + 1] : Integer.MAX_VALUE;
                int b = moreB ? next.starts()[k + 1] : Integer.MAX_VALUE;
                at = !moreA ? b : !moreB ? a : Math.min(a, b);
                if (moreA && a == at) {
                    i++;
                }
                if (moreB && b == at) {
                    k++;
                }
            }
            st = Arrays.copyOf(ns, len);
            ids = Arrays.copyOf(nid, len);
        }
        // each state's answer, interned; adjacent segments of one answer merged
        Map<State, Integer> answerOf = new HashMap<>();
        List<HandoffAnswer> answers = new ArrayList<>();
        answers.add(null);
        int[] answerOfState = new int[states.byId.size()];
        Arrays.fill(answerOfState, -1);
        int[] outStarts = new int[st.length];
        int[] outIds = new int[st.length];
        int len = 0;
        for (int i = 0; i < st.length; i++) {
            int s = ids[i];
            int a = answerOfState[s];
            if (a < 0) {
                State state = states.byId.get(s);
                if (state.movedAt == NONE) {
                    a = 0;
                } else {
                    int k = Math.min(state.prev.length, Handoff.MAX_PREVIOUS);
                    State key = new State(NONE, state.movedAt, Arrays.copyOf(state.prev, k),
                            Arrays.copyOf(state.seen, k));
                    Integer known = answerOf.get(key);
                    if (known == null) {
                        String[] prev = new String[k];
                        for (int j = 0; j < k; j++) {
                            prev[j] = names.get(key.prev[j]);
                        }
                        known = answers.size();
                        answers.add(new HandoffAnswer(state.movedAt, key.seen,
                                new Handoff(first + state.movedAt, times[state.movedAt], List.of(prev))));
                        answerOf.put(key, known);
                    }
                    a = known;
                }
                answerOfState[s] = a;
            }
            if (len == 0 || outIds[len - 1] != a) {
                outStarts[len] = st[i];
                outIds[len++] = a;
            }
        }
        return new Result(Arrays.copyOf(outStarts, len), Arrays.copyOf(outIds, len), answers.toArray(new HandoffAnswer[0]));
    }

    /**
     * A version's owners as a partition of the coordinate space, owners coded
     * by id across versions: a ring's arcs (the arc after point i starts at
     * point i + 1 and belongs to the owner of point i + 1, the wrap arc to
     * the first point's), a table's runs of entries, an empty ring's one
     * segment of no owner.
     */
    private static Partition partition(HashRing r, int space, Map<String, Integer> codes, List<String> names) {
        int first = HashRing.BIAS; // the first value, 0, biased
        if (r.isEmpty()) {
            return new Partition(new int[] {first}, new int[] {NONE});
        }
        int[] code = new int[r.ids.length];
        for (int m = 0; m < code.length; m++) {
            String id = r.ids[m];
            Integer c = codes.get(id);
            if (c == null) {
                c = names.size();
                names.add(id);
                codes.put(id, c);
            }
            code[m] = c;
        }
        int[] owners = r.owners;
        int[] starts = new int[owners.length + 1];
        int[] values = new int[owners.length + 1];
        int len = 0;
        if (space != 0) { // table entries 0 .. M-1, each its own segment, runs merged
            for (int e = 0; e < owners.length; e++) {
                int v = code[owners[e]];
                if (len == 0 || values[len - 1] != v) {
                    starts[len] = e ^ HashRing.BIAS;
                    values[len++] = v;
                }
            }
        } else {
            int[] points = r.points;
            starts[len] = first;
            values[len++] = code[owners[0]];
            for (int i = 0; i < points.length; i++) {
                if (points[i] == Integer.MAX_VALUE) {
                    break; // the last point is 2^32-1: no arc after it
                }
                int v = code[owners[(i + 1) % points.length]];
                if (values[len - 1] != v) {
                    starts[len] = points[i] + 1;
                    values[len++] = v;
                }
            }
        }
        return new Partition(Arrays.copyOf(starts, len), Arrays.copyOf(values, len));
    }
}
