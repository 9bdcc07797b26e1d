package io.ringd.ring;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The ring fingerprint: lowercase hex SHA-256 over, for each point
 * ascending, its 4 bytes big-endian, its owner's id in ASCII and
 * {@code 0x0A} (docs/ring.md section 10); for a Maglev table, over each
 * entry in order, its owner's id in ASCII and {@code 0x0A} (section 15).
 */
final class Fingerprint {

    /*
     * Design note. The byte format is part of the contract, fixed like a
     * hash function's name: two rings with the same fingerprint route every
     * key the same way, and nothing else (zones, weights, version, config)
     * is hashed. Points are read from the ring's biased array and unbiased
     * (p ^ HashRing.BIAS) before they are written big-endian; since the
     * array is strictly ascending as unsigned values (RingBuilder.snapshot),
     * so is the hashed sequence. Each id is encoded once per member, not
     * once per point. HashRing computes the fingerprint on first use and
     * caches it; a snapshot never changes, so neither does its fingerprint.
     * A Maglev table's bytes (M ids and newlines, about 0.5 MB for M = 65537
     * and ids of 7 characters) go to the digest through one buffer in
     * chunks, not as two small updates per entry.
     */

    private Fingerprint() {
    }

    /** The fingerprint of {@code ring}; the SHA-256 of zero bytes for a ring without points. */
    static String of(HashRing ring) {
        Node[] members = ring.members;
        int[] points = ring.points;
        int[] owners = ring.owners;
        MessageDigest sha = KeyHashes.newDigest("SHA-256");
        byte[][] ids = new byte[members.length][];
        for (int m = 0; m < members.length; m++) {
            ids[m] = members[m].id().getBytes(StandardCharsets.US_ASCII);
        }
        if (ring.isTable()) {
            return ofTable(sha, ids, owners);
        }
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

    private static String ofTable(MessageDigest sha, byte[][] ids, int[] table) {
        byte[] buf = new byte[1 << 14];
        int w = 0;
        for (int owner : table) {
            byte[] id = ids[owner];
            if (w + id.length + 1 > buf.length) {
                sha.update(buf, 0, w);
                w = 0;
            }
            System.arraycopy(id, 0, buf, w, id.length);
            w += id.length;
            buf[w++] = 0x0A;
        }
        sha.update(buf, 0, w);
        return KeyHashes.toLowerHex(sha.digest());
    }
}
