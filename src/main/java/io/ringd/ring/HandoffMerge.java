package io.ringd.ring;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The merged partition of a {@link HandoffIndex} made from a {@link HandoffTrail}: the newest ring and
 * each older version relative to the next ({@link HandoffDelta}), in one coordinate space.
 */
final class HandoffMerge {

    /*
     * Design note.
     *
     * The answer is HandoffSweep's (the same partition into maximal runs of
     * one answer, the same answers), made from less. Where every delta
     * says SAME, every version's owner is the newest one's: no move, and
     * nothing to sweep. So only the deltas' own segments are merged: all
     * their starts, sorted, cut the space into pieces on which each delta
     * has one value; a piece's list of (position, value) for the deltas
     * that are not SAME on it, newest first, says everything about its
     * owners: from the newest version down, the owner is the newest ring's
     * until the first listed position q, then q's value down to the next
     * listed position, and so on to position 0. The newest ring's owner can
     * change within a piece (a delta merges adjacent ranges of one older
     * owner), so a piece with a list is cut again at the newest ring's arc
     * boundaries (entries, for a table) within it.
     *
     * From a list and the newest owner the rule of docs/ring.md section 21
     * is direct, walking down: movedAt is one past the first listed
     * position whose value differs from the owner above it, and the
     * earlier owners are the listed values from there down, each the first
     * time it is met, without "no owner" and the newest owner, at most 8,
     * each seen at its position (the newest at which it held the key). The
     * list holds every position where an owner can differ from the one
     * above, so nothing is missed; answers are interned by (movedAt,
     * owners, seen), and adjacent pieces of one answer merge, as the sweep
     * does.
     *
     * Cost: a sort of the deltas' starts (a few hundred per one-node
     * change), one binary search per delta segment, and a list entry per
     * piece a segment covers; for the default 16 versions of one-node
     * changes, a few thousand pieces, whatever the ring's size. Only a
     * delta that is a whole partition (a change of settings, an empty ring)
     * covers every piece.
     */

    private static final int SAME = HandoffDelta.SAME;
    private static final int NONE = HandoffIndex.NONE;

    private final HashRing current;
    private final HandoffDelta[] older;
    private final Instant[] times;
    private final long first;
    private final Map<String, Integer> codes = new HashMap<>();
    private final List<String> names = new ArrayList<>();
    private final Map<Key, Integer> answerIds = new HashMap<>();
    private final List<HandoffAnswer> answers = new ArrayList<>();
    /** The newest ring's members' codes, made as they are met (-2: not yet). */
    private final int[] currentCodes;
    // the lists: piece s's entries are listAt/listValue[from[s] .. from[s + 1]), newest position first
    private int[] fill;
    private int[] listAt;
    private int[] listValue;
    // the output: segment starts and answer ids, adjacent equal ids merged
    private int[] starts;
    private int[] ids;
    private int len;

    private HandoffMerge(HashRing current, HandoffDelta[] older, Instant[] times, long first) {
        this.current = current;
        this.older = older;
        this.times = times;
        this.first = first;
        this.currentCodes = new int[current.ids.length];
        Arrays.fill(currentCodes, -2);
        answers.add(null);
    }

    /** An answer, as HandoffSweep interns it: equal answers are one object with one id. */
    private record Key(int movedAt, int[] prev, int[] seen) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.movedAt == movedAt && Arrays.equals(k.prev, prev)
                    && Arrays.equals(k.seen, seen);
        }

        @Override
        public int hashCode() {
            return movedAt * 961 + Arrays.hashCode(prev) * 31 + Arrays.hashCode(seen);
        }
    }

    /**
     * The merged partition of {@code current} (the newest version) and {@code older} (one delta a version
     * before it, oldest first, the oldest at version {@code first}), committed at {@code times}, over one
     * coordinate space: {@code space} 0 for hash values, else a Maglev table of that size.
     */
    static HandoffSweep.Result merge(HashRing current, HandoffDelta[] older, Instant[] times, long first, int space) {
        return new HandoffMerge(current, older, times, first).run(space);
    }

    private int code(String name) {
        Integer c = codes.get(name);
        if (c == null) {
            c = names.size();
            names.add(name);
            codes.put(name, c);
        }
        return c;
    }

    private int currentCode(int member) {
        int c = currentCodes[member];
        if (c == -2) {
            c = code(current.ids[member]);
            currentCodes[member] = c;
        }
        return c;
    }

    private HandoffSweep.Result run(int space) {
        // the pieces: every delta's starts, sorted, without repeats
        int total = 0;
        for (HandoffDelta d : older) {
            total += d.starts.length;
        }
        int[] cuts = new int[Math.max(1, total)];
        cuts[0] = HashRing.BIAS;
        int at = 0;
        for (HandoffDelta d : older) {
            System.arraycopy(d.starts, 0, cuts, at, d.starts.length);
            at += d.starts.length;
        }
        Arrays.sort(cuts);
        int m = 0;
        for (int i = 0; i < cuts.length; i++) {
            if (m == 0 || cuts[m - 1] != cuts[i]) {
                cuts[m++] = cuts[i];
            }
        }
        // each piece's list, newest position first: counted, then filled
        int[] from = new int[m + 1];
        for (int pass = 0; pass < 2; pass++) {
            for (int p = older.length - 1; p >= 0; p--) {
                HandoffDelta d = older[p];
                int[] global = pass == 0 ? null : globalCodes(d);
                for (int i = 0; i < d.starts.length; i++) {
                    int v = d.values[i];
                    if (v == SAME) {
                        continue;
                    }
                    int lo = Arrays.binarySearch(cuts, 0, m, d.starts[i]);
                    int hi = i + 1 < d.starts.length ? Arrays.binarySearch(cuts, 0, m, d.starts[i + 1]) : m;
                    for (int s = lo; s < hi; s++) {
                        if (pass == 0) {
                            from[s + 1]++;
                        } else {
                            int k = fill[s]++;
                            listAt[k] = p;
                            listValue[k] = v == NONE ? NONE : global[v];
                        }
                    }
                }
            }
            if (pass == 0) {
                for (int s = 0; s < m; s++) {
                    from[s + 1] += from[s];
                }
                fill = Arrays.copyOf(from, m);
                listAt = new int[from[m]];
                listValue = new int[from[m]];
            }
        }
        // each piece's answer, cut at the newest ring's boundaries where it has a list
        long end = space == 0 ? 1L << 31 : (long) space - (1L << 31); // the space's end, biased, exclusive
        starts = new int[m + 16];
        ids = new int[starts.length];
        for (int s = 0; s < m; s++) {
            int a = cuts[s];
            if (from[s] == from[s + 1]) {
                emit(a, 0);
                continue;
            }
            long b = s + 1 < m ? cuts[s + 1] : end;
            if (current.isEmpty()) {
                emit(a, answer(NONE, from[s], from[s + 1]));
            } else if (space != 0) {
                int[] owners = current.owners;
                int last = -1;
                for (int e = a ^ HashRing.BIAS; e < (int) (b + (1L << 31)); e++) {
                    int o = owners[e];
                    if (o != last) {
                        emit(e ^ HashRing.BIAS, answer(currentCode(o), from[s], from[s + 1]));
                        last = o;
                    }
                }
            } else {
                int[] points = current.points;
                int[] owners = current.owners;
                int i = Arrays.binarySearch(points, a);
                i = i >= 0 ? i : -i - 1; // the first point >= a: its owner's arc holds a
                int o = owners[i < points.length ? i : 0];
                emit(a, answer(currentCode(o), from[s], from[s + 1]));
                for (; i < points.length && points[i] + 1L < b; i++) {
                    int next = owners[i + 1 < points.length ? i + 1 : 0];
                    if (next != o) {
                        o = next;
                        emit(points[i] + 1, answer(currentCode(o), from[s], from[s + 1]));
                    }
                }
            }
        }
        return new HandoffSweep.Result(Arrays.copyOf(starts, len), Arrays.copyOf(ids, len),
                answers.toArray(new HandoffAnswer[0]));
    }

    private int[] globalCodes(HandoffDelta d) {
        int[] g = new int[d.names.length];
        for (int i = 0; i < g.length; i++) {
            g[i] = code(d.names[i]);
        }
        return g;
    }

    private void emit(int start, int id) {
        if (len > 0 && ids[len - 1] == id) {
            return;
        }
        if (len == starts.length) {
            starts = Arrays.copyOf(starts, len * 2);
            ids = Arrays.copyOf(ids, len * 2);
        }
        starts[len] = start;
        ids[len++] = id;
    }

    /** The answer id of a piece whose newest owner is {@code owner} and whose list is [lo, hi). */
    private int answer(int owner, int lo, int hi) {
        int above = owner;
        int k = lo;
        while (k < hi && listValue[k] == above) {
            above = listValue[k++];
        }
        if (k == hi) {
            return 0; // every listed owner is the one above it: no move
        }
        int movedAt = listAt[k] + 1;
        int[] prev = new int[Handoff.MAX_PREVIOUS];
        int[] seen = new int[Handoff.MAX_PREVIOUS];
        int n = 0;
        for (int j = k; j < hi && n < prev.length; j++) {
            int v = listValue[j];
            if (v == NONE || v == owner || contains(prev, n, v)) {
                continue;
            }
            prev[n] = v;
            seen[n++] = listAt[j];
        }
        Key key = new Key(movedAt, Arrays.copyOf(prev, n), Arrays.copyOf(seen, n));
        Integer id = answerIds.get(key);
        if (id == null) {
            String[] previous = new String[n];
            for (int j = 0; j < n; j++) {
                previous[j] = names.get(prev[j]);
            }
            id = answers.size();
            answers.add(new HandoffAnswer(movedAt, key.seen(),
                    new Handoff(first + movedAt, times[movedAt], List.of(previous))));
            answerIds.put(key, id);
        }
        return id;
    }

    private static boolean contains(int[] a, int n, int v) {
        for (int i = 0; i < n; i++) {
            if (a[i] == v) {
                return true;
            }
        }
        return false;
    }
}
