package io.ringd.store;

import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import io.ringd.state.PersistedState;
import io.ringd.state.PlanStore;
import io.ringd.state.RingConflictException;
import io.ringd.state.RingNames;
import io.ringd.state.RingStore;
import io.ringd.state.RingStores;

/** Every ring in memory only ({@code ringd.store=memory}): for throwaway runs and tests. */
public final class MemoryRingStores implements RingStores {

    private final ConcurrentHashMap<String, MemoryRingStore> rings = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, PlanStore> plans = new ConcurrentHashMap<>();

    @Override
    public RingStore store(String name) {
        return rings.computeIfAbsent(name, n -> new MemoryRingStore());
    }

    @Override
    public Set<String> names() {
        Set<String> names = new TreeSet<>();
        rings.forEach((name, store) -> {
            if (!RingNames.DEFAULT.equals(name) && store.load().isPresent()) {
                names.add(name);
            }
        });
        return names;
    }

    @Override
    public synchronized void create(String name, PersistedState initial) {
        MemoryRingStore store = (MemoryRingStore) store(name);
        if (store.load().isPresent()) {
            throw new RingConflictException("a ring named " + name + " exists already");
        }
        store.save(initial);
    }

    @Override
    public synchronized void delete(String name) {
        rings.remove(name);
        plans.remove(name);
    }

    @Override
    public PlanStore plans(String name) {
        return plans.computeIfAbsent(name, n -> PlanStore.inMemory());
    }

    @Override
    public String describe() {
        return "memory (not kept across restarts)";
    }
}
