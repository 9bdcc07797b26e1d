package io.ringd.state;

import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where the ring's state is kept. {@link #save} returns only once the state
 * is durable: an acknowledged change is never lost.
 *
 * <p>A store may be shared by several ringd instances (ZooKeeper): then a
 * save is a compare-and-set on the stored version, and the store tells each
 * instance of versions that others committed ({@link #follow}).
 */
public interface RingStore {

    /**
     * The stored state, or empty when none was ever stored.
     *
     * @throws IllegalStateException     naming what could not be read; the service must not start
     * @throws StoreUnavailableException when a shared store cannot be reached now
     */
    Optional<PersistedState> load();

    /**
     * Makes {@code state} durable, replacing what was stored.
     *
     * @throws StoreUnavailableException if it could not be made durable
     */
    void save(PersistedState state);

    /**
     * Makes {@code state} durable only if the stored state is still at
     * {@code expectedVersion}: what a shared store does. A store with one
     * writer (this process) saves as {@link #save(PersistedState)} does.
     *
     * @throws StoreConflictException    if another writer stored a later version; it carries that state
     * @throws StoreUnavailableException if it could not be made durable
     */
    default void save(PersistedState state, long expectedVersion) {
        save(state);
    }

    /**
     * Stores {@code initial}, the first version of a new ring, unless a ring
     * is stored already (another instance made it first); answers the state
     * that is stored now. A store with one writer stores nothing yet.
     *
     * @throws StoreUnavailableException if the store cannot be reached
     */
    default PersistedState create(PersistedState initial) {
        return initial;
    }

    /**
     * Calls {@code onChange} with the stored state whenever another writer may
     * have changed it, and when the store is reachable again after it was not
     * (or for the first time). A store with one writer never calls it.
     */
    default void follow(Consumer<PersistedState> onChange) {
    }

    /**
     * Runs {@code write} while no other writer of this store runs one: a
     * shared store takes its distributed lock (fair: writers through
     * different instances take turns), a store with one writer runs it as it is.
     *
     * @throws StoreUnavailableException if the lock cannot be taken
     */
    default <T> T exclusively(java.util.function.Supplier<T> write) {
        return write.get();
    }

    /** Whether a save can succeed now (a shared store that is not connected refuses writes). */
    default boolean writable() {
        return true;
    }

    /**
     * Tells a shared store the incarnation this instance serves (after it
     * loaded or made a ring): from then on a stored state of another
     * incarnation, or none, is a lost store ({@link #lostBecause}).
     */
    default void serving(String incarnation, long version) {
    }

    /**
     * Why the store no longer holds the ring this instance serves (it holds
     * none, or another incarnation), or {@code null} when it does; while
     * not null, {@link #writable()} is false and writes are refused.
     */
    default String lostBecause() {
        return null;
    }

    /**
     * Writes {@code state} (the whole ring this instance holds, its
     * incarnation and history) to a store that lost it: the recovery step.
     * Only into a store that holds no ring, or one that holds the incarnation
     * {@code replacing} names (an operator's explicit choice).
     *
     * @throws StoreConflictException        if the store holds a ring and {@code replacing} does not name its
     *                                       incarnation; it carries that state
     * @throws UnsupportedOperationException if the store is not shared
     */
    default void reseed(PersistedState state, String replacing) {
        throw new UnsupportedOperationException("only a shared store is re-seeded");
    }

    /** Whether other instances may write to this store. */
    default boolean shared() {
        return false;
    }

    /** Where the state lives, for logs: a path, a connection string. */
    String describe();
}
