package io.ringd.store;

import java.util.Optional;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.state.PersistedState;

/**
 * A {@link ZooKeeperRingStore}'s follower: the {@link CuratorCache} on {@code <path>/state}, and the
 * catch-up thread that reads the state on a new connection, on a delete, on a chunked state's event and
 * while the store is lost, and hands it to the follower.
 */
final class ZooKeeperFollowing {

    /*
     * Design note. Followers watch the znode with a CuratorCache; an event may stand for
     * several versions (ZooKeeper watches coalesce), which the history in the
     * state covers. While the connection is suspended or lost, writes are
     * refused at once (503); on reconnection the store reads the state and
     * hands it to the follower before it accepts writes again. A manifest's
     * event is read on the catch-up thread, never on Curator's: reading its
     * chunks blocks.
     */

    /** The store's logger: these are its messages. */
    private static final Logger log = LoggerFactory.getLogger(ZooKeeperRingStore.class);

    private final ZooKeeperRingStore store;
    private final ZooKeeperServedRing ring;
    private final CuratorFramework client;
    private final String statePath;
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
    private volatile Consumer<PersistedState> follower;
    private CuratorCache cache;
    /** Whether a re-check of a lost store is scheduled (one at a time). */
    private final AtomicBoolean rechecking = new AtomicBoolean();

    ZooKeeperFollowing(ZooKeeperRingStore store, ZooKeeperServedRing ring, CuratorFramework client,
            String statePath, ZooKeeperStateNodes nodes) {
        this.store = store;
        this.ring = ring;
        this.client = client;
        this.statePath = statePath;
        this.nodes = nodes;
        catchUp.setKeepAliveTime(30, TimeUnit.SECONDS);
        catchUp.allowCoreThreadTimeOut(true);
    }

    /** {@link ZooKeeperRingStore#follow}. */
    void follow(Consumer<PersistedState> onChange) {
        this.follower = onChange;
        cache = CuratorCache.build(client, statePath, CuratorCache.Options.SINGLE_NODE_CACHE);
        cache.listenable().addListener(CuratorCacheListener.builder()
                .forCreatesAndChanges((before, node) -> deliver(node))
                .forDeletes(node -> later(this::recheck)).build());
        cache.start();
        if (store.connected()) {
            later(this::catchUp);
        }
    }

    /** Connected again: read the ring before writes are accepted again. */
    void catchUpLater() {
        later(this::catchUp);
    }

    private void catchUp() {
        Consumer<PersistedState> f = follower;
        if (f == null || !store.connected()) {
            return;
        }
        try {
            store.ensureMarker(); // a new session has none
            Optional<PersistedState> stored = store.check();
            if (ring.following()) {
                stored.ifPresent(f);
                nodes.sweep(); // chunks a write cut short left behind
            }
            store.caughtUp();
        } catch (RuntimeException e) {
            if (!catchUp.isShutdown()) { // not a store closed meanwhile
                log.warn("Could not catch up with {}: {}", store.describe(), e.getMessage());
            }
        }
        recheckWhileLost();
    }

    /** After a delete, or an event while lost: reads the state afresh and hands it on when it is this ring. */
    private void recheck() {
        Consumer<PersistedState> f = follower;
        if (f == null || !store.connected()) {
            return;
        }
        try {
            Optional<PersistedState> stored = store.check();
            if (ring.following()) {
                stored.ifPresent(f);
            }
        } catch (RuntimeException e) {
            if (!catchUp.isShutdown()) { // not a store closed meanwhile
                log.warn("Could not read {}: {}", store.describe(), e.getMessage());
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
        if (ring.lost() != null && !catchUp.isShutdown() && rechecking.compareAndSet(false, true)) {
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
            PersistedState ps = store.decode(node.getData());
            String mine = ring.served();
            if (ring.replaced()) {
                return; // being served afresh
            }
            if (ring.lost() != null || ring.deleted() || mine != null && !mine.equals(ps.incarnation())) {
                later(this::recheck); // never handed on as it is: read afresh and judged
                return;
            }
            store.heard(ps, node.getStat());
            // never on Curator's thread: RingService.follow waits for the local write lock, and a writer holding
            // it may be waiting for the write-lock znode's watch, which that same thread delivers
            later(() -> {
                try {
                    f.accept(ps);
                } catch (RuntimeException e) {
                    log.error("Could not apply the ring stored at {}: {}", store.describe(), e.getMessage(), e);
                }
            });
        } catch (RuntimeException e) {
            log.error("Could not apply the ring stored at {}: {}", store.describe(), e.getMessage(), e);
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

    /** Stops the catch-up thread and the cache. */
    void close() {
        catchUp.shutdownNow();
        if (cache != null) {
            cache.close();
        }
    }
}
