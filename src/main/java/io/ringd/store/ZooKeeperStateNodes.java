package io.ringd.store;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.ArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ringd.state.PersistedState;
import io.ringd.state.StateTooLargeException;
import io.ringd.state.StoreUnavailableException;

/**
 * The znodes that hold one ring's encoded state in ZooKeeper: {@code <ring>/state}, and, for a state too
 * large for one znode, its chunks under {@code <ring>/chunks}.
 */
final class ZooKeeperStateNodes {

    /*
     * Design note. ZooKeeper refuses a request over jute.maxbuffer (1 MiB by
     * default) with a connection loss, and every ring of a process shares one
     * session (docs/ring.md section 22): one oversized write would disturb
     * every ring. The largest state the ring limits allow (10,000 nodes with
     * long ids or hashKeys, and the kept history) is megabytes even gzipped.
     *
     * So a state whose encoded (gzipped StateCodec JSON) bytes fit in one
     * chunk (CHUNK_BYTES, 512 KiB) is written as it always was: those bytes
     * are the data of <ring>/state, and a small ring's znodes are byte for
     * byte what a ringd before chunking wrote and reads. A larger one is
     * written first as chunks, <ring>/chunks/<id>-<i> (each at most
     * CHUNK_BYTES; <id> random for each write), and then <ring>/state is set
     * (with the same compare-and-set as any write) to a manifest: MAGIC, which
     * cannot start a gzip stream (0x1f 0x8b), then the id, the number of
     * chunks, the total length and the SHA-256 of the bytes. The
     * compare-and-set of <ring>/state is the commit point, so a write is as
     * atomic as before: readers see the old state or the new one, never a mix.
     * After it succeeds, the chunks of the state it replaced are deleted;
     * when it fails (another writer was first), the chunks just written are.
     *
     * A reader reads <ring>/state; for a manifest it reads the chunks and
     * checks the length and the digest. A chunk missing, or a mismatch, means
     * a newer write committed and cleaned up meanwhile (one session sees
     * ZooKeeper in order: the delete of a chunk comes after the state that
     * replaced it), so it reads <ring>/state again, a bounded number of
     * times. The same manifest read twice with its chunks missing is a broken
     * store, not a race.
     *
     * Leftovers (a writer that died between its chunks and its
     * compare-and-set, a clean-up cut short) are swept: chunks of any id but
     * the current manifest's, and created before the current state was
     * written (their czxid below its mzxid). Such chunks can never be
     * committed: their writer knew the version it compares against before it
     * wrote them, so that version is older than the current one. Chunks
     * created since are a write in progress and are left alone.
     *
     * A write whose encoded state is over ringd.zookeeper.max-state-bytes is
     * refused before anything is written (StateTooLargeException).
     */

    private static final Logger log = LoggerFactory.getLogger(ZooKeeperStateNodes.class);

    /** The most bytes one chunk (and a state that is not chunked) holds: well under jute.maxbuffer. */
    static final int CHUNK_BYTES = 512 * 1024;
    /** How many times a reader reads the state again when its chunks were replaced meanwhile. */
    static final int READ_ATTEMPTS = 8;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();

    private final CuratorFramework client;
    private final String statePath;
    private final String chunksPath;
    private final long maxStateBytes;
    private final StateCodec codec = new StateCodec();

    /**
     * What a write puts in {@code <ring>/state}; {@code chunksId} is null when the state is not chunked;
     * {@code stat}, once written, the state znode's.
     */
    record Written(byte[] stateData, String chunksId, Stat stat) {

        Written at(Stat stat) {
            return new Written(stateData, chunksId, stat);
        }
    }

    /** A state read: its encoded bytes, the stat of {@code <ring>/state}, and its chunks' id (or null). */
    record Read(byte[] encoded, Stat stat, String chunksId) {
    }

    /** The stale chunks of a manifest were read: the state changed meanwhile. */
    private static final class ChunksGone extends Exception {
        ChunksGone(String message) {
            super(message, null, false, false);
        }
    }

    ZooKeeperStateNodes(CuratorFramework client, String ringPath, long maxStateBytes) {
        this.client = client;
        this.statePath = ringPath + "/state";
        this.chunksPath = ringPath + "/chunks";
        this.maxStateBytes = maxStateBytes;
    }

    /** Whether {@code data}, the data of a state znode, is a manifest (and not a gzipped state). */
    static boolean isManifest(byte[] data) {
        return ChunkManifest.isManifest(data);
    }

    /** @throws StateTooLargeException when {@code encoded} is over the cap; nothing was written */
    void refuseIfTooLarge(byte[] encoded) {
        if (encoded.length > maxStateBytes) {
            throw new StateTooLargeException(encoded.length, maxStateBytes, "ringd.zookeeper.max-state-bytes");
        }
    }

    /**
     * Readies {@code encoded} for a write of {@code <ring>/state}: as it is when it fits in one chunk, else
     * its chunks written and a manifest of them returned. {@code makeParents}: the ring's node may not be
     * there yet (a ring being made); otherwise its absence is a {@link KeeperException.NoNodeException}.
     * Chunks written before a failure are deleted again.
     */
    Written prepare(byte[] encoded, boolean makeParents) throws Exception {
        refuseIfTooLarge(encoded);
        if (encoded.length <= CHUNK_BYTES) {
            return new Written(encoded, null, null);
        }
        byte[] random = new byte[8];
        RANDOM.nextBytes(random);
        String id = HEX.formatHex(random);
        int count = (encoded.length + CHUNK_BYTES - 1) / CHUNK_BYTES;
        try {
            if (makeParents) {
                client.create().creatingParentsIfNeeded().forPath(chunk(id, 0),
                        Arrays.copyOfRange(encoded, 0, CHUNK_BYTES));
            } else {
                try {
                    client.create().forPath(chunksPath);
                } catch (KeeperException.NodeExistsException e) {
                    // made by an earlier write
                }
                client.create().forPath(chunk(id, 0), Arrays.copyOfRange(encoded, 0, CHUNK_BYTES));
            }
            for (int i = 1; i < count; i++) {
                int from = i * CHUNK_BYTES;
                client.create().forPath(chunk(id, i),
                        Arrays.copyOfRange(encoded, from, Math.min(encoded.length, from + CHUNK_BYTES)));
            }
        } catch (KeeperException.ConnectionLossException | KeeperException.SessionExpiredException e) {
            abandon(id);
            throw new StoreUnavailableException("ZooKeeper lost the connection while the chunks of a state were "
                    + "written to " + chunksPath + ", before the state was: it was not stored", e);
        } catch (Exception e) {
            abandon(id);
            throw e;
        }
        return new Written(new ChunkManifest(id, count, encoded.length, sha256(encoded)).bytes(), id, null);
    }

    /**
     * Sets the state to {@code encoded} if its znode is at {@code version} (the compare-and-set), its chunks
     * written first when it is large, and those of the state it replaced ({@code replaced}) deleted after.
     * When it is refused (another write first, the state gone) the chunks just written are deleted; after a
     * connection loss they are left to the sweep (it may have been stored).
     *
     * @throws StateTooLargeException over the cap, before anything is written
     */
    Written replace(byte[] encoded, int version, String replaced) throws Exception {
        Written w = prepare(encoded, false);
        Stat stat;
        try {
            stat = client.setData().withVersion(version).forPath(statePath, w.stateData());
        } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
            abandon(w);
            throw e;
        }
        committed(w, replaced, stat);
        return w.at(stat);
    }

    /**
     * Creates the state (and the ring's node if needed) holding {@code encoded}, its chunks written first
     * when it is large; when there is one already ({@link KeeperException.NodeExistsException}) the chunks
     * just written are deleted.
     *
     * @throws StateTooLargeException over the cap, before anything is written
     */
    Written create(byte[] encoded) throws Exception {
        Written w = prepare(encoded, true);
        Stat stat = new Stat();
        try {
            client.create().creatingParentsIfNeeded().storingStatIn(stat).forPath(statePath, w.stateData());
        } catch (KeeperException.NodeExistsException e) {
            abandon(w);
            throw e;
        }
        return w.at(stat);
    }

    /** After a write that did not commit: its chunks deleted (best effort). */
    void abandon(Written w) {
        if (w != null && w.chunksId() != null) {
            abandon(w.chunksId());
        }
    }

    /**
     * After a write committed as {@code stat}, replacing a state whose chunks' id was {@code replaced}: the
     * chunks no longer named deleted (best effort), when there may be any.
     */
    private void committed(Written w, String replaced, Stat stat) {
        if (w.chunksId() != null || replaced != null) {
            sweep(w.chunksId(), stat.getMzxid());
        }
    }

    /**
     * Reads the state, and its chunks when it is chunked, reading again when a newer write replaced them
     * meanwhile; null when there is no state.
     *
     * @throws IllegalArgumentException when the state cannot be read (a malformed manifest, chunks missing)
     */
    Read read() throws Exception {
        long failed = -1;
        for (int attempt = 1; ; attempt++) {
            Stat stat = new Stat();
            byte[] data;
            try {
                data = client.getData().storingStatIn(stat).forPath(statePath);
            } catch (KeeperException.NoNodeException e) {
                return null;
            }
            if (!isManifest(data)) {
                return new Read(data, stat, null);
            }
            ChunkManifest m = ChunkManifest.parse(data);
            try {
                return new Read(chunks(m), stat, m.id());
            } catch (ChunksGone e) {
                if (stat.getMzxid() == failed) {
                    throw new IllegalArgumentException("the state at " + statePath + " names chunks " + m.id()
                            + " that are not whole: " + e.getMessage());
                }
                if (attempt >= READ_ATTEMPTS) {
                    throw new StoreUnavailableException("the state at " + statePath + " changed " + attempt
                            + " times while its chunks were being read");
                }
                failed = stat.getMzxid();
            }
        }
    }

    /** The bytes {@code m} names, checked. */
    private byte[] chunks(ChunkManifest m) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(m.length());
        for (int i = 0; i < m.chunks(); i++) {
            try {
                out.write(client.getData().forPath(chunk(m.id(), i)));
            } catch (KeeperException.NoNodeException e) {
                throw new ChunksGone("chunk " + i + " of " + m.chunks() + " is gone");
            }
            if (out.size() > m.length()) {
                throw new ChunksGone("longer than " + m.length() + " bytes");
            }
        }
        byte[] bytes = out.toByteArray();
        if (bytes.length != m.length()) {
            throw new ChunksGone(bytes.length + " bytes, not " + m.length());
        }
        if (!sha256(bytes).equals(m.sha256())) {
            throw new ChunksGone("the SHA-256 does not match");
        }
        return bytes;
    }

    /** Waits (at most {@code timeout}) until the server this client reads from has what the leader has. */
    void sync(Duration timeout) {
        CountDownLatch done = new CountDownLatch(1);
        try {
            client.sync().inBackground((c, event) -> done.countDown()).forPath(statePath);
            if (!done.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                log.debug("A sync of {} did not finish within {} ms", statePath, timeout.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.debug("Could not sync {}: {}", statePath, e.getMessage());
        }
    }

    /** Deletes the chunks the current state does not name and that no write in progress may (best effort). */
    void sweep() {
        try {
            Stat stat = new Stat();
            byte[] data = client.getData().storingStatIn(stat).forPath(statePath);
            sweep(isManifest(data) ? ChunkManifest.parse(data).id() : null, stat.getMzxid());
        } catch (KeeperException.NoNodeException e) {
            // no state: nothing to judge the chunks by
        } catch (Exception e) {
            log.debug("Could not sweep the chunks at {}: {}", chunksPath, e.getMessage());
        }
    }

    /** Deletes the chunks of every id but {@code keep} created before {@code mzxid} (best effort). */
    private void sweep(String keep, long mzxid) {
        try {
            List<String> children;
            try {
                children = client.getChildren().forPath(chunksPath);
            } catch (KeeperException.NoNodeException e) {
                return;
            }
            Map<String, List<String>> byId = new TreeMap<>();
            for (String child : children) {
                int dash = child.lastIndexOf('-');
                byId.computeIfAbsent(dash < 0 ? child : child.substring(0, dash), k -> new ArrayList<>()).add(child);
            }
            for (Map.Entry<String, List<String>> e : byId.entrySet()) {
                if (e.getKey().equals(keep)) {
                    continue;
                }
                Stat first = client.checkExists().forPath(chunksPath + "/" + e.getValue().get(0));
                if (first != null && first.getCzxid() < mzxid) {
                    delete(e.getValue());
                }
            }
        } catch (Exception e) {
            log.debug("Could not sweep the chunks at {}: {}", chunksPath, e.getMessage());
        }
    }

    /** Deletes the chunks of {@code id} (best effort). */
    private void abandon(String id) {
        try {
            List<String> mine = new ArrayList<>();
            for (String child : client.getChildren().forPath(chunksPath)) {
                if (child.startsWith(id + "-")) {
                    mine.add(child);
                }
            }
            delete(mine);
        } catch (KeeperException.NoNodeException e) {
            // none
        } catch (Exception e) {
            log.debug("Could not delete the chunks {} at {}: {}", id, chunksPath, e.getMessage());
        }
    }

    private void delete(List<String> children) throws Exception {
        for (String child : children) {
            try {
                client.delete().forPath(chunksPath + "/" + child);
            } catch (KeeperException.NoNodeException e) {
                // deleted by another
            }
        }
    }

    private String chunk(String id, int i) {
        return chunksPath + "/" + id + "-" + i;
    }

    /** The bytes of a state: its StateCodec JSON, gzipped. */
    byte[] encode(PersistedState state) {
        return gzip(codec.encode(state));
    }

    static byte[] gzip(byte[] json) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** @throws IllegalArgumentException when {@code data} is no gzipped ring state */
    PersistedState decode(byte[] data) {
        try (GZIPInputStream gz = new GZIPInputStream(new ByteArrayInputStream(data))) {
            return codec.decode(gz.readAllBytes());
        } catch (IOException e) {
            throw new IllegalArgumentException("not a gzipped ring state: " + e.getMessage(), e);
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
