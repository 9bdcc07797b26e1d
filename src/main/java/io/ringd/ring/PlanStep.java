package io.ringd.ring;

import java.util.List;

/**
 * One step of a planned change ({@link PlanSteps}): a batch of membership
 * changes, what it moves from the ring before it, and how far along the
 * ramp it leaves the plan.
 *
 * @param changes    the batch, one change per node, ascending by id: puts with intermediate or target
 *                   weights, and removals
 * @param movedCount hash values whose owner this step changes, exactly (docs/ring.md section 9), from the
 *                   ring the previous step left (the plan's ring before, for the first step)
 * @param overBudget whether this step moves more than the budget: only a step that cannot be split
 *                   further (one ramp unit, or the first step's changes that are not ramped)
 * @param rampDone   ramp units done after this step: point changes for {@code algorithm=ring}, steps of
 *                   {@code 1 / rampUnits} of each weight change for ketama and Maglev
 * @param rampUnits  the ramp units of the whole plan
 */
public record PlanStep(List<Change> changes, long movedCount, boolean overBudget, long rampDone, long rampUnits) {

    public PlanStep {
        changes = List.copyOf(changes);
    }

    /** {@code movedCount / 2^32}. */
    public double movedShare() {
        return movedCount / (double) HashRing.HASH_SPACE;
    }
}
