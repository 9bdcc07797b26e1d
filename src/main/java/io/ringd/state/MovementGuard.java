package io.ringd.state;

import io.ringd.ring.HashRing;
import io.ringd.ring.RingDiff;

/**
 * The movement guard (docs/ring.md section 17): refuses a write that would
 * move more than {@link #maxMovedShare()} of the hash space, its exact moved
 * share as {@code /diff} reports it (the library's {@link HashRing#diff}).
 * At 1 it is off and computes nothing: no write can move more than the whole
 * space.
 */
public final class MovementGuard {

    /** The guard that refuses nothing, and costs nothing. */
    public static final MovementGuard OFF = new MovementGuard(1);

    private final double maxMovedShare;

    private MovementGuard(double maxMovedShare) {
        this.maxMovedShare = maxMovedShare;
    }

    /**
     * The guard of {@code maxMovedShare}.
     *
     * @throws IllegalArgumentException unless {@code 0 < maxMovedShare <= 1}
     */
    public static MovementGuard of(double maxMovedShare) {
        if (!(maxMovedShare > 0 && maxMovedShare <= 1)) {
            throw new IllegalArgumentException("the largest moved share must be in (0, 1]: " + maxMovedShare);
        }
        return maxMovedShare == 1 ? OFF : new MovementGuard(maxMovedShare);
    }

    /** The largest share of the hash space one write may move. */
    public double maxMovedShare() {
        return maxMovedShare;
    }

    /** Whether the guard can refuse anything (its share is under 1). */
    public boolean isOn() {
        return maxMovedShare < 1;
    }

    /**
     * Checks the step from {@code from} to {@code to}; computes nothing when the guard is off. The diff keeps no
     * range and no flow: only its exact moved count is read.
     *
     * @throws MovementRefusedException if it moves more than {@link #maxMovedShare()}
     */
    void check(HashRing from, HashRing to) {
        if (!isOn()) {
            return;
        }
        RingDiff d = HashRing.diff(from, to, 0, 0, null);
        // movedCount / 2^32 is exact in a double: the comparison is exact too
        if (d.movedShare() > maxMovedShare) {
            throw new MovementRefusedException(d.movedCount(), d.movedShare(), maxMovedShare);
        }
    }

    @Override
    public String toString() {
        return isOn() ? "MovementGuard[maxMovedShare=" + maxMovedShare + "]" : "MovementGuard[off]";
    }
}
