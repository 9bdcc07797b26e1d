package io.ringd.ring;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The steps of a plan on ketama or Maglev (PlanSteps, docs/plans.md), whose
 * points or table change with every weight: chosen over PlanSteps.RAMP_UNITS units of
 * the ramp, each candidate built and diffed exactly.
 */
final class PlanUnitSteps {

    private PlanUnitSteps() {
    }


    /** A candidate step: its changes, ring and exact moved count from the previous step's ring. */
    private record Probe(TreeMap<String, Change> changes, HashRing ring, long moved) {
    }

    static List<PlanStep> unitSteps(HashRing before, List<PlanRamp> ramps, TreeMap<String, Change> base,
            long budget) {
        List<PlanStep> steps = new ArrayList<>();
        HashRing prev = before;
        boolean first = true;
        if (!base.isEmpty()) {
            Probe fixed = probe(prev, ramps, base, 0);
            if (fixed.moved > budget || ramps.isEmpty()) {
                steps.add(PlanSteps.step(fixed.changes, fixed.moved, fixed.moved > budget, 0, ramps.isEmpty() ? 0 : PlanSteps.RAMP_UNITS));
                prev = fixed.ring;
                first = false;
            }
        }
        if (ramps.isEmpty()) {
            return steps;
        }
        int j = 0;
        while (j < PlanSteps.RAMP_UNITS) {
            TreeMap<String, Change> with = first ? base : new TreeMap<>();
            Probe best = null;
            int lo = j;
            int hi = PlanSteps.RAMP_UNITS;
            Probe failed = probe(prev, ramps, with, hi);
            if (failed.moved <= budget) {
                best = failed;
                lo = hi;
            } else {
                while (hi - lo > 1) {
                    int mid = (lo + hi) >>> 1;
                    Probe p = probe(prev, ramps, with, mid);
                    if (p.moved <= budget) { // only a measured unit is kept: the diff is not monotone in it
                        best = p;
                        lo = mid;
                    } else {
                        failed = p;
                        hi = mid;
                    }
                }
            }
            boolean over = false;
            if (best == null) {
                if (first && !base.isEmpty()) { // the base alone, within the budget (checked above)
                    best = probe(prev, ramps, base, 0);
                } else { // even one unit moves more than the budget: that unit, over budget
                    best = failed;
                    lo = hi;
                    over = true;
                }
            }
            steps.add(PlanSteps.step(best.changes, best.moved, over, lo, PlanSteps.RAMP_UNITS));
            PlanSteps.checkSteps(steps.size());
            prev = best.ring;
            j = lo;
            first = false;
        }
        return steps;
    }

    /** The ramps at unit {@code j} (none at 0) over {@code with}, applied to {@code prev}. */
    private static Probe probe(HashRing prev, List<PlanRamp> ramps, TreeMap<String, Change> with, int j) {
        TreeMap<String, Change> changes = new TreeMap<>(with);
        if (j > 0) {
            for (PlanRamp r : ramps) {
                if (j == PlanSteps.RAMP_UNITS) {
                    changes.put(r.id(), r.to() == null ? Change.remove(r.id()) : Change.put(r.to()));
                } else {
                    changes.put(r.id(), Change.put(r.at(weightAt(r, j))));
                }
            }
        }
        HashRing ring = prev.apply(new ArrayList<>(changes.values()));
        return new Probe(changes, ring, HashRing.diff(prev, ring, 0, 0, null).movedCount());
    }

    /** {@code w0 + (w1 - w0) * j / PlanSteps.RAMP_UNITS}, kept positive and between the two weights. */
    private static double weightAt(PlanRamp r, int j) {
        double w0 = r.from() == null ? 0 : r.from().weight();
        double w1 = r.to() == null ? 0 : r.to().weight();
        double w = w0 + (w1 - w0) * ((double) j / PlanSteps.RAMP_UNITS);
        double lo = Math.min(w0, w1);
        double hi = Math.max(w0, w1);
        if (w > hi) {
            w = hi;
        }
        if (w < lo) {
            w = lo;
        }
        return w > 0 ? w : Double.MIN_VALUE;
    }
}
