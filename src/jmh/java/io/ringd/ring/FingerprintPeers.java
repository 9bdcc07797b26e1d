package io.ringd.ring;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * Benchmark only (src/jmh, never in the library): ways of computing the
 * fingerprint of docs/ring.md section 10 other than the library's, to be
 * measured beside it in the same run. In the ring's package so that they
 * read its arrays as {@link Fingerprint} does.
 *
 * <ul>
 * <li>{@link #perPoint}: the library's way before the bytes went through one
 * buffer: three {@code MessageDigest.update} calls per point (4 bytes, the
 * id, {@code 0x0A}).</li>
 * <li>{@link #library}: {@link Fingerprint#of}, not cached (a fresh ring's
 * {@code fingerprint()} computes the same, once).</li>
 * <li>{@link Checkpoints} and {@link #resumed}: the cheapest exact
 * verification a prefix can buy: a ring keeps SHA-256 midstates
 * ({@code MessageDigest.clone()}) every {@code every} points, and its
 * successor hashes again only from the checkpoint before its first changed
 * point.</li>
 * </ul>
 */
public final class FingerprintPeers {

    private FingerprintPeers() {
    }

    /** The library's fingerprint of {@code ring}, computed now. */
    public static String library(HashRing ring) {
        return Fingerprint.of(ring);
    }

    /** The fingerprint as the library computed it before: three digest updates per point. */
    public static String perPoint(HashRing ring) {
        MessageDigest sha = KeyHashes.newDigest("SHA-256");
        byte[][] ids = ids(ring);
        if (ring.isTable()) {
            for (int owner : ring.owners) {
                sha.update(ids[owner]);
                sha.update((byte) 0x0A);
            }
            return KeyHashes.toLowerHex(sha.digest());
        }
        int[] points = ring.points;
        int[] owners = ring.owners;
        byte[] buf = new byte[4];
        for (int i = 0; i < points.length; i++) {
            int p = points[i] ^ HashRing.BIAS;
            buf[0] = (byte) (p >>> 24);
            buf[1] = (byte) (p >>> 16);
            buf[2] = (byte) (p >>> 8);
            buf[3] = (byte) p;
            sha.update(buf);
            sha.update(ids[owners[i]]);
            sha.update((byte) 0x0A);
        }
        return KeyHashes.toLowerHex(sha.digest());
    }

    /**
     * The index of the first point (or table entry) whose bytes differ
     * between {@code a} and {@code b}: the length of the shorter when one is
     * a prefix of the other. Owners are compared by id, since a change
     * renumbers the members.
     */
    public static int firstDifference(HashRing a, HashRing b) {
        int n = Math.min(a.owners.length, b.owners.length);
        boolean table = a.isTable();
        for (int i = 0; i < n; i++) {
            if (!table && a.points[i] != b.points[i] || !a.ids[a.owners[i]].equals(b.ids[b.owners[i]])) {
                return i;
            }
        }
        return n;
    }

    /** How many entries (points, or table entries) {@code ring} hashes. */
    public static int entries(HashRing ring) {
        return ring.owners.length;
    }

    /**
     * A ring's fingerprint with the SHA-256 midstates before entry 0,
     * {@code every}, {@code 2 * every} ... (digest clones), the bytes written
     * through one buffer as the library does.
     */
    public static final class Checkpoints {
        final HashRing ring;
        final int every;
        final MessageDigest[] states;
        public final String fingerprint;

        private Checkpoints(HashRing ring, int every, MessageDigest[] states, String fingerprint) {
            this.ring = ring;
            this.every = every;
            this.states = states;
            this.fingerprint = fingerprint;
        }

        /** The fingerprint of {@code ring}, keeping a midstate every {@code every} entries. */
        public static Checkpoints of(HashRing ring, int every) {
            MessageDigest sha = KeyHashes.newDigest("SHA-256");
            List<MessageDigest> states = new ArrayList<>(ring.owners.length / every + 1);
            String f = hashFrom(sha, ring, 0, every, states);
            return new Checkpoints(ring, every, states.toArray(new MessageDigest[0]), f);
        }
    }

    /**
     * The fingerprint of {@code next}, from the midstate {@code before}
     * kept at the last checkpoint at or before the first entry where the two
     * rings differ; only the bytes from there on are hashed.
     */
    public static String resumed(Checkpoints before, HashRing next) {
        int first = firstDifference(before.ring, next);
        int k = Math.min(first / before.every, before.states.length - 1);
        MessageDigest sha;
        try {
            sha = (MessageDigest) before.states[k].clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e);
        }
        return hashFrom(sha, next, k * before.every, 0, null);
    }

    /**
     * Hashes the entries of {@code ring} from {@code from} into {@code sha}
     * through one buffer and answers the fingerprint; with {@code states},
     * adds a clone of the digest before every {@code every}-th entry.
     */
    private static String hashFrom(MessageDigest sha, HashRing ring, int from, int every, List<MessageDigest> states) {
        byte[][] ids = ids(ring);
        boolean table = ring.isTable();
        int[] points = ring.points;
        int[] owners = ring.owners;
        byte[] buf = new byte[1 << 14];
        int w = 0;
        try {
            for (int i = from; i < owners.length; i++) {
                if (states != null && i % every == 0) {
                    sha.update(buf, 0, w);
                    w = 0;
                    states.add((MessageDigest) sha.clone());
                }
                byte[] id = ids[owners[i]];
                if (w + id.length + 5 > buf.length) {
                    sha.update(buf, 0, w);
                    w = 0;
                }
                if (!table) {
                    int p = points[i] ^ HashRing.BIAS;
                    buf[w] = (byte) (p >>> 24);
                    buf[w + 1] = (byte) (p >>> 16);
                    buf[w + 2] = (byte) (p >>> 8);
                    buf[w + 3] = (byte) p;
                    w += 4;
                }
                System.arraycopy(id, 0, buf, w, id.length);
                w += id.length;
                buf[w++] = 0x0A;
            }
            sha.update(buf, 0, w);
            if (states != null && states.isEmpty()) {
                states.add((MessageDigest) sha.clone());
            }
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e);
        }
        return KeyHashes.toLowerHex(sha.digest());
    }

    private static byte[][] ids(HashRing ring) {
        byte[][] ids = new byte[ring.members.length][];
        for (int m = 0; m < ids.length; m++) {
            ids[m] = ring.members[m].id().getBytes(StandardCharsets.US_ASCII);
        }
        return ids;
    }
}
