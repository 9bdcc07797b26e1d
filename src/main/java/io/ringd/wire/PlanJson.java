package io.ringd.wire;

import java.util.List;

/**
 * A planned change (docs/ring.md section 24), as {@code GET /plans/{id}}
 * answers it and the plan store keeps it. Times are {@link WireTime}s,
 * durations ISO-8601 ({@code PT30S}).
 *
 * @param id              the plan's id (null in a dry run)
 * @param ring            the ring it changes
 * @param state           {@code running}, {@code paused}, {@code done}, {@code aborted} or {@code failed} (null
 *                        in a dry run)
 * @param reason          why it is paused or failed ({@code admin}, {@code gate-timeout}, ...), or null
 * @param createdAt       when it was made
 * @param changes         the target changes, as {@code POST /membership} takes them
 * @param maxMovedShare   the most each step may move
 * @param minStepInterval the least time between the commits of two steps
 * @param gate            what each step after the first waits for, or null
 * @param movedShare      what the direct change (all the changes at once) moves
 * @param stepsMovedShare the sum of the steps' moved shares
 * @param steps           the steps, in order
 * @param currentStep     the number of the last committed step (0 before the first)
 * @param baseVersion     the ring version the plan was computed from
 * @param waitingSince    when the wait before the next step began (its interval and gate), while it waits
 * @param endedAt         when it was done, aborted or failed
 */
public record PlanJson(String id, String ring, String state, String reason, String createdAt,
        List<ChangeJson> changes, Double maxMovedShare, String minStepInterval, Gate gate, Double movedShare,
        Double stepsMovedShare, List<Step> steps, Integer currentStep, Long baseVersion, String waitingSince,
        String endedAt) {

    /**
     * A plan's gate: after a step, wait until {@code convergedShare} of the followers hold its version.
     *
     * @param convergedShare the share of the followers that are not silent, in (0, 1]
     * @param timeout        how long to wait before the plan pauses with reason {@code gate-timeout}
     */
    public record Gate(Double convergedShare, String timeout) {
    }

    /**
     * One step.
     *
     * @param step        its number, from 1
     * @param changes     the membership batch it commits
     * @param movedShare  what it moves, exactly, from the ring before it
     * @param overBudget  whether it moves more than the budget (a step that cannot be split further)
     * @param version     the version it made, or null until committed
     * @param committedAt when, or null until committed
     */
    public record Step(Integer step, List<ChangeJson> changes, Double movedShare, Boolean overBudget, Long version,
            String committedAt) {
    }

    /** The body of {@code GET /plans}: newest first. */
    public record Plans(List<PlanJson> plans) {
    }

    /**
     * What a plan store keeps of a ring's plans.
     *
     * @param format the document's format, 1
     * @param plans  the plans kept, newest first
     */
    public record Document(Integer format, List<PlanJson> plans) {
    }
}
