package io.ringd.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.state.PersistedState;
import io.ringd.state.PlanStore;
import io.ringd.state.RingConflictException;
import io.ringd.state.RingNames;
import io.ringd.state.RingStore;
import io.ringd.state.RingStores;
import io.ringd.state.SharedBoard;
import io.ringd.state.StoreUnavailableException;

/**
 * Every ring in ZooKeeper ({@code ringd.store=zookeeper}), through one client (one session) shared by all
 * their stores: the ring {@code default} at {@code ringd.zookeeper.path}, where a ringd before named rings
 * kept its one ring (so that path loads as {@code default}, with its history, without any step), and each
 * other ring {@code n} at {@code <path>/rings/<n>} (docs/ring.md section 22).
 */
public final class ZooKeeperRingStores implements RingStores {

    /*
     * Making a ring is one multi-operation: <path>/rings/<n>, its state
     * (version 0) and its instances folder, and a touch of <path>/rings's
     * data; deleting one is one multi-operation too: every znode under
     * <path>/rings/<n> (others' markers and lock znodes included), the ring's
     * node, and the touch. So no instance sees half a ring, and every
     * instance hears of each with one watch: a CuratorCache of the single
     * node <path>/rings, whose data changes with every making and deleting;
     * the names are then listed afresh and handed to the registry. A ringd
     * never deletes <path>/rings itself: when it is gone, the path was wiped,
     * and the names are not handed on (the rings' stores judge that as a
     * lost store).
     */

    private static final Logger log = LoggerFactory.getLogger(ZooKeeperRingStores.class);
    /** How often a deleting retries when znodes appear under the ring meanwhile. */
    private static final int DELETE_ATTEMPTS = 16;

    private final ZooKeeperProperties props;
    private final CuratorFramework client;
    private final String ringsPath;
    private final ZooKeeperRingStore defaultStore;
    private final ConcurrentHashMap<String, ZooKeeperRingStore> stores = new ConcurrentHashMap<>();
    /** Hands names and replaced rings to the registry, one at a time, never on Curator's or a store's thread. */
    private final ExecutorService events = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "ringd-zookeeper-rings");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean namesPending = new AtomicBoolean();
    private final ConnectionStateListener reconnected = (c, state) -> {
        if (state == ConnectionState.CONNECTED || state == ConnectionState.RECONNECTED) {
            refreshNames();
        }
    };
    private final ZooKeeperRingStore.Elsewhere elsewhere = new ZooKeeperRingStore.Elsewhere() {
        @Override
        public void deleted(String name) {
            refreshNames();
        }

        @Override
        public void replaced(String name) {
            Consumer<String> r = onReplaced;
            if (r != null) {
                run(() -> r.accept(name));
            }
        }
    };
    private volatile Consumer<Set<String>> onNames;
    private volatile Consumer<String> onReplaced;
    private CuratorCache namesCache;

    public ZooKeeperRingStores(ZooKeeperProperties props) {
        this.props = props;
        this.client = ZooKeeperRingStore.newClient(props);
        this.ringsPath = ZooKeeperRingStore.base(props) + "/rings";
        client.start();
        this.defaultStore = new ZooKeeperRingStore(client, props, null, elsewhere);
    }

    @Override
    public RingStore store(String name) {
        if (RingNames.DEFAULT.equals(name)) {
            return defaultStore;
        }
        return stores.computeIfAbsent(name, n -> new ZooKeeperRingStore(client, props, n, elsewhere));
    }

    @Override
    public Set<String> names() {
        Set<String> names = listed();
        return names == null ? new TreeSet<>() : names;
    }

    /** The rings under {@code <path>/rings} that hold a state, or null when it is not there. */
    private Set<String> listed() {
        awaitConnection();
        Set<String> names = new TreeSet<>();
        try {
            for (String child : client.getChildren().forPath(ringsPath)) {
                if (RingNames.valid(child) && !RingNames.DEFAULT.equals(child)
                        && client.checkExists().forPath(ringPath(child) + "/state") != null) {
                    names.add(child);
                }
            }
        } catch (KeeperException.NoNodeException e) {
            return null;
        } catch (Exception e) {
            throw new StoreUnavailableException("cannot list the rings at " + ringsPath + ": " + e.getMessage(), e);
        }
        return names;
    }

    @Override
    public void create(String name, PersistedState initial) {
        awaitConnection();
        String ring = ringPath(name);
        byte[] encoded = defaultStore.encode(initial);
        ZooKeeperStateNodes nodes = new ZooKeeperStateNodes(client, ring, props.maxStateBytes().toBytes());
        nodes.refuseIfTooLarge(encoded); // before anything is written
        ZooKeeperStateNodes.Written written = null;
        try {
            try {
                client.create().creatingParentsIfNeeded().forPath(ringsPath);
            } catch (KeeperException.NodeExistsException e) {
                // made with the first ring
            }
            // a new ring's state is tiny; a larger one (never made so today) is chunked first, and committed
            // with the rest in the multi-operation below
            written = nodes.prepare(encoded, true);
            byte[] state = written.stateData();
            List<CuratorOp> ops = new ArrayList<>();
            if (client.checkExists().forPath(ring) == null) {
                ops.add(client.transactionOp().create().forPath(ring));
                ops.add(client.transactionOp().create().forPath(ring + "/instances"));
            } else if (client.checkExists().forPath(ring + "/instances") == null) {
                // what a write cut short by the ring's deletion left (its lock's container): made anew
                ops.add(client.transactionOp().create().forPath(ring + "/instances"));
            }
            ops.add(client.transactionOp().create().forPath(ring + "/state", state));
            ops.add(touch("made " + name));
            client.transaction().forOperations(ops);
        } catch (KeeperException.NodeExistsException e) {
            nodes.abandon(written);
            throw new RingConflictException("a ring named " + name + " exists already (made through another "
                    + "instance)");
        } catch (KeeperException.ConnectionLossException | KeeperException.SessionExpiredException e) {
            throw new StoreUnavailableException("ZooKeeper lost the connection while making the ring " + name
                    + ": it may have been made", e, true);
        } catch (Exception e) {
            throw new StoreUnavailableException("ZooKeeper did not make the ring " + name + ": " + e.getMessage(),
                    e);
        }
        log.info("Stored the new ring {} at {}", name, ring);
    }

    @Override
    public void delete(String name) {
        if (RingNames.DEFAULT.equals(name)) {
            throw new IllegalArgumentException("the ring default is never deleted");
        }
        awaitConnection();
        String ring = ringPath(name);
        for (int attempt = 1; ; attempt++) {
            try {
                if (client.checkExists().forPath(ring) == null) {
                    break;
                }
                List<String> doomed = new ArrayList<>();
                subtree(ring, doomed);
                List<CuratorOp> ops = new ArrayList<>();
                for (String p : doomed) {
                    ops.add(client.transactionOp().delete().forPath(p));
                }
                ops.add(touch("deleted " + name));
                client.transaction().forOperations(ops);
                break;
            } catch (KeeperException.NotEmptyException | KeeperException.NoNodeException e) {
                // a znode came or went under the ring meanwhile (a marker, a lock's): list it again
                if (attempt >= DELETE_ATTEMPTS) {
                    throw new StoreUnavailableException("the ring " + name + " at " + ring + " kept changing "
                            + "while it was being deleted", e);
                }
            } catch (KeeperException.ConnectionLossException | KeeperException.SessionExpiredException e) {
                throw new StoreUnavailableException("ZooKeeper lost the connection while deleting the ring " + name
                        + ": it may have been deleted", e, true);
            } catch (Exception e) {
                throw new StoreUnavailableException("ZooKeeper did not delete the ring " + name + ": "
                        + e.getMessage(), e);
            }
        }
        forget(name);
        log.info("Deleted the ring {} at {}", name, ring);
    }

    /** Every znode under {@code path} and then {@code path}, the deepest first. */
    private void subtree(String path, List<String> out) throws Exception {
        for (String child : client.getChildren().forPath(path)) {
            subtree(path + "/" + child, out);
        }
        out.add(path);
    }

    /** A change of {@code <path>/rings}'s data, which every instance watches. */
    private CuratorOp touch(String what) throws Exception {
        return client.transactionOp().setData().forPath(ringsPath, what.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void forget(String name) {
        if (RingNames.DEFAULT.equals(name)) {
            return;
        }
        ZooKeeperRingStore store = stores.remove(name);
        if (store != null) {
            store.close(); // the shared client stays open
        }
    }

    @Override
    public void followNames(Consumer<Set<String>> onChange) {
        this.onNames = onChange;
        namesCache = CuratorCache.build(client, ringsPath, CuratorCache.Options.SINGLE_NODE_CACHE);
        namesCache.listenable().addListener(CuratorCacheListener.builder()
                .forAll((type, before, after) -> refreshNames()).build());
        client.getConnectionStateListenable().addListener(reconnected);
        namesCache.start();
        if (client.getZookeeperClient().isConnected()) {
            refreshNames();
        }
    }

    @Override
    public void followReplaced(Consumer<String> onReplaced) {
        this.onReplaced = onReplaced;
    }

    /** Lists the names afresh and hands them on (once for any number of changes meanwhile). */
    private void refreshNames() {
        if (onNames == null || !namesPending.compareAndSet(false, true)) {
            return;
        }
        run(() -> {
            namesPending.set(false);
            Consumer<Set<String>> c = onNames;
            try {
                Set<String> names = listed();
                if (names != null) {
                    c.accept(names);
                }
            } catch (RuntimeException e) {
                log.warn("Could not list the rings at {}: {}", ringsPath, e.getMessage());
            }
        });
    }

    private void run(Runnable r) {
        try {
            events.execute(() -> {
                try {
                    r.run();
                } catch (RuntimeException e) {
                    log.warn("Following the rings at {} failed: {}", ringsPath, e.getMessage(), e);
                }
            });
        } catch (RejectedExecutionException e) {
            // closing
        }
    }

    private String ringPath(String name) {
        return ringsPath + "/" + name;
    }

    private void awaitConnection() {
        try {
            if (!client.blockUntilConnected((int) props.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                throw new StoreUnavailableException("cannot reach ZooKeeper at " + props.connect() + " within "
                        + props.connectTimeout().toMillis() + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("interrupted while connecting to ZooKeeper at " + props.connect(), e);
        }
    }

    @Override
    public boolean shared() {
        return true;
    }

    /** This process's id on the boards of every ring: random, as a restarted instance is another one. */
    private final String boardInstance = String.format("%016x", new java.security.SecureRandom().nextLong());

    @Override
    public SharedBoard board(String name, String topic) {
        String base = RingNames.DEFAULT.equals(name) ? ZooKeeperRingStore.base(props) : ringPath(name);
        ZooKeeperBoard board = new ZooKeeperBoard(client, base + "/" + topic, boardInstance, boards::remove);
        boards.add(board);
        return board;
    }

    @Override
    public PlanStore plans(String name) {
        String base = RingNames.DEFAULT.equals(name) ? ZooKeeperRingStore.base(props) : ringPath(name);
        return new ZooKeeperPlanStore(client, base, ZooKeeperRingStore.base(props) + "/plan-drivers/" + name,
                boardInstance);
    }

    /** The boards open, closed before the session. */
    private final Set<ZooKeeperBoard> boards = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Override
    public String describe() {
        return "zookeeper " + props.connect() + ZooKeeperRingStore.base(props);
    }

    @Override
    public void close() {
        events.shutdownNow();
        if (namesCache != null) {
            namesCache.close();
        }
        client.getConnectionStateListenable().removeListener(reconnected);
        List.copyOf(boards).forEach(ZooKeeperBoard::close);
        stores.values().forEach(ZooKeeperRingStore::close);
        stores.clear();
        defaultStore.close();
        client.close(); // the session ends, and every marker of this instance with it
    }
}
