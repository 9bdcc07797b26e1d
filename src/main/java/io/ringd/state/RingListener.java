package io.ringd.state;

/** Told of every swap of the current ring state, on the writer's thread, after it is durable. */
public interface RingListener {

    /** The operations that make a new version. */
    enum Op {
        START, PUT, REMOVE, BATCH, SETTINGS
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
