package io.ringd.bench;

import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.state.ChangeBatch;
import io.ringd.state.HistoryDelta;
import io.ringd.state.HistoryProperties;
import io.ringd.state.Incarnation;
import io.ringd.state.PersistedState;
import io.ringd.state.RingHistory;
import io.ringd.state.RingService;
import io.ringd.state.RingSettings;
import io.ringd.store.MemoryRingStore;
import io.ringd.store.StateCodec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

/**
 * The size of one ring's whole stored state, {@code StateCodec}'s JSON
 * (state and kept history), raw and gzipped as {@code ZooKeeperRingStore}
 * writes its znode, against ZooKeeper's default {@code jute.maxbuffer}
 * (0xfffff bytes, 1 MiB less one byte), with the history full at the default
 * {@code ringd.history.versions} (128: the base version and 127 deltas).
 * Points are not stored (only {@code vnodesPerWeight}), so a ring's size in
 * the store is its members and its deltas. Run by bench/rings.sh; prints a
 * Markdown table.
 *
 * <p>The first row is made by a {@link RingService} on a memory store (the
 * form the service writes, fingerprints and commit times included); the
 * others are made directly as {@code PersistedState}s of the same form
 * (checked with {@code checkConsistent}), so that the largest do not need
 * 128 ring builds.
 */
public final class RingStateSizes {

    /** ZooKeeper's default jute.maxbuffer: 0xfffff. */
    static final int JUTE_MAXBUFFER = 0xfffff;
    /** The largest request body ringd reads (413 past it): bounds one version's batch. */
    static final int MAX_BODY = 4 * 1024 * 1024;
    static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-:@";

    private static final StateCodec CODEC = new StateCodec();
    private static final int VERSIONS = new HistoryProperties(128).versions();

    private RingStateSizes() {
    }

    public static void main(String[] args) {
        System.out.printf("History kept: %d versions (ringd.history.versions default); limits: %,d nodes, %,d points,"
                + " ids and zones %d characters, hashKey %,d bytes, %,d changes and %,d bytes of body a batch.%n%n",
                VERSIONS, HashRing.MAX_NODES, HashRing.MAX_POINTS, Node.MAX_ID_LENGTH, Node.MAX_HASH_KEY_BYTES,
                ChangeBatch.MAX_CHANGES, MAX_BODY);
        System.out.println("| ring (history full: base + 127 deltas) | nodes | changes a version | JSON bytes "
                + "| gzip bytes | gzip / jute.maxbuffer | fits 1 MiB |");
        System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | --- |");

        row("50 x 128, ids cache-NN, one node re-weighted a version (RingService)", serviceMade(50), 50, 1);

        List<Node> small = nodes(50, i -> String.format("cache-%02d", i), i -> null, i -> null, 1.0);
        row("50 x 128, every node re-weighted a version", full(small, 50, 1.0), 50, 50);

        List<Node> shortIds = nodes(10_000, i -> String.format("node-%05d", i), i -> "zone-" + (i % 3), i -> null,
                1.0);
        row("10,000 nodes, ids node-NNNNN, zones, one node re-weighted a version", full(shortIds, 1, 1.0),
                10_000, 1);
        row("10,000 nodes, ids node-NNNNN, zones, every node re-weighted a version", full(shortIds, 10_000, 1.0),
                10_000, 10_000);

        Random random = new Random(42);
        List<Node> longest = nodes(10_000, i -> random(random, Node.MAX_ID_LENGTH),
                i -> random(random, Node.MAX_ID_LENGTH), i -> random(random, Node.MAX_HASH_KEY_BYTES),
                123.45678901234567);
        row("largest: 10,000 nodes, 200-char ids and zones, 4,096-byte hashKeys, one node a version",
                full(longest, 1, 123.45678901234567), 10_000, 1);
        int perBody = MAX_BODY / putBytes(longest.get(0));
        row("largest: as above, every version a 4 MiB batch (" + perBody + " puts)",
                full(longest, perBody, 123.45678901234567), 10_000, perBody);
    }

    /** 50 nodes x 128 points through the service: one batch of 50, then one re-weight a version past a full history. */
    static PersistedState serviceMade(int count) {
        MemoryRingStore store = new MemoryRingStore();
        RingService service = new RingService(store, RingSettings.defaults(), VERSIONS, List.of());
        List<Change> all = new ArrayList<>();
        for (Node n : nodes(count, i -> String.format("cache-%02d", i), i -> null, i -> null, 1.0)) {
            all.add(Change.put(n));
        }
        service.apply(all, null);
        for (int v = 0; v < VERSIONS + 10; v++) {
            service.put(Node.of(String.format("cache-%02d", v % count), (v / count) % 2 == 0 ? 1.5 : 1.0), null);
        }
        PersistedState s = store.load().orElseThrow();
        if (s.history().size() != VERSIONS) {
            throw new IllegalStateException("history not full: " + s.history().size());
        }
        return s;
    }

    /**
     * A state whose history is full: {@code base} at the oldest kept version, then 127 versions each
     * re-weighting {@code perVersion} nodes (round robin, between {@code weight} and {@code weight + 0.5}).
     */
    static PersistedState full(List<Node> base, int perVersion, double weight) {
        List<Node> current = new ArrayList<>(base);
        List<HistoryDelta> deltas = new ArrayList<>();
        Random random = new Random(7);
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        long baseVersion = 1000;
        int next = 0;
        for (int d = 1; d < VERSIONS; d++) {
            List<Change> changes = new ArrayList<>(perVersion);
            for (int c = 0; c < perVersion; c++) {
                int i = next++ % current.size();
                Node n = current.get(i);
                Node changed = new Node(n.id(), n.weight() == weight ? weight + 0.5 : weight, n.zone(), n.hashKey());
                current.set(i, changed);
                changes.add(Change.put(changed));
            }
            deltas.add(new HistoryDelta(baseVersion + d, changes, null, at.plusMillis(d * 1000L + d),
                    hex(random, 64)));
        }
        RingHistory history = new RingHistory(baseVersion, RingSettings.defaults(), base, deltas, at);
        PersistedState s = new PersistedState(baseVersion + VERSIONS - 1, RingSettings.defaults(), current, history,
                Incarnation.random());
        s.checkConsistent();
        return s;
    }

    private static void row(String what, PersistedState s, int nodes, int perVersion) {
        byte[] json = CODEC.encode(s);
        int gz = gzip(json).length;
        System.out.printf("| %s | %,d | %,d | %,d | %,d | %.3f | %s |%n", what, nodes, perVersion, json.length, gz,
                gz / (double) JUTE_MAXBUFFER, gz <= JUTE_MAXBUFFER ? "yes" : "**no**");
    }

    /** The bytes one put of {@code n} takes in a batch body (its JSON and a comma). */
    private static int putBytes(Node n) {
        return ("{\"op\":\"put\",\"id\":\"" + n.id() + "\",\"weight\":" + n.weight() + ",\"zone\":\"" + n.zone()
                + "\",\"hashKey\":\"" + n.hashKey() + "\"},").length();
    }

    interface Field {
        String of(int i);
    }

    static List<Node> nodes(int count, Field id, Field zone, Field hashKey, double weight) {
        List<Node> nodes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            nodes.add(new Node(id.of(i), weight, zone.of(i), hashKey.of(i)));
        }
        nodes.sort(java.util.Comparator.comparing(Node::id));
        return nodes;
    }

    /** {@code length} characters drawn from the characters ids may hold: what gzip can do little with. */
    static String random(Random random, int length) {
        StringBuilder b = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            b.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return b.toString();
    }

    private static String hex(Random random, int length) {
        StringBuilder b = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            b.append(Character.forDigit(random.nextInt(16), 16));
        }
        return b.toString();
    }

    static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
