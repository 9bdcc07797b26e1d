package io.ringd.state;

/**
 * Checked before every membership and settings write of a ring that is not a
 * plan's step, inside the write's critical section (with a shared store,
 * while this instance holds the store's write lock): the planned changes of
 * docs/ring.md section 24 refuse writes while a plan holds the ring. A
 * {@link RingPart} that attaches one is the ring's gate.
 */
@FunctionalInterface
public interface WriteGate {

    /** Lets every write through. */
    WriteGate OPEN = current -> {
    };

    /**
     * Refuses a write built on {@code current} by throwing.
     *
     * @throws PlanRunningException if a plan holds the ring
     */
    void check(RingState current);
}
