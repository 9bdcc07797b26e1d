package io.ringd.store;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.state.PlanStore;
import io.ringd.state.StateTooLargeException;
import io.ringd.state.StoreUnavailableException;

/**
 * A ring's planned changes in ZooKeeper: one gzipped znode
 * {@code <ring>/plans}, replaced by compare-and-set on its znode version and
 * followed by every instance through a cache; and the one instance that
 * drives the ring's plans, chosen by Curator's {@link LeaderLatch} at
 * {@code <path>/plan-drivers/<ring name>} (its ephemeral znode goes with a
 * lost session, and another instance takes over).
 */
final class ZooKeeperPlanStore implements PlanStore {

    private static final Logger log = LoggerFactory.getLogger(ZooKeeperPlanStore.class);
    /** The largest gzipped document: below ZooKeeper's default limit of a znode (1 MiB) with room to spare. */
    static final int MAX_BYTES = 900 * 1024;

    private final CuratorFramework client;
    private final String path;
    private final String latchPath;
    private final String instance;
    private volatile CuratorCache cache;
    private volatile LeaderLatch latch;
    private volatile boolean closed;

    /**
     * @param ringPath  the ring's znode, where its plans are kept
     * @param latchPath where the instances choose the ring's driver: outside the ring's znode, since the
     *                  latch makes its parents (as containers) when they are missing, which must never make
     *                  a deleted ring's znode again
     */
    ZooKeeperPlanStore(CuratorFramework client, String ringPath, String latchPath, String instance) {
        this.client = Objects.requireNonNull(client, "client");
        this.path = ringPath + "/plans";
        this.latchPath = Objects.requireNonNull(latchPath, "latchPath");
        this.instance = Objects.requireNonNull(instance, "instance");
    }

    @Override
    public Stored read() {
        try {
            Stat stat = new Stat();
            byte[] data = client.getData().storingStatIn(stat).forPath(path);
            return new Stored(data == null || data.length == 0 ? null : gunzip(data), stat.getVersion());
        } catch (KeeperException.NoNodeException e) {
            return new Stored(null, -1);
        } catch (Exception e) {
            throw new StoreUnavailableException("ZooKeeper did not answer the plans at " + path + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public boolean write(byte[] document, long stamp) {
        byte[] data = gzip(document);
        if (data.length > MAX_BYTES) {
            throw new StateTooLargeException(data.length, MAX_BYTES, "the plans of one ring in ZooKeeper");
        }
        try {
            if (stamp < 0) {
                client.create().forPath(path, data); // the ring's znode must exist: never made for a deleted ring
            } else {
                client.setData().withVersion((int) stamp).forPath(path, data);
            }
            return true;
        } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException e) {
            return false;
        } catch (KeeperException.NoNodeException e) {
            if (stamp >= 0) {
                return false; // deleted meanwhile: read again
            }
            throw new StoreUnavailableException("the ring's znode " + path.substring(0, path.lastIndexOf('/'))
                    + " does not exist: the ring was deleted");
        } catch (KeeperException.ConnectionLossException e) {
            throw new StoreUnavailableException("ZooKeeper lost the connection while writing the plans at " + path
                    + ": they may have been written", e, true);
        } catch (Exception e) {
            throw new StoreUnavailableException("ZooKeeper did not write the plans at " + path + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void follow(Runnable onChange) {
        if (closed || cache != null) {
            return;
        }
        CuratorCache c = CuratorCache.build(client, path, CuratorCache.Options.SINGLE_NODE_CACHE);
        c.listenable().addListener(CuratorCacheListener.builder().forAll((type, before, after) -> onChange.run())
                .forInitialized(onChange).build());
        cache = c;
        c.start();
    }

    @Override
    public synchronized void lead(Consumer<Boolean> onLead) {
        if (closed || latch != null) {
            return;
        }
        LeaderLatch l = new LeaderLatch(client, latchPath, instance);
        l.addListener(new LeaderLatchListener() {
            @Override
            public void isLeader() {
                log.info("This instance drives the plans at {}", path);
                onLead.accept(true);
            }

            @Override
            public void notLeader() {
                log.info("This instance no longer drives the plans at {}", path);
                onLead.accept(false);
            }
        });
        latch = l;
        try {
            l.start();
        } catch (Exception e) {
            throw new StoreUnavailableException("could not take part in choosing the driver of the plans at "
                    + latchPath + ": " + e.getMessage(), e);
        }
    }

    @Override
    public boolean leads() {
        LeaderLatch l = latch;
        return l != null && !closed && l.hasLeadership();
    }

    @Override
    public String describe() {
        return "zookeeper " + path;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (cache != null) {
            cache.close();
        }
        if (latch != null) {
            try {
                latch.close();
            } catch (IOException | RuntimeException e) {
                log.debug("Closing the plan driver's latch at {}: {}", latchPath, e.toString());
            }
        }
    }

    private static byte[] gzip(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(data.length / 4 + 64);
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(data);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    private static byte[] gunzip(byte[] data) throws IOException {
        try (GZIPInputStream z = new GZIPInputStream(new ByteArrayInputStream(data))) {
            return z.readAllBytes();
        }
    }
}
