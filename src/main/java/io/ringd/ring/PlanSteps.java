package io.ringd.ring;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The steps of a planned change (docs/plans.md): a batch of membership
 * changes reached in steps, each moving at most a budgeted share of the hash
 * space from the ring before it. A node that is added or made heavier has
 * its weight raised in steps, one that is removed or made lighter has it
 * lowered in steps (a removed node leaves in the last of its steps), and the
 * other changes (a zone, a hashKey, a node whose points do not change) are
 * made in the first step. The last step reaches exactly the membership the
 * changes make at once.
 *
 * <p>Every step's moved count is the exact diff (docs/ring.md section 9) of
 * the ring the previous step left and the ring the step makes. A step moves
 * at most the budget unless it cannot be split further (one point, one ramp
 * unit, or the first step's changes that are not ramped): then it is marked
 * {@link PlanStep#overBudget()}.
 */
public final class PlanSteps {

    /*
     * Design note.
     *
     * Ramps. Each node whose weight changes is a ramp from its weight in the
     * ring before (none for a node added) to its target (none for a node
     * removed). The changes that are not ramped, with each ramped node's
     * new zone and hashKey at its old weight, make the "base" changes of the
     * first step; the ring they make is the base the ramps start from. A
     * removal whose placement string a put of the plan takes over (a
     * rename) is not ramped either: the two are made together in the first
     * step, since while the removed node stayed the two would be placed by
     * one string, which a ring refuses.
     *
     * algorithm=ring. A node's points are its labels "X#0 .. X#k-1"
     * (docs/ring.md section 3), so a ramp from k = a to k = b points is a
     * sequence of |b - a| point changes: adding labels a .. b-1, or dropping
     * labels a-1 down to b (k = 0 is a removal). Adding a point p takes the
     * arc from the present point before p to p (when p is new; when p is a
     * point already there, only if the node's id is smaller than its owner's,
     * section 4), from the owner of the first point after p; dropping one
     * gives that arc back. So the moved count of each point change is known
     * exactly from an overlay of the points changed so far on the base ring,
     * without building a ring. The ramps are interleaved by the fraction of
     * their own change each point completes (ties in id order), so every
     * ramp advances by the same fraction, and a step takes point changes in
     * that order while the sum of their moved counts stays within the
     * budget. For one ramp, every value moves at most once (to the node when
     * it grows, from it when it shrinks), so that sum is the step's exact
     * diff and the steps' moved counts add up to the direct change's. With
     * several ramps a value can move twice within a step (into a new point
     * of X, then into a new point of Y between), so the sum bounds the diff
     * from above: the step stays within the budget, possibly a little
     * smaller than the largest one. The steps are chosen first (so a plan
     * past MAX_STEPS fails before any ring is built); then each step's ring
     * is built once and diffed against the previous one for the exact count
     * reported.
     *
     * ketama and Maglev. A ketama node's digests depend on every weight and
     * on the node count; a Maglev table is filled afresh for every
     * membership. There is no per-point arithmetic: the ramp goes over
     * RAMP_UNITS units, at unit j every ramped node having weight
     * w0 + (w1 - w0) * j / RAMP_UNITS (its target at the last unit), and a
     * step is chosen by building candidate rings and diffing each against the
     * previous step's ring: first the whole rest of the ramp, then a
     * bisection over the units. The diff is not monotone in j (a ketama
     * digest count rounds, a Maglev fill reshuffles), so the bisection only
     * ever keeps a unit it measured within the budget: every step is within
     * it, but a larger unit within it may exist past one that is not, and
     * then the step is smaller than it could be. When even the next unit
     * exceeds the budget the step is that one unit, over budget. Values can
     * move twice here, even for one node: a node joining a ketama ring at a
     * tiny weight still raises the node count, which gives every other node
     * more digests until the new node's weight takes them back.
     */

    /** The most steps a plan may have. */
    public static final int MAX_STEPS = 10_000;
    /** Units of a ketama or Maglev ramp: a step moves each ramped weight by a multiple of 1/65536 of its change. */
    public static final int RAMP_UNITS = 1 << 16;

    private final List<PlanStep> steps;
    private final long movedCount;
    private final long stepsMovedCount;
    private final double maxMovedShare;

    private PlanSteps(List<PlanStep> steps, long movedCount, double maxMovedShare) {
        this.steps = List.copyOf(steps);
        this.movedCount = movedCount;
        long sum = 0;
        for (PlanStep s : steps) {
            sum += s.movedCount();
        }
        this.stepsMovedCount = sum;
        this.maxMovedShare = maxMovedShare;
    }

    /**
     * The steps that take {@code before} to {@code before.apply(changes)},
     * each moving at most {@code maxMovedShare} of the hash space unless it
     * cannot be split further. Changes that change nothing (a node put as it
     * is) make no step; a plan of nothing but those has no steps.
     *
     * @throws IllegalArgumentException    for a budget outside {@code (0, 1]} or no changes
     * @throws RingException.InvalidBatch  if an id appears twice in the changes
     * @throws RingException.UnknownNode   if a removal names no member
     * @throws RingException.LimitExceeded past the node or point limit (the target, or a step), or past
     *                                     {@link #MAX_STEPS} steps
     */
    public static PlanSteps of(HashRing before, List<? extends Change> changes, double maxMovedShare) {
        Objects.requireNonNull(before, "before");
        Objects.requireNonNull(changes, "changes");
        if (!(maxMovedShare > 0 && maxMovedShare <= 1)) { // also refuses NaN
            throw new IllegalArgumentException("maxMovedShare must be in (0, 1]: " + maxMovedShare);
        }
        if (changes.isEmpty()) {
            throw new IllegalArgumentException("a plan needs at least one change");
        }
        HashRing target = before.apply(changes); // checks the batch: ids, removals, limits
        long direct = HashRing.diff(before, target, 0, 0, null).movedCount();
        long budget = (long) Math.floor(maxMovedShare * HashRing.HASH_SPACE);
        boolean points = before.config().algorithm() == RingConfig.Algorithm.RING;
        int vpw = before.config().vnodesPerWeight();

        TreeMap<String, Change> base = new TreeMap<>();
        List<PlanRamp> ramps = new ArrayList<>();
        // A removed node whose placement string a put takes over (a rename: docs/ring.md section 3)
        // leaves in the first step with that put, unramped: two members are never placed by one string.
        Map<String, String> removedByKey = new HashMap<>();
        for (Change c : changes) {
            if (c instanceof Change.Remove) {
                removedByKey.put(before.node(c.id()).orElseThrow().placementKey(), c.id());
            }
        }
        for (Change c : changes) {
            if (c instanceof Change.Put p && removedByKey.containsKey(p.node().placementKey())) {
                base.put(c.id(), c);
                String removed = removedByKey.get(p.node().placementKey());
                base.put(removed, Change.remove(removed));
            }
        }
        for (Change c : changes) {
            Node old = before.node(c.id()).orElse(null);
            if (base.containsKey(c.id())) {
                continue;
            }
            if (c instanceof Change.Remove) {
                ramps.add(new PlanRamp(old, null));
                continue;
            }
            Node n = ((Change.Put) c).node();
            if (old != null && old.sameAs(n)) {
                continue; // changes nothing
            }
            boolean samePoints = old != null && (points ? old.pointCount(vpw) == n.pointCount(vpw)
                    : Double.compare(old.weight(), n.weight()) == 0);
            if (samePoints) {
                base.put(c.id(), c);
            } else {
                PlanRamp r = new PlanRamp(old, n);
                ramps.add(r);
                if (old != null && !(Objects.equals(old.zone(), n.zone())
                        && Objects.equals(old.hashKey(), n.hashKey()))) {
                    base.put(c.id(), Change.put(r.at(old.weight())));
                }
            }
        }
        ramps.sort((x, y) -> x.id().compareTo(y.id()));
        List<PlanStep> steps = points ? pointSteps(before, ramps, base, budget)
                : PlanUnitSteps.unitSteps(before, ramps, base, budget);
        return new PlanSteps(steps, direct, maxMovedShare);
    }

    /** The steps, in order; none when the changes change nothing. */
    public List<PlanStep> steps() {
        return steps;
    }

    /** The budget the steps were chosen for. */
    public double maxMovedShare() {
        return maxMovedShare;
    }

    /** Hash values the direct change (all the changes as one batch) moves. */
    public long movedCount() {
        return movedCount;
    }

    /** {@code movedCount / 2^32}: the direct change's moved share. */
    public double movedShare() {
        return movedCount / (double) HashRing.HASH_SPACE;
    }

    /** The sum of the steps' moved counts: at least {@link #movedCount()}, more when values move twice. */
    public long stepsMovedCount() {
        return stepsMovedCount;
    }

    /** {@code stepsMovedCount / 2^32}, the sum of the steps' moved shares. */
    public double stepsMovedShare() {
        return stepsMovedCount / (double) HashRing.HASH_SPACE;
    }

    @Override
    public String toString() {
        return "PlanSteps[" + steps.size() + " steps, moved " + movedCount + ", steps moved " + stepsMovedCount
                + "]";
    }

    // ---------------------------------------------------------------- ramps

    static void checkSteps(int count) {
        if (count > MAX_STEPS) {
            throw new RingException.LimitExceeded("a plan may have at most " + MAX_STEPS
                    + " steps: this budget needs more");
        }
    }

    static PlanStep step(Map<String, Change> changes, long moved, boolean over, long done, long units) {
        return new PlanStep(new ArrayList<>(changes.values()), moved, over, done, units);
    }

    // ---------------------------------------------------------------- algorithm=ring: point by point

    /** A chosen step: the ramps it moves and their point counts after it. */
    private record Draft(int[] ramps, int[] counts, boolean overBudget, long done, boolean withBase) {
    }

    private static List<PlanStep> pointSteps(HashRing before, List<PlanRamp> ramps, TreeMap<String, Change> base,
            long budget) {
        RingConfig config = before.config();
        int vpw = config.vnodesPerWeight();
        HashRing baseRing = base.isEmpty() ? before : before.apply(new ArrayList<>(base.values()));
        long baseMoved = base.isEmpty() ? 0 : HashRing.diff(before, baseRing, 0, 0, null).movedCount();

        TreeSet<String> idSet = new TreeSet<>();
        for (Node n : baseRing.members) {
            idSet.add(n.id());
        }
        int r = ramps.size();
        int[] from = new int[r];
        int[] to = new int[r];
        int[] member = new int[r];
        int[][] hashes = new int[r][];
        boolean[][] effective = new boolean[r][];
        long total = 0;
        for (PlanRamp ramp : ramps) {
            idSet.add(ramp.id());
        }
        String[] ids = idSet.toArray(new String[0]);
        for (int i = 0; i < r; i++) {
            PlanRamp ramp = ramps.get(i);
            from[i] = ramp.from() == null ? 0 : (int) ramp.from().pointCount(vpw);
            to[i] = ramp.to() == null ? 0 : (int) ramp.to().pointCount(vpw);
            member[i] = Arrays.binarySearch(ids, ramp.id());
            if (to[i] > from[i]) {
                hashes[i] = RingBuilder.placePoints(config, ramp.placementKey(), from[i], to[i]);
            } else { // dropped from the top: a label takes its point away only if no lower label has it too
                int[] all = RingBuilder.placePoints(config, ramp.placementKey(), 0, from[i]);
                Map<Integer, Integer> first = new HashMap<>();
                boolean[] eff = new boolean[from[i] - to[i]];
                for (int k = 0; k < all.length; k++) {
                    first.putIfAbsent(all[k], k);
                }
                int[] dropped = new int[from[i] - to[i]];
                for (int j = 0; j < dropped.length; j++) {
                    int label = from[i] - 1 - j;
                    dropped[j] = all[label];
                    eff[j] = first.get(all[label]) == label;
                }
                hashes[i] = dropped;
                effective[i] = eff;
            }
            total += Math.abs(to[i] - from[i]);
        }

        PlanPointOverlay overlay = new PlanPointOverlay(baseRing, ids);
        int[] done = new int[r];
        PriorityQueue<Integer> queue = new PriorityQueue<>((x, y) -> {
            // next fractions (done+1)/n, compared exactly; ties in id order
            long nx = Math.abs(to[x] - from[x]);
            long ny = Math.abs(to[y] - from[y]);
            int c = Long.compare((done[x] + 1L) * ny, (done[y] + 1L) * nx);
            return c != 0 ? c : Integer.compare(x, y);
        });
        for (int i = 0; i < r; i++) {
            if (to[i] != from[i]) {
                queue.add(i);
            }
        }
        List<Draft> drafts = new ArrayList<>();
        long opsDone = 0;
        boolean first = true;
        while (!queue.isEmpty() || (first && !base.isEmpty())) {
            long sum = first ? baseMoved : 0;
            boolean over = first && baseMoved > budget;
            int stepOps = 0;
            Map<Integer, Integer> touched = new TreeMap<>();
            while (!over && !queue.isEmpty()) {
                int i = queue.peek();
                int j = done[i];
                boolean grow = to[i] > from[i];
                boolean eff = grow || effective[i][j];
                int p = hashes[i][j] ^ HashRing.BIAS;
                long moved = eff ? overlay.moved(p, member[i], grow) : 0;
                if (sum + moved > budget && (stepOps > 0 || sum > 0)) {
                    break;
                }
                queue.poll();
                if (eff) {
                    overlay.apply(p, member[i], grow);
                }
                done[i]++;
                opsDone++;
                stepOps++;
                touched.put(i, from[i] + (grow ? done[i] : -done[i]));
                if (done[i] < Math.abs(to[i] - from[i])) {
                    queue.add(i);
                }
                sum += moved;
                over = sum > budget;
            }
            int[] which = new int[touched.size()];
            int[] counts = new int[touched.size()];
            int k = 0;
            for (Map.Entry<Integer, Integer> e : touched.entrySet()) {
                which[k] = e.getKey();
                counts[k++] = e.getValue();
            }
            drafts.add(new Draft(which, counts, over, opsDone, first));
            checkSteps(drafts.size());
            first = false;
        }

        List<PlanStep> steps = new ArrayList<>(drafts.size());
        HashRing prev = before;
        for (Draft d : drafts) {
            TreeMap<String, Change> changes = d.withBase ? new TreeMap<>(base) : new TreeMap<>();
            for (int k = 0; k < d.ramps.length; k++) {
                int i = d.ramps[k];
                PlanRamp ramp = ramps.get(i);
                int count = d.counts[k];
                changes.put(ramp.id(), count == 0 ? Change.remove(ramp.id())
                        : Change.put(ramp.at(weightFor(ramp, count, from[i], to[i], vpw))));
            }
            HashRing next = prev.apply(new ArrayList<>(changes.values()));
            long moved = HashRing.diff(prev, next, 0, 0, null).movedCount();
            steps.add(step(changes, moved, d.overBudget, d.done, total));
            prev = next;
        }
        return steps;
    }

    /**
     * A weight that gives exactly {@code k} points: the target's or the old
     * one at the ends, else about {@code k / vnodesPerWeight}, checked
     * against {@code max(1, round(vnodesPerWeight * w))}.
     */
    private static double weightFor(PlanRamp ramp, int k, int a, int b, int vpw) {
        if (k == b && ramp.to() != null) {
            return ramp.to().weight();
        }
        if (k == a && ramp.from() != null) {
            return ramp.from().weight();
        }
        double w = k / (double) vpw;
        while (Math.max(1L, Math.round(vpw * w)) < k) {
            w = Math.nextUp(w);
        }
        while (Math.max(1L, Math.round(vpw * w)) > k) {
            w = Math.nextDown(w);
        }
        return w;
    }
}
