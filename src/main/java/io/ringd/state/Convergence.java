package io.ringd.state;

/**
 * How far the followers of a ring (docs/ring.md section 23) have come: what a
 * plan's gate waits on. The followers feature keeps one per ring as a
 * {@link RingPart}'s part.
 */
public interface Convergence {

    /** With no followers kept: converged, as with none reporting. */
    Convergence NONE = (version, share) -> new Answer(true, 0, 0, 0);

    /**
     * The answer of a convergence question.
     *
     * @param converged whether at least the share of the followers that are not silent report the version or
     *                  later with matching fingerprints (true with no followers), and the ring has reached it
     * @param followers the followers that are not silent
     * @param atOrPast  how many of them report the version or later
     * @param diverged  how many of them diverged
     */
    record Answer(boolean converged, int followers, int atOrPast, int diverged) {
    }

    /** Whether at least {@code share} of the followers hold {@code version} or later, now. */
    Answer converged(long version, double share);
}
