package io.ringd.state;

/**
 * Told of every swap of the current ring state, one version at a time and in
 * order, on the writer's thread (holding the write lock), after the version
 * is durable, and of each write the movement guard refused. Must not block.
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

    /**
     * A write through this instance was refused by the movement guard ({@link MovementGuard}): nothing was
     * swapped, {@code current} is still served. On the writer's thread, holding the write lock.
     *
     * @param current the state the write was built on
     * @param op      the write ({@link Op#PUT}, {@link Op#REMOVE}, {@link Op#BATCH} or {@link Op#SETTINGS})
     * @param refusal the shares: what it would have moved, and the guard's
     */
    default void movementRefused(RingState current, Op op, MovementRefusedException refusal) {
    }
}
