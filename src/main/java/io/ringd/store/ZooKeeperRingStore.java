package io.ringd.store;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.state.PersistedState;
import io.ringd.state.RingStore;
import io.ringd.state.StoreConflictException;
import io.ringd.state.StoreUnavailableException;

/**
 * Keeps the ring in ZooKeeper, shared by every ringd instance that names the
 * same ensemble and path ({@code ringd.store=zookeeper}), through Apache
 * Curator.
 */
public final class ZooKeeperRingStore implements RingStore, AutoCloseable {

    /*
     * Design note. The whole state (settings, members, version and the kept
     * history, in StateCodec's JSON, gzipped) is one znode, <path>/state, so a
     * version and its history entry appear together or not at all. A write is
     * setData with the znode version read with the ring version it replaces: a
     * compare-and-set; another writer's version in between makes it fail with
     * BadVersion, and the writer gets the stored state back to catch up with
     * and try again (RingService). Writers take turns first through a
     * Curator InterProcessMutex (<path>/write-lock), so that one that just
     * won cannot starve the others; the compare-and-set remains the
     * guarantee. Every version is one setData, so the znode version and the
     * ring version move together.
     *
     * Followers watch the znode with a CuratorCache; an event may stand for
     * several versions (ZooKeeper watches coalesce), which the history in the
     * state covers. While the connection is suspended or lost, writes are
     * refused at once (503); on reconnection the store reads the state and
     * hands it to the follower before it accepts writes again.
     *
     * ZooKeeper refuses znodes over jute.maxbuffer (1 MiB by default): gzip
     * keeps the state of a 10,000-node ring with its history well under it.
     */

    private static final Logger log = LoggerFactory.getLogger(ZooKeeperRingStore.class);

    private final String connect;
    private final String statePath;
    private final Duration connectTimeout;
    private final CuratorFramework client;
    private final StateCodec codec = new StateCodec();
    private final ExecutorService catchUp = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "ringd-zookeeper-catch-up");
        t.setDaemon(true);
        return t;
    });
    /** The ring version and znode version last read or written; guarded by this. */
    private long knownVersion = -1;
    private int knownZnodeVersion = -1;
    private volatile boolean connected;
    private volatile boolean caughtUp;
    private volatile Consumer<PersistedState> follower;
    private CuratorCache cache;
    private final InterProcessMutex writeLock;
    private final String lockPath;
    private final Duration lockWait;
    /**
     * The lock holder that kept a write waiting past the lock wait: while it
     * still holds the lock, writes go ahead without waiting for their turn.
     */
    private volatile String stalledBy;

    public ZooKeeperRingStore(ZooKeeperProperties props) {
        if (props.connect() == null || props.connect().isBlank()) {
            throw new IllegalArgumentException("ringd.store=zookeeper needs ringd.zookeeper.connect "
                    + "(host:port,host:port,...)");
        }
        this.connect = props.connect();
        this.statePath = (props.path().equals("/") ? "" : props.path()) + "/state";
        this.connectTimeout = props.connectTimeout();
        this.client = CuratorFrameworkFactory.builder().connectString(connect)
                .sessionTimeoutMs((int) props.sessionTimeout().toMillis())
                .connectionTimeoutMs((int) props.connectTimeout().toMillis())
                .retryPolicy(new ExponentialBackoffRetry(100, 4, 1000))
                .build();
        client.getConnectionStateListenable().addListener((c, state) -> changed(state));
        client.start();
        this.lockPath = (props.path().equals("/") ? "" : props.path()) + "/write-lock";
        this.lockWait = props.lockWait();
        this.writeLock = new InterProcessMutex(client, lockPath);
    }

    /**
     * Writers through different instances take turns with Curator's
     * {@link InterProcessMutex} (a fair queue of sequential znodes): without
     * it, a writer that just won keeps winning and the others starve in
     * compare-and-set retries. The turn is only for fairness, so a write waits
     * for it at most {@code ringd.zookeeper.lock-wait} and then goes ahead
     * without it, guarded by the compare-and-set alone: a holder that died
     * with the lock (its znode stays until its session expires) holds the
     * others up once, for that long, and no more (see {@link #stalledBy}).
     */
    @Override
    public <T> T exclusively(Supplier<T> write) {
        if (!connected) {
            throw notConnected();
        }
        boolean held = false;
        String stalled = stalledBy;
        if (stalled == null || !stalled.equals(lockHolder())) {
            stalledBy = null;
            try {
                held = writeLock.acquire(lockWait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                throw new StoreUnavailableException("cannot take the write lock at " + lockPath + ": "
                        + e.getMessage(), "ZooKeeper failed while this instance asked for its turn to write "
                        + "(the write lock): the change was not applied", e);
            }
            if (!held) {
                String holder = lockHolder();
                stalledBy = holder;
                log.warn("The write lock at {} was not free within {} ms (held by {}: a writer that is slow, or "
                        + "that died holding it until its session expires): writing without the turn, guarded by "
                        + "the compare-and-set, until that holder lets go", lockPath, lockWait.toMillis(), holder);
            }
        }
        try {
            return write.get();
        } finally {
            if (held) {
                try {
                    writeLock.release();
                } catch (Exception e) {
                    log.warn("Could not release the write lock at {}: {}", lockPath, e.getMessage());
                }
            }
        }
    }

    /** The znode of the write lock's holder now (the first in its queue), or null when there is none. */
    private String lockHolder() {
        try {
            return writeLock.getParticipantNodes().stream().findFirst().orElse(null);
        } catch (Exception e) {
            return null;
        }
    }

    @Override
    public Optional<PersistedState> load() {
        awaitConnection();
        return read();
    }

    @Override
    public void save(PersistedState state) {
        save(state, state.version() - 1);
    }

    @Override
    public synchronized void save(PersistedState state, long expectedVersion) {
        if (!connected) {
            throw notConnected();
        }
        if (knownVersion != expectedVersion) {
            PersistedState stored = read().orElseThrow(() -> new StoreUnavailableException(
                    "the ring is gone from " + describe()));
            if (stored.version() != expectedVersion) {
                throw new StoreConflictException(stored);
            }
        }
        try {
            Stat stat = client.setData().withVersion(knownZnodeVersion).forPath(statePath, encode(state));
            remember(state.version(), stat.getVersion());
        } catch (KeeperException.BadVersionException e) {
            throw new StoreConflictException(read().orElseThrow());
        } catch (KeeperException.NoNodeException e) {
            throw new StoreUnavailableException("the ring is gone from " + describe(), e);
        } catch (KeeperException.ConnectionLossException | KeeperException.SessionExpiredException e) {
            throw new StoreUnavailableException("ZooKeeper (" + connect + ") lost the connection while storing "
                    + "version " + state.version() + ": it may have been stored", e, true);
        } catch (Exception e) {
            throw new StoreUnavailableException("ZooKeeper (" + connect + ") did not store version "
                    + state.version() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized PersistedState create(PersistedState initial) {
        awaitConnection();
        try {
            client.create().creatingParentsIfNeeded().forPath(statePath, encode(initial));
            remember(initial.version(), 0);
            log.info("Stored a new ring (version {}) at {}", initial.version(), describe());
            return initial;
        } catch (KeeperException.NodeExistsException e) {
            return read().orElseThrow(() -> new StoreUnavailableException("the ring at " + describe()
                    + " vanished while it was being created"));
        } catch (Exception e) {
            throw new StoreUnavailableException("ZooKeeper (" + connect + ") did not store the new ring: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void follow(Consumer<PersistedState> onChange) {
        this.follower = onChange;
        cache = CuratorCache.build(client, statePath, CuratorCache.Options.SINGLE_NODE_CACHE);
        cache.listenable().addListener(CuratorCacheListener.builder()
                .forCreatesAndChanges((before, node) -> deliver(node)).build());
        cache.start();
        if (connected) {
            catchUp.execute(this::catchUp);
        }
    }

    @Override
    public boolean writable() {
        return connected && caughtUp;
    }

    @Override
    public boolean shared() {
        return true;
    }

    /** Whether the connection to the ensemble is up now. */
    public boolean connected() {
        return connected;
    }

    @Override
    public String describe() {
        return "zookeeper " + connect + statePath;
    }

    private void changed(ConnectionState state) {
        log.info("ZooKeeper connection {}", state);
        connected = state.isConnected();
        if (!connected) {
            caughtUp = false;
        } else if (state == ConnectionState.CONNECTED || state == ConnectionState.RECONNECTED) {
            catchUp.execute(this::catchUp); // read the ring before writes are accepted again
        }
    }

    private void catchUp() {
        Consumer<PersistedState> f = follower;
        if (f == null || !connected) {
            return;
        }
        try {
            read().ifPresent(f);
            caughtUp = connected;
        } catch (RuntimeException e) {
            log.warn("Could not catch up with {}: {}", describe(), e.getMessage());
        }
    }

    private void deliver(ChildData node) {
        Consumer<PersistedState> f = follower;
        if (f == null || node.getData() == null) {
            return;
        }
        try {
            PersistedState ps = decode(node.getData());
            synchronized (this) {
                if (ps.version() > knownVersion) {
                    remember(ps.version(), node.getStat().getVersion());
                }
            }
            // never on Curator's thread: RingService.follow waits for the local write lock, and a writer holding
            // it may be waiting for the write-lock znode's watch, which that same thread delivers
            catchUp.execute(() -> {
                try {
                    f.accept(ps);
                } catch (RuntimeException e) {
                    log.error("Could not apply the ring stored at {}: {}", describe(), e.getMessage(), e);
                }
            });
        } catch (RuntimeException e) {
            log.error("Could not apply the ring stored at {}: {}", describe(), e.getMessage(), e);
        }
    }

    private Optional<PersistedState> read() {
        try {
            Stat stat = new Stat();
            byte[] data = client.getData().storingStatIn(stat).forPath(statePath);
            PersistedState ps = decode(data);
            synchronized (this) {
                remember(ps.version(), stat.getVersion());
            }
            return Optional.of(ps);
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("the ring stored at " + describe() + " cannot be read: "
                    + e.getMessage(), e);
        } catch (Exception e) {
            throw new StoreUnavailableException("cannot read the ring from " + describe() + ": " + e.getMessage(), e);
        }
    }

    private StoreUnavailableException notConnected() {
        return new StoreUnavailableException("ZooKeeper (" + connect + ") is not connected",
                "this instance is not connected to ZooKeeper now: the change was not applied", null);
    }

    private void remember(long version, int znodeVersion) {
        knownVersion = version;
        knownZnodeVersion = znodeVersion;
    }

    private void awaitConnection() {
        try {
            if (!client.blockUntilConnected((int) connectTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new StoreUnavailableException("cannot reach ZooKeeper at " + connect + " within "
                        + connectTimeout.toMillis() + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("interrupted while connecting to ZooKeeper at " + connect, e);
        }
    }

    byte[] encode(PersistedState state) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(codec.encode(state));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    PersistedState decode(byte[] data) {
        try (GZIPInputStream gz = new GZIPInputStream(new ByteArrayInputStream(data))) {
            return codec.decode(gz.readAllBytes());
        } catch (IOException e) {
            throw new IllegalArgumentException("not a gzipped ring state: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        catchUp.shutdownNow();
        if (cache != null) {
            cache.close();
        }
        client.close();
    }
}
