package io.ringd.state;

/**
 * Told of every swap of the current ring state, one version at a time and in
 * order, on the writer's thread (holding the write lock), after the version
 * is durable. Must not block.
 */
public interface RingListener {

    /** What made the swap. */
    enum Op {
        /** The state loaded (or made) at start-up. */
        START,
        /** Writes through this instance. */
        PUT, REMOVE, BATCH, SETTINGS,
        /** A version another instance committed to a shared store, applied here in order. */
        FOLLOW,
        /**
         * A whole state installed in place of the one served: the first load of an
         * instance that started while its shared store was unreachable, or one that
         * fell further behind than the history keeps. Versions between may be missing.
         */
        RELOAD
    }

    /**
     * The current state became {@code current}.
     *
     * @param previous the state before, or {@code null} at start-up
     * @param current  the state now
     * @param op       what made it ({@link Op#START} at start-up)
     */
    void ringSwapped(RingState previous, RingState current, Op op);
}
