package io.ringd.state;

import java.util.Objects;

/**
 * A membership or settings write refused because a planned change of the
 * ring is running or paused (docs/ring.md section 24): only the plan's steps
 * change the ring until it is done or aborted. Nothing was changed; 409 over
 * HTTP, naming the plan.
 */
public final class PlanRunningException extends RuntimeException {

    private final String planId;
    private final String planState;

    public PlanRunningException(String planId, String planState, String message) {
        super(message);
        this.planId = Objects.requireNonNull(planId, "planId");
        this.planState = Objects.requireNonNull(planState, "planState");
    }

    /** The plan that holds the ring. */
    public String planId() {
        return planId;
    }

    /** Its state: {@code running} or {@code paused}. */
    public String planState() {
        return planState;
    }
}
