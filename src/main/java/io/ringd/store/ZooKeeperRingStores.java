package io.ringd.store;

import java.util.Set;

import io.ringd.state.PersistedState;
import io.ringd.state.RingNames;
import io.ringd.state.RingStore;
import io.ringd.state.RingStores;
import io.ringd.state.StoreUnavailableException;

/** Every ring in ZooKeeper ({@code ringd.store=zookeeper}); the ring {@code default} at the configured path. */
public final class ZooKeeperRingStores implements RingStores {

    private final ZooKeeperRingStore defaultStore;

    public ZooKeeperRingStores(ZooKeeperProperties props) {
        this.defaultStore = new ZooKeeperRingStore(props);
    }

    @Override
    public RingStore store(String name) {
        if (RingNames.DEFAULT.equals(name)) {
            return defaultStore;
        }
        throw new StoreUnavailableException("named rings on ZooKeeper are not made yet", null);
    }

    @Override
    public Set<String> names() {
        return Set.of();
    }

    @Override
    public void create(String name, PersistedState initial) {
        throw new StoreUnavailableException("named rings on ZooKeeper are not made yet", null);
    }

    @Override
    public void delete(String name) {
        throw new StoreUnavailableException("named rings on ZooKeeper are not made yet", null);
    }

    @Override
    public boolean shared() {
        return true;
    }

    @Override
    public String describe() {
        return defaultStore.describe();
    }

    @Override
    public void close() {
        defaultStore.close();
    }
}
