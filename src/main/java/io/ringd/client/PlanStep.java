package io.ringd.client;

import java.util.Objects;

/**
 * The step of a planned change that a version is (docs/ring.md section 24):
 * the server commits a plan's steps one version each, and the change event
 * of each names its plan and step. {@code toString()} reads
 * {@code plan 3f9a2c01b7d4 step 2 of 4}.
 *
 * @param id   the plan's id, as {@code GET /plans/{id}} takes it
 * @param step the step's number, from 1
 * @param of   how many steps the plan has
 */
public record PlanStep(String id, int step, int of) {

    /**
     * @throws IllegalArgumentException if {@code id} is empty, or not {@code 1 <= step <= of}
     */
    public PlanStep {
        Objects.requireNonNull(id, "id");
        if (id.isEmpty()) {
            throw new IllegalArgumentException("a plan's id must not be empty");
        }
        if (step < 1 || step > of) {
            throw new IllegalArgumentException("step must be in [1, " + of + "]: " + step);
        }
    }

    /** Whether this is the plan's first step: the ring before it is the plan's starting point. */
    public boolean isFirst() {
        return step == 1;
    }

    /** Whether this is the plan's last step: the ring it makes is the plan's target, the plan is done. */
    public boolean isLast() {
        return step == of;
    }

    @Override
    public String toString() {
        return "plan " + id + " step " + step + " of " + of;
    }
}
