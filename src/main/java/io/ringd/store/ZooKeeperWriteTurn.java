package io.ringd.store;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.state.StoreUnavailableException;

/**
 * The turns writers take through different instances ({@code <path>/write-lock}), for
 * {@link ZooKeeperRingStore#exclusively}.
 */
final class ZooKeeperWriteTurn {

    /*
     * Design note. Writers take turns first through a Curator InterProcessMutex
     * (<path>/write-lock), so that one that just won cannot starve the
     * others; the turn is for fairness only, the compare-and-set is the
     * guarantee. A write waits for its turn at most lock-wait and then goes
     * ahead without it; while the holder that kept it waiting stays first in
     * the queue (an instance that died with the lock keeps its znode until
     * its session expires), later writes do not wait at all.
     */

    /** The store's logger: these are its messages. */
    private static final Logger log = LoggerFactory.getLogger(ZooKeeperRingStore.class);

    private final InterProcessMutex writeLock;
    private final String lockPath;
    private final Duration lockWait;
    /**
     * The lock holder that kept a write waiting past the lock wait: while it
     * still holds the lock, writes go ahead without waiting for their turn.
     */
    private volatile String stalledBy;

    ZooKeeperWriteTurn(CuratorFramework client, String lockPath, Duration lockWait) {
        this.lockPath = lockPath;
        this.lockWait = lockWait;
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
    <T> T take(Supplier<T> write) {
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
}
