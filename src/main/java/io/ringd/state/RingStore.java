package io.ringd.state;

import java.util.Optional;

/**
 * Where the ring's state is kept. {@link #save} returns only once the state
 * is durable: an acknowledged change is never lost.
 */
public interface RingStore {

    /**
     * The stored state, or empty when none was ever stored.
     *
     * @throws IllegalStateException naming what could not be read; the service must not start
     */
    Optional<PersistedState> load();

    /**
     * Makes {@code state} durable, replacing what was stored.
     *
     * @throws StoreUnavailableException if it could not be made durable
     */
    void save(PersistedState state);

    /** Where the state lives, for logs: a path, a connection string. */
    String describe();
}
