package io.ringd.store;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.state.PersistedState;
import io.ringd.state.RingNotFoundException;
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
     * Writers take turns first through a Curator InterProcessMutex
     * (<path>/write-lock), so that one that just won cannot starve the
     * others; the turn is for fairness only, the compare-and-set is the
     * guarantee. A write waits for its turn at most lock-wait and then goes
     * ahead without it; while the holder that kept it waiting stays first in
     * the queue (an instance that died with the lock keeps its znode until
     * its session expires), later writes do not wait at all.
     *
     * Followers watch the znode with a CuratorCache; an event may stand for
     * several versions (ZooKeeper watches coalesce), which the history in the
     * state covers. While the connection is suspended or lost, writes are
     * refused at once (503); on reconnection the store reads the state and
     * hands it to the follower before it accepts writes again.
     *
     * A lost store. Once this instance serves a ring (serving()), the store
     * holds it to that incarnation: a fresh read (after a sync) that finds no
     * state (the znode deleted, the ensemble's data wiped), another
     * incarnation, or an older version of this one than it has seen stored
     * (versions lost) makes the store "lost": writes are refused with the
     * cause, the follower is never handed the other state, and only a state
     * of this incarnation at a version at least the highest seen (a re-seed:
     * reseed(), from this instance or another that holds the ring) ends it.
     * Each serving instance keeps an ephemeral marker, <path>/instances/<id>
     * holding its incarnation (put back after the path is deleted and after
     * a new session, and every second while the store is lost: a recursive
     * delete can take it again just after), so that an instance that
     * starts on a path without a ring sees that others still serve one and
     * does not make a new one; when it sees neither a ring nor a marker, it
     * waits new-ring-wait (the session timeout: after a wipe, running
     * instances need that long to get a new session and put their markers
     * back) before it makes one.
     *
     * Named rings (docs/ring.md section 22). Every ring's store of one
     * process shares one client (one session); the ring default lives at
     * <path>, as before named rings, a named ring n at <path>/rings/<n>, made
     * (its node, state and instances at once) and deleted (its whole
     * subtree at once) in one multi-operation each by ZooKeeperRingStores,
     * so that no instance sees half a ring. A named ring's store tells a ring
     * deleted through another instance (its state gone while <path>/rings is
     * there) and a ring made again under its name (a state whose znode was
     * created after the one served here: another czxid) from a lost store:
     * neither is lost; the first is dropped, the second served afresh
     * (ZooKeeperRingStores.Elsewhere). Only a wipe (<path>/rings gone too)
     * or another state written over the ring's is a lost store.
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
    /** {@code <path>/rings}, for a named ring. */
    private final String ringsPath;
    private final Elsewhere elsewhere;
    private final boolean ownsClient;
    private final ConnectionStateListener connection = (c, state) -> changed(state);
    private final Duration connectTimeout;
    private final Duration newRingWait;
    private final CuratorFramework client;
    /** {@code <path>/state} and its chunks. */
    private final ZooKeeperStateNodes nodes;
    /** Whether a read of a chunked state is queued for the catch-up thread (one at a time). */
    private final AtomicBoolean chunkedPending = new AtomicBoolean();
    /** One thread, there only while there is work: a hundred idle rings hold no threads. */
    private final ScheduledThreadPoolExecutor catchUp = new ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, "ringd-zookeeper-catch-up");
        t.setDaemon(true);
        return t;
    });
    /** The ring version and znode version last read or written; guarded by this. */
    private long knownVersion = -1;
    private int knownZnodeVersion = -1;
    /** The chunks' id of the state at knownZnodeVersion, or null when it is not chunked; guarded by this. */
    private String knownChunks;
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
    /** The incarnation this instance serves, and the highest version of it seen stored; guarded by this. */
    private volatile String served;
    private long highestSeen = -1;
    /** Why the store no longer holds the ring served here, or null. */
    private volatile String lost;
    /** The czxid of the state znode served here, and of the one last read: another is a ring made again. */
    private long servedCzxid;
    private long readCzxid;
    private String readIncarnation;
    /** A named ring deleted, or made again, through another instance: never a lost store. */
    private volatile boolean deleted;
    private volatile boolean replaced;
    /** This instance's marker, {@code <path>/instances/<id>}, holding the incarnation it serves. */
    private final ZooKeeperMarkers markers;
    /** Whether a re-check of a lost store is scheduled (one at a time). */
    private final AtomicBoolean rechecking = new AtomicBoolean();

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
        this.ringsPath = base + "/rings";
        if (name != null) {
            base = ringsPath + "/" + name;
        }
        this.elsewhere = elsewhere;
        this.connect = props.connect();
        this.statePath = base + "/state";
        this.nodes = new ZooKeeperStateNodes(client, base, props.maxStateBytes().toBytes());
        this.lockPath = base + "/write-lock";
        this.markers = new ZooKeeperMarkers(client, base + "/instances", name == null);
        this.connectTimeout = props.connectTimeout();
        this.lockWait = props.lockWait();
        this.newRingWait = props.newRingWait();
        this.client = client;
        this.ownsClient = ownsClient;
        catchUp.setKeepAliveTime(30, TimeUnit.SECONDS);
        catchUp.allowCoreThreadTimeOut(true);
        client.getConnectionStateListenable().addListener(connection);
        if (ownsClient) {
            client.start();
        } else {
            connected = client.getZookeeperClient().isConnected();
        }
        this.writeLock = new InterProcessMutex(client, lockPath);
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
        refuseIfElsewhere();
        String cause = lost;
        if (cause != null) {
            throw new StoreLostException(cause);
        }
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

    /** The stored state; once this instance serves a ring, judged against it ({@link #check()}). */
    @Override
    public Optional<PersistedState> load() {
        awaitConnection();
        return served == null ? read() : check();
    }

    @Override
    public void save(PersistedState state) {
        save(state, state.version() - 1);
    }

    @Override
    public synchronized void save(PersistedState state, long expectedVersion) {
        refuseIfElsewhere();
        if (lost != null) {
            throw new StoreLostException(lost);
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
            seen(state);
        } catch (KeeperException.BadVersionException e) {
            throw new StoreConflictException(checked());
        } catch (KeeperException.NoNodeException e) {
            checked();
            throw new StoreLostException(gone());
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
        awaitConnection();
        if (name != null) {
            // a named ring is made by ZooKeeperRingStores.create only: none stored means it was deleted
            return read().orElseThrow(() -> new RingNotFoundException(name, "the ring " + name
                    + " was deleted through another instance"));
        }
        long end = System.nanoTime() + wait.toNanos();
        for (boolean first = true; ; first = false) {
            Map<String, String> markers = this.markers.all();
            if (!markers.isEmpty()) {
                Optional<PersistedState> stored = freshRead();
                if (stored.isPresent()) {
                    return stored.get(); // a fleet starting together: another instance made it just now
                }
                throw new StoreLostException(statePath + " holds no ring, but " + markers.size()
                        + " running instance(s) serve one from it (incarnation "
                        + String.join(", ", new java.util.TreeSet<>(markers.values())) + "): this instance does not "
                        + "make a new, empty ring beside theirs");
            }
            Optional<PersistedState> stored = read();
            if (stored.isPresent()) {
                return stored.get();
            }
            if (System.nanoTime() >= end) {
                break;
            }
            if (first) {
                log.info("No ring at {} and no instance serving one: waiting {} ms (ringd.zookeeper.new-ring-wait) "
                        + "for instances that may still hold one (after a wipe of the ensemble) before making a new "
                        + "ring", describe(), wait.toMillis());
            }
            try {
                Thread.sleep(Math.min(250, Math.max(1, wait.toMillis())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreUnavailableException("interrupted while waiting to make a new ring at " + describe(), e);
            }
        }
        try {
            remember(initial.version(), 0, nodes.create(encode(initial)).chunksId());
            log.info("Stored a new ring (version {}, incarnation {}) at {}", initial.version(),
                    initial.incarnation(), describe());
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
    public synchronized void serving(String incarnation, long version) {
        if (incarnation == null) {
            return;
        }
        if (!incarnation.equals(served)) {
            served = incarnation;
            highestSeen = version;
            servedCzxid = incarnation.equals(readIncarnation) ? readCzxid : 0;
            lost = null;
            ensureMarker();
        }
        highestSeen = Math.max(highestSeen, version);
    }

    /**
     * Puts this instance's marker back when it is missing (the path deleted,
     * a new session after the old one expired or the ensemble was wiped).
     */
    private void ensureMarker() {
        String mine = served;
        if (mine == null || !connected || deleted || replaced) {
            return;
        }
        markers.ensure(mine);
    }

    @Override
    public String lostBecause() {
        return lost;
    }

    @Override
    public synchronized void reseed(PersistedState state, String replacing) {
        if (!connected) {
            throw notConnected();
        }
        byte[] encoded = encode(state);
        nodes.refuseIfTooLarge(encoded); // before anything is read or written
        try {
            nodes.sync(connectTimeout);
            ZooKeeperStateNodes.Read r = nodes.read();
            Optional<PersistedState> stored = r == null ? Optional.empty() : Optional.of(decode(r.encoded()));
            if (stored.isEmpty()) {
                ZooKeeperStateNodes.Written made = nodes.create(encoded);
                remember(state.version(), 0, made.chunksId());
                servedCzxid = made.stat().getCzxid(); // a state made again by the re-seed, not another ring
            } else if (replacing != null && replacing.equals(stored.get().incarnation())) {
                ZooKeeperStateNodes.Written w = nodes.replace(encoded, r.stat().getVersion(), r.chunksId());
                remember(state.version(), w.stat().getVersion(), w.chunksId());
            } else {
                throw new StoreConflictException(stored.get());
            }
        } catch (KeeperException.NodeExistsException | KeeperException.BadVersionException e) {
            throw new StoreConflictException(read().orElseThrow(() -> new StoreUnavailableException(
                    "the ring at " + describe() + " changed while it was being re-seeded")));
        } catch (StoreConflictException | StoreUnavailableException | StateTooLargeException e) {
            throw e;
        } catch (Exception e) {
            throw new StoreUnavailableException("ZooKeeper (" + connect + ") did not store the re-seeded ring: "
                    + e.getMessage(), e);
        }
        served = state.incarnation();
        highestSeen = state.version();
        if (lost != null) {
            log.warn("{} holds this instance's ring again (re-seeded at version {}): writes are accepted again",
                    describe(), state.version());
        }
        lost = null;
        caughtUp = connected;
    }

    @Override
    public void follow(Consumer<PersistedState> onChange) {
        this.follower = onChange;
        cache = CuratorCache.build(client, statePath, CuratorCache.Options.SINGLE_NODE_CACHE);
        cache.listenable().addListener(CuratorCacheListener.builder()
                .forCreatesAndChanges((before, node) -> deliver(node))
                .forDeletes(node -> later(this::recheck)).build());
        cache.start();
        if (connected) {
            later(this::catchUp);
        }
    }

    @Override
    public boolean writable() {
        return connected && caughtUp && lost == null && !deleted && !replaced;
    }

    /** Whether the stored state is handed to the follower: this ring's, neither lost nor gone. */
    private boolean following() {
        return lost == null && !deleted && !replaced;
    }

    /** Refuses a write to a named ring deleted, or made again, through another instance. */
    private void refuseIfElsewhere() {
        if (deleted) {
            throw new RingNotFoundException(name, "the ring " + name + " was deleted through another instance");
        }
        if (replaced) {
            throw new StoreUnavailableException("the ring " + name + " at " + describe() + " was made again",
                    "the ring " + name + " was deleted and made again through another instance: this instance "
                    + "is loading it afresh; the change was not applied", null);
        }
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
            later(this::catchUp); // read the ring before writes are accepted again
        }
    }

    private void catchUp() {
        Consumer<PersistedState> f = follower;
        if (f == null || !connected) {
            return;
        }
        try {
            ensureMarker(); // a new session has none
            Optional<PersistedState> stored = check();
            if (following()) {
                stored.ifPresent(f);
                nodes.sweep(); // chunks a write cut short left behind
            }
            caughtUp = connected;
        } catch (RuntimeException e) {
            if (!catchUp.isShutdown()) { // not a store closed meanwhile
                log.warn("Could not catch up with {}: {}", describe(), e.getMessage());
            }
        }
        recheckWhileLost();
    }

    /** After a delete, or an event while lost: reads the state afresh and hands it on when it is this ring. */
    private void recheck() {
        Consumer<PersistedState> f = follower;
        if (f == null || !connected) {
            return;
        }
        try {
            Optional<PersistedState> stored = check();
            if (following()) {
                stored.ifPresent(f);
            }
        } catch (RuntimeException e) {
            if (!catchUp.isShutdown()) { // not a store closed meanwhile
                log.warn("Could not read {}: {}", describe(), e.getMessage());
            }
        }
        recheckWhileLost();
    }

    /**
     * While the store is lost, looks again every second (one chain of
     * re-checks at a time): the marker is put back if a recursive delete took
     * it after it was put back, and a re-seed is found even if its event was
     * missed.
     */
    private void recheckWhileLost() {
        if (lost != null && !catchUp.isShutdown() && rechecking.compareAndSet(false, true)) {
            try {
                catchUp.schedule(() -> {
                    rechecking.set(false);
                    recheck();
                }, 1, TimeUnit.SECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                rechecking.set(false); // closing
            }
        }
    }

    private void deliver(ChildData node) {
        Consumer<PersistedState> f = follower;
        if (f == null || node.getData() == null) {
            return;
        }
        if (ZooKeeperStateNodes.isManifest(node.getData())) {
            readChunked(); // reading the chunks blocks: never on Curator's thread
            return;
        }
        try {
            PersistedState ps = decode(node.getData());
            String mine = served;
            if (replaced) {
                return; // being served afresh
            }
            if (lost != null || deleted || mine != null && !mine.equals(ps.incarnation())) {
                later(this::recheck); // never handed on as it is: read afresh and judged
                return;
            }
            synchronized (this) {
                if (ps.version() > knownVersion) {
                    remember(ps.version(), node.getStat().getVersion(), null);
                    readCzxid = node.getStat().getCzxid();
                    readIncarnation = ps.incarnation();
                }
                seen(ps);
            }
            // never on Curator's thread: RingService.follow waits for the local write lock, and a writer holding
            // it may be waiting for the write-lock znode's watch, which that same thread delivers
            later(() -> {
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

    /**
     * Runs {@code task} on the catch-up thread; {@code false} when the store is closing (its thread
     * shut down), when ZooKeeper's events still arriving are dropped, not failed on.
     */
    private boolean later(Runnable task) {
        try {
            catchUp.execute(task);
            return true;
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return false;
        }
    }

    /** A chunked state changed: read (and judged) on the catch-up thread, once for any number of events. */
    private void readChunked() {
        if (chunkedPending.compareAndSet(false, true)) {
            if (!later(() -> {
                chunkedPending.set(false);
                recheck();
            })) {
                chunkedPending.set(false);
            }
        }
    }

    /**
     * Reads the state after a sync (so not from a server that lags behind)
     * and judges it against the ring served here: the store is lost when it
     * holds none, another incarnation, or an older version of this one than
     * was seen stored; it is found again when it holds this incarnation at a
     * version at least that high.
     */
    private synchronized Optional<PersistedState> check() {
        Optional<PersistedState> stored = read();
        String mine = served;
        if (mine == null) {
            return stored;
        }
        if (looksLost(stored, mine) || deleted) {
            stored = freshRead();
            if (name != null && elsewhere(stored, mine)) {
                return stored;
            }
        }
        String cause = null;
        if (stored.isEmpty()) {
            cause = gone();
        } else if (!mine.equals(stored.get().incarnation())) {
            cause = describe() + " holds another ring (incarnation " + stored.get().incarnation() + ", version "
                    + stored.get().version() + ") than the one this instance serves (incarnation " + mine + ")";
        } else if (stored.get().version() < highestSeen) {
            cause = describe() + " holds version " + stored.get().version() + " of this ring, older than version "
                    + highestSeen + " this instance saw stored: versions were lost from the store";
        }
        if (cause != null && !cause.equals(lost)) {
            log.error("The store lost this instance's ring: {}. Lookups go on from the ring held here (version {}); "
                    + "writes are refused until an operator re-seeds the store (POST /store/reseed)", cause,
                    highestSeen);
        } else if (cause == null && lost != null) {
            log.warn("{} holds this instance's ring again (version {}): writes are accepted again", describe(),
                    stored.get().version());
        }
        lost = cause;
        if (cause == null) {
            seen(stored.get());
        } else {
            ensureMarker();
        }
        return stored;
    }

    /**
     * For a named ring that does not look like the one served here: whether it was deleted (no state, but
     * {@code <path>/rings} is there: not a wipe) or made again (a state znode other than the one served,
     * holding another incarnation) through another instance, neither a lost store (docs/ring.md section
     * 22); the stores are told, once. Under this.
     */
    private boolean elsewhere(Optional<PersistedState> stored, String mine) {
        if (stored.isEmpty()) {
            if (!exists(ringsPath)) {
                return false; // a wipe: lost
            }
            if (!deleted) {
                deleted = true;
                lost = null;
                log.info("The ring {} was deleted through another instance", name);
                elsewhere.deleted(name);
            }
            return true;
        }
        if (readCzxid != servedCzxid && (deleted || !mine.equals(stored.get().incarnation()))) {
            if (!replaced) {
                replaced = true;
                lost = null;
                log.info("The ring {} was deleted and made again through another instance (incarnation {}): "
                        + "serving it afresh", name, stored.get().incarnation());
                elsewhere.replaced(name);
            }
            return true;
        }
        deleted = false;
        return false;
    }

    private boolean exists(String path) {
        try {
            return client.checkExists().forPath(path) != null;
        } catch (Exception e) {
            throw new StoreUnavailableException("cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    /** The stored state, judged ({@link #check()}); none, or a lost store, is refused. */
    private PersistedState checked() {
        Optional<PersistedState> stored = check();
        refuseIfElsewhere();
        String cause = lost;
        if (cause != null) {
            throw new StoreLostException(cause);
        }
        return stored.orElseThrow(() -> new StoreLostException(gone()));
    }

    private boolean looksLost(Optional<PersistedState> stored, String mine) {
        return stored.isEmpty() || !mine.equals(stored.get().incarnation()) || stored.get().version() < highestSeen;
    }

    private String gone() {
        return "ZooKeeper holds no ring at " + statePath + " (the znode was deleted, or the ensemble's data wiped); "
                + "this instance serves incarnation " + served;
    }

    /** A stored state of the incarnation served here: its version is now seen. Under this. */
    private void seen(PersistedState ps) {
        if (served != null && served.equals(ps.incarnation())) {
            highestSeen = Math.max(highestSeen, ps.version());
        }
    }

    /** A read after a sync: what the ensemble's leader has, not a lagging server. */
    private Optional<PersistedState> freshRead() {
        nodes.sync(connectTimeout);
        return read();
    }

    private Optional<PersistedState> read() {
        try {
            ZooKeeperStateNodes.Read r = nodes.read();
            if (r == null) {
                return Optional.empty();
            }
            PersistedState ps = decode(r.encoded());
            synchronized (this) {
                remember(ps.version(), r.stat().getVersion(), r.chunksId());
                readCzxid = r.stat().getCzxid();
                readIncarnation = ps.incarnation();
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

    private void remember(long version, int znodeVersion, String chunks) {
        knownVersion = version;
        knownZnodeVersion = znodeVersion;
        knownChunks = chunks;
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
        return nodes.encode(state);
    }

    PersistedState decode(byte[] data) {
        return nodes.decode(data);
    }

    @Override
    public void close() {
        catchUp.shutdownNow();
        if (cache != null) {
            cache.close();
        }
        client.getConnectionStateListenable().removeListener(connection);
        if (ownsClient) {
            client.close(); // its session ends, and this instance's marker with it
        } else if (!deleted && !replaced) {
            markers.remove(); // the shared session goes on
        }
    }
}
