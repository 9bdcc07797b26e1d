package io.ringd.store;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.state.PersistedState;
import io.ringd.state.RingStore;
import io.ringd.state.StateTooLargeException;
import io.ringd.state.StoreConflictException;
import io.ringd.state.StoreLostException;
import io.ringd.state.StoreUnavailableException;

/**
 * Keeps the ring in ZooKeeper, shared by every ringd instance that names the
 * same ensemble and path ({@code ringd.store=zookeeper}), through Apache
 * Curator.
 */
public final class ZooKeeperRingStore implements RingStore, AutoCloseable {

    /*
     * Design note. The whole state (settings, members, version, incarnation
     * and the kept history, in StateCodec's JSON, gzipped) is one znode,
     * <path>/state (or, when large, a manifest of chunks: below), so a
     * version and its history entry appear together or not at all. A write
     * is setData with the znode version read with the ring version it
     * replaces: a compare-and-set; another writer's version in
     * between makes it fail with BadVersion, and the writer gets the stored
     * state back to catch up with and try again (RingService). Every version
     * is one setData, so the znode version and the ring version move
     * together.
     *
     * Writers take turns first (<path>/write-lock, ZooKeeperWriteTurn), for
     * fairness only: the compare-and-set is the guarantee.
     *
     * Followers watch the znode with a CuratorCache; an event may stand for
     * several versions (ZooKeeper watches coalesce), which the history in the
     * state covers. While the connection is suspended or lost, writes are
     * refused at once (503); on reconnection the store reads the state and
     * hands it to the follower before it accepts writes again
     * (ZooKeeperFollowing).
     *
     * A lost store. Once this instance serves a ring (serving()), the store
     * holds it to that incarnation: a fresh read (after a sync) that finds no
     * state, another incarnation, or an older version of this one than it has
     * seen stored makes the store "lost" until a re-seed (ZooKeeperServedRing).
     * Each serving instance keeps an ephemeral marker, <path>/instances/<id>
     * (put back after the path is deleted, after a new session, and every
     * second while the store is lost), so that an instance that starts on a
     * path without a ring does not make a new one while others serve one
     * (ZooKeeperSeeding).
     *
     * Named rings (docs/ring.md section 22). Every ring's store of one
     * process shares one client (one session); the ring default lives at
     * <path>, as before named rings, a named ring n at <path>/rings/<n>, made
     * (its node, state and instances at once) and deleted (its whole
     * subtree at once) in one multi-operation each by ZooKeeperRingStores,
     * so that no instance sees half a ring. A named ring deleted, or made
     * again, through another instance is not a lost store (ZooKeeperServedRing).
     *
     * ZooKeeper refuses requests over jute.maxbuffer (1 MiB by default): a
     * state larger than one chunk (512 KiB gzipped) is written as chunks
     * under <path>/chunks, and <path>/state then holds a manifest of them;
     * the compare-and-set of <path>/state stays the one commit point
     * (ZooKeeperStateNodes). A manifest's event is read on the catch-up
     * thread, never on Curator's: reading its chunks blocks.
     */

    private static final Logger log = LoggerFactory.getLogger(ZooKeeperRingStore.class);

    /** Told of a named ring deleted, or made again, through another instance. */
    interface Elsewhere {
        void deleted(String name);

        void replaced(String name);
    }

    private final String connect;
    private final String statePath;
    /** The name of a named ring; null for the ring default. */
    private final String name;
    private final boolean ownsClient;
    private final ConnectionStateListener connection = (c, state) -> changed(state);
    private final Duration connectTimeout;
    private final Duration newRingWait;
    private final CuratorFramework client;
    /** {@code <path>/state} and its chunks. */
    private final ZooKeeperStateNodes nodes;
    /** The ring version and znode version last read or written; guarded by this. */
    private long knownVersion = -1;
    private int knownZnodeVersion = -1;
    /** The chunks' id of the state at knownZnodeVersion, or null when it is not chunked; guarded by this. */
    private String knownChunks;
    private volatile boolean connected;
    private volatile boolean caughtUp;
    /** The ring served here, and whether the store still holds it; guarded by this. */
    private final ZooKeeperServedRing ring;
    /** The cache on the state and the catch-up thread. */
    private final ZooKeeperFollowing following;
    /** A new ring and a re-seed. */
    private final ZooKeeperSeeding seeding;
    private final ZooKeeperWriteTurn turn;
    /** This instance's marker, {@code <path>/instances/<id>}, holding the incarnation it serves. */
    private final ZooKeeperMarkers markers;

    /** The ring {@code default} at {@code ringd.zookeeper.path}, through a client of its own. */
    public ZooKeeperRingStore(ZooKeeperProperties props) {
        this(newClient(props), true, props, null, null);
    }

    /**
     * The ring {@code name} (null: {@code default}) through the shared {@code client}, started, which
     * closing this store leaves open.
     */
    ZooKeeperRingStore(CuratorFramework client, ZooKeeperProperties props, String name, Elsewhere elsewhere) {
        this(client, false, props, name, elsewhere);
    }

    private ZooKeeperRingStore(CuratorFramework client, boolean ownsClient, ZooKeeperProperties props, String name,
            Elsewhere elsewhere) {
        String base = base(props);
        this.name = name;
        String ringsPath = base + "/rings";
        if (name != null) {
            base = ringsPath + "/" + name;
        }
        this.connect = props.connect();
        this.statePath = base + "/state";
        this.nodes = new ZooKeeperStateNodes(client, base, props.maxStateBytes().toBytes());
        this.markers = new ZooKeeperMarkers(client, base + "/instances", name == null);
        this.connectTimeout = props.connectTimeout();
        this.newRingWait = props.newRingWait();
        this.client = client;
        this.ownsClient = ownsClient;
        this.ring = new ZooKeeperServedRing(client, name, ringsPath, elsewhere, statePath, describe());
        this.following = new ZooKeeperFollowing(this, ring, client, statePath, nodes);
        this.seeding = new ZooKeeperSeeding(this, ring, nodes, markers, name, statePath, connect, connectTimeout);
        client.getConnectionStateListenable().addListener(connection);
        if (ownsClient) {
            client.start();
        } else {
            connected = client.getZookeeperClient().isConnected();
        }
        this.turn = new ZooKeeperWriteTurn(client, base + "/write-lock", props.lockWait());
    }

    /** {@code ringd.zookeeper.path}, or "" for the root. */
    static String base(ZooKeeperProperties props) {
        return props.path().equals("/") ? "" : props.path();
    }

    /** A client for {@code props}, not started. */
    static CuratorFramework newClient(ZooKeeperProperties props) {
        if (props.connect() == null || props.connect().isBlank()) {
            throw new IllegalArgumentException("ringd.store=zookeeper needs ringd.zookeeper.connect "
                    + "(host:port,host:port,...)");
        }
        return CuratorFrameworkFactory.builder().connectString(props.connect())
                .sessionTimeoutMs((int) props.sessionTimeout().toMillis())
                .connectionTimeoutMs((int) props.connectTimeout().toMillis())
                .retryPolicy(new ExponentialBackoffRetry(100, 4, 1000))
                .build();
    }

    /** Writers through different instances take turns ({@link ZooKeeperWriteTurn}). */
    @Override
    public <T> T exclusively(Supplier<T> write) {
        ring.refuseIfElsewhere();
        String cause = ring.lost();
        if (cause != null) {
            throw new StoreLostException(cause);
        }
        if (!connected) {
            throw notConnected();
        }
        return turn.take(write);
    }

    /** The stored state; once this instance serves a ring, judged against it ({@link #check()}). */
    @Override
    public Optional<PersistedState> load() {
        awaitConnection();
        return ring.served() == null ? read() : check();
    }

    @Override
    public void save(PersistedState state) {
        save(state, state.version() - 1);
    }

    @Override
    public synchronized void save(PersistedState state, long expectedVersion) {
        ring.refuseIfElsewhere();
        if (ring.lost() != null) {
            throw new StoreLostException(ring.lost());
        }
        if (!connected) {
            throw notConnected();
        }
        if (knownVersion != expectedVersion) {
            PersistedState stored = checked();
            if (stored.version() != expectedVersion) {
                throw new StoreConflictException(stored);
            }
        }
        try {
            ZooKeeperStateNodes.Written w = nodes.replace(encode(state), knownZnodeVersion, knownChunks);
            remember(state.version(), w.stat().getVersion(), w.chunksId());
            ring.seen(state);
        } catch (KeeperException.BadVersionException e) {
            throw new StoreConflictException(checked());
        } catch (KeeperException.NoNodeException e) {
            checked();
            throw new StoreLostException(ring.gone());
        } catch (StateTooLargeException | StoreUnavailableException e) {
            throw e; // refused, or cut short among the chunks: not stored
        } catch (KeeperException.ConnectionLossException | KeeperException.SessionExpiredException e) {
            throw new StoreUnavailableException("ZooKeeper (" + connect + ") lost the connection while storing "
                    + "version " + state.version() + ": it may have been stored", e, true);
        } catch (Exception e) {
            throw new StoreUnavailableException("ZooKeeper (" + connect + ") did not store version "
                    + state.version() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Stores a new ring, unless the path holds one. When it holds none, but
     * instances serve one from it (their markers), the new ring is refused;
     * when there are neither, the new ring is made only after
     * {@code ringd.zookeeper.new-ring-wait}, so that instances that still
     * hold a ring after a wipe have time to come back.
     *
     * @throws StoreLostException if instances serve a ring the path no longer holds
     */
    @Override
    public synchronized PersistedState create(PersistedState initial) {
        return create(initial, newRingWait);
    }

    /** As {@link #create(PersistedState)}, waiting {@code wait} for instances that may still hold a ring. */
    synchronized PersistedState create(PersistedState initial, Duration wait) {
        return seeding.create(initial, wait);
    }

    @Override
    public synchronized void serving(String incarnation, long version) {
        if (incarnation == null) {
            return;
        }
        if (ring.serving(incarnation, version)) {
            ensureMarker();
        }
        ring.servingAt(version);
    }

    /**
     * Puts this instance's marker back when it is missing (the path deleted,
     * a new session after the old one expired or the ensemble was wiped).
     */
    void ensureMarker() {
        String mine = ring.served();
        if (mine == null || !connected || ring.deleted() || ring.replaced()) {
            return;
        }
        markers.ensure(mine);
    }

    @Override
    public String lostBecause() {
        return ring.lost();
    }

    @Override
    public synchronized void reseed(PersistedState state, String replacing) {
        if (!connected) {
            throw notConnected();
        }
        seeding.reseed(state, replacing);
        ring.reseeded(state);
        caughtUp = connected;
    }

    @Override
    public void follow(Consumer<PersistedState> onChange) {
        following.follow(onChange);
    }

    @Override
    public boolean writable() {
        return connected && caughtUp && ring.following();
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
            following.catchUpLater(); // read the ring before writes are accepted again
        }
    }

    /** Caught up with the stored state: writes are accepted while connected. */
    void caughtUp() {
        caughtUp = connected;
    }

    /** A state the cache heard of, of the ring served here. */
    synchronized void heard(PersistedState ps, Stat stat) {
        if (ps.version() > knownVersion) {
            remember(ps.version(), stat.getVersion(), null);
            ring.read(stat.getCzxid(), ps.incarnation());
        }
        ring.seen(ps);
    }

    /**
     * Reads the state after a sync (so not from a server that lags behind)
     * and judges it against the ring served here ({@link ZooKeeperServedRing#judge}).
     */
    synchronized Optional<PersistedState> check() {
        Optional<PersistedState> stored = read();
        String mine = ring.served();
        if (mine == null) {
            return stored;
        }
        if (ring.looksLost(stored, mine) || ring.deleted()) {
            stored = freshRead();
            if (name != null && ring.elsewhere(stored, mine)) {
                return stored;
            }
        }
        if (ring.judge(stored, mine) != null) {
            ensureMarker();
        }
        return stored;
    }

    /** The stored state, judged ({@link #check()}); none, or a lost store, is refused. */
    private PersistedState checked() {
        Optional<PersistedState> stored = check();
        ring.refuseIfElsewhere();
        String cause = ring.lost();
        if (cause != null) {
            throw new StoreLostException(cause);
        }
        return stored.orElseThrow(() -> new StoreLostException(ring.gone()));
    }

    /** A read after a sync: what the ensemble's leader has, not a lagging server. */
    Optional<PersistedState> freshRead() {
        nodes.sync(connectTimeout);
        return read();
    }

    Optional<PersistedState> read() {
        try {
            ZooKeeperStateNodes.Read r = nodes.read();
            if (r == null) {
                return Optional.empty();
            }
            PersistedState ps = decode(r.encoded());
            synchronized (this) {
                remember(ps.version(), r.stat().getVersion(), r.chunksId());
                ring.read(r.stat().getCzxid(), ps.incarnation());
            }
            return Optional.of(ps);
        } catch (StoreUnavailableException e) {
            throw e;
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

    /** The ring version, znode version and chunks last read or written. Under this. */
    void remember(long version, int znodeVersion, String chunks) {
        knownVersion = version;
        knownZnodeVersion = znodeVersion;
        knownChunks = chunks;
    }

    void awaitConnection() {
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
        return nodes.encode(state);
    }

    PersistedState decode(byte[] data) {
        return nodes.decode(data);
    }

    @Override
    public void close() {
        following.close();
        client.getConnectionStateListenable().removeListener(connection);
        if (ownsClient) {
            client.close(); // its session ends, and this instance's marker with it
        } else if (!ring.deleted() && !ring.replaced()) {
            markers.remove(); // the shared session goes on
        }
    }
}
