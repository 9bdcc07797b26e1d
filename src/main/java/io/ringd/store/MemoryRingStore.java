package io.ringd.store;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import io.ringd.state.PersistedState;
import io.ringd.state.RingStore;

/** Keeps the state in memory only: for throwaway runs and tests ({@code ringd.store=memory}). */
public final class MemoryRingStore implements RingStore {

    private final AtomicReference<PersistedState> state = new AtomicReference<>();

    @Override
    public Optional<PersistedState> load() {
        return Optional.ofNullable(state.get());
    }

    @Override
    public void save(PersistedState s) {
        state.set(s);
    }

    @Override
    public String describe() {
        return "memory (not kept across restarts)";
    }
}
