package io.ringd.state;

import java.util.Set;
import java.util.function.Consumer;

/**
 * Where every ring's state is kept: one {@link RingStore} per ring, the ring
 * {@link RingNames#DEFAULT} where a ringd before named rings kept its one
 * ring (so that state loads as {@code default} without any step), each other
 * ring beside it (docs/ring.md section 22).
 */
public interface RingStores extends AutoCloseable {

    /** The store of the ring {@code name}, made on first use; the same one for as long as the ring lives. */
    RingStore store(String name);

    /**
     * The names of the rings other than {@code default} stored now, read at
     * start-up (and again by a shared store when others change them).
     *
     * @throws StoreUnavailableException when a shared store cannot be reached now
     */
    Set<String> names();

    /**
     * Makes the new ring {@code name} durable at its first version, or refuses
     * when a ring of that name is stored (another instance made it).
     *
     * @throws RingConflictException      if a ring of that name is stored
     * @throws StoreUnavailableException if it could not be made durable
     */
    void create(String name, PersistedState initial);

    /**
     * Deletes the ring {@code name} and its history for good, and closes its
     * store; a ring made later with that name starts again.
     *
     * @throws StoreUnavailableException if it could not be deleted (it is then still stored)
     */
    void delete(String name);

    /** Closes the store of the ring {@code name} (deleted through another instance), keeping what is stored. */
    default void forget(String name) {
    }

    /**
     * Calls {@code onChange} with the names stored now whenever another writer may have made or deleted a
     * ring. A store with one writer never calls it.
     */
    default void followNames(Consumer<Set<String>> onChange) {
    }

    /**
     * Calls {@code onReplaced} with the name of a ring that was deleted and made again (a new incarnation)
     * through another instance while this one served the old one: it is to be served afresh. A store with
     * one writer never calls it.
     */
    default void followReplaced(Consumer<String> onReplaced) {
    }

    /** Whether other instances share these rings. */
    /**
     * The board named {@code topic} of ring {@code name}, where the instances
     * sharing this store post what each holds alone; {@code null} for a store
     * no other instance reads (memory, file). Taken down with the ring.
     */
    default SharedBoard board(String name, String topic) {
        return null;
    }

    /**
     * Where the planned changes of ring {@code name} are kept, made once when the ring is served and closed
     * with it (its document deleted with the ring). Memory by default.
     */
    default PlanStore plans(String name) {
        return PlanStore.inMemory();
    }

    default boolean shared() {
        return false;
    }

    /** Where the rings live, for logs. */
    String describe();

    /** Releases what the stores hold (files, connections). */
    @Override
    default void close() {
    }
}
