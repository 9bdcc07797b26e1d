package io.ringd.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.state.SharedBoard;
import io.ringd.state.StoreUnavailableException;

/**
 * A {@link SharedBoard} in ZooKeeper: under {@code <ring>/<topic>}, each
 * instance's document in ephemeral znodes {@code <instance>.<part>} (parts of
 * at most {@link #PART_BYTES}, well under ZooKeeper's 1 MB limit), so it goes
 * with the instance's session. Each part starts with the post's generation
 * and part count; a reader takes an instance's document once it holds every
 * part of one generation, and keeps the one before while a post is half
 * written. One post is one write per part; readers are told by a
 * {@link CuratorCache} of the board.
 */
final class ZooKeeperBoard implements SharedBoard {

    private static final Logger log = LoggerFactory.getLogger(ZooKeeperBoard.class);

    /** The most payload bytes in one znode. */
    static final int PART_BYTES = 512 * 1024;
    private static final int HEADER = Long.BYTES + Integer.BYTES;

    private final CuratorFramework client;
    private final String path;
    private final String instance;
    private final AtomicLong generation = new AtomicLong(System.currentTimeMillis());
    private volatile CuratorCache cache;
    private volatile Consumer<Map<String, byte[]>> onChange;
    /** The last whole document read of each other instance. */
    private final Map<String, byte[]> whole = new HashMap<>();
    private int partsPosted;
    private volatile boolean closed;
    private final Consumer<ZooKeeperBoard> onClose;

    ZooKeeperBoard(CuratorFramework client, String path, String instance, Consumer<ZooKeeperBoard> onClose) {
        this.onClose = Objects.requireNonNull(onClose, "onClose");
        this.client = Objects.requireNonNull(client, "client");
        this.path = Objects.requireNonNull(path, "path");
        this.instance = Objects.requireNonNull(instance, "instance");
    }

    @Override
    public String instance() {
        return instance;
    }

    @Override
    public synchronized void post(byte[] document) {
        if (closed) {
            return;
        }
        long gen = generation.incrementAndGet();
        int parts = Math.max(1, (document.length + PART_BYTES - 1) / PART_BYTES);
        try {
            ensureBoard();
            for (int i = parts - 1; i >= 0; i--) { // part 0 last: a reader sees the new generation whole soonest
                int from = i * PART_BYTES;
                int to = Math.min(document.length, from + PART_BYTES);
                ByteBuffer b = ByteBuffer.allocate(HEADER + to - from);
                b.putLong(gen).putInt(parts).put(document, from, to - from);
                write(path + "/" + instance + "." + i, b.array());
            }
            for (int i = parts; i < partsPosted; i++) {
                try {
                    client.delete().forPath(path + "/" + instance + "." + i);
                } catch (KeeperException.NoNodeException e) {
                    // gone with a session already
                }
            }
            partsPosted = parts;
        } catch (StoreUnavailableException e) {
            throw e;
        } catch (Exception e) {
            throw new StoreUnavailableException("could not post on " + path + ": " + e.getMessage(), e);
        }
    }

    private void ensureBoard() throws Exception {
        try {
            client.create().withMode(CreateMode.CONTAINER).forPath(path);
        } catch (KeeperException.NodeExistsException e) {
            // there already
        } catch (KeeperException.NoNodeException e) {
            // Not made here: a ring deleted meanwhile must stay deleted.
            throw new StoreUnavailableException("the ring's znode " + path.substring(0, path.lastIndexOf('/'))
                    + " does not exist: nothing has been committed to the ring yet, or it was deleted");
        }
    }

    private void write(String node, byte[] data) throws Exception {
        try {
            client.setData().forPath(node, data);
        } catch (KeeperException.NoNodeException e) {
            try {
                client.create().withMode(CreateMode.EPHEMERAL).forPath(node, data);
            } catch (KeeperException.NodeExistsException raced) { // a session before this one still held it
                client.setData().forPath(node, data);
            }
        }
    }

    @Override
    public void follow(Consumer<Map<String, byte[]>> onChange) {
        this.onChange = onChange;
        CuratorCache c = CuratorCache.build(client, path);
        c.listenable().addListener(CuratorCacheListener.builder().forAll((type, before, after) -> changed())
                .forInitialized(this::changed).build());
        cache = c;
        c.start();
    }

    /**
     * Reads every other instance's document from the cache and hands them on. Under its own
     * lock, not a post's: a post waits on ZooKeeper, whose events may be what calls this.
     */
    private void changed() {
        synchronized (whole) {
            readWhole();
        }
    }

    private void readWhole() {
        CuratorCache c = cache;
        Consumer<Map<String, byte[]>> told = onChange;
        if (c == null || told == null || closed) {
            return;
        }
        Map<String, TreeMap<Integer, byte[]>> byInstance = new HashMap<>();
        c.stream().forEach((ChildData d) -> {
            String p = d.getPath();
            if (p.length() <= path.length() + 1 || !p.startsWith(path + "/") || d.getData() == null) {
                return;
            }
            String name = p.substring(path.length() + 1);
            int dot = name.lastIndexOf('.');
            if (dot <= 0 || name.indexOf('/') >= 0) {
                return;
            }
            String owner = name.substring(0, dot);
            if (owner.equals(instance)) {
                return;
            }
            try {
                byInstance.computeIfAbsent(owner, k -> new TreeMap<>())
                        .put(Integer.parseInt(name.substring(dot + 1)), d.getData());
            } catch (NumberFormatException e) {
                // not a part
            }
        });
        whole.keySet().retainAll(byInstance.keySet());
        byInstance.forEach((owner, parts) -> {
            byte[] doc = assemble(parts);
            if (doc != null) {
                whole.put(owner, doc);
            }
        });
        try {
            told.accept(Map.copyOf(whole));
        } catch (RuntimeException e) {
            log.warn("Reading the board {} failed: {}", path, e.toString());
        }
    }

    /** The document of one generation whose every part is here, or {@code null}. */
    static byte[] assemble(TreeMap<Integer, byte[]> parts) {
        byte[] first = parts.get(0);
        if (first == null || first.length < HEADER) {
            return null;
        }
        ByteBuffer h = ByteBuffer.wrap(first);
        long gen = h.getLong();
        int n = h.getInt();
        if (n < 1 || n > 10_000) {
            return null;
        }
        List<byte[]> payloads = new ArrayList<>(n);
        int size = 0;
        for (int i = 0; i < n; i++) {
            byte[] p = parts.get(i);
            if (p == null || p.length < HEADER) {
                return null;
            }
            ByteBuffer b = ByteBuffer.wrap(p);
            if (b.getLong() != gen || b.getInt() != n) {
                return null;
            }
            payloads.add(Arrays.copyOfRange(p, HEADER, p.length));
            size += p.length - HEADER;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        payloads.forEach(out::put);
        return out.array();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        onClose.accept(this);
        CuratorCache c = cache;
        if (c != null) {
            c.close();
        }
        for (int i = 0; i < partsPosted; i++) {
            try {
                client.delete().forPath(path + "/" + instance + "." + i);
            } catch (Exception e) {
                // gone with the ring or the session
            }
        }
        partsPosted = 0;
    }
}
