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
     * so is the hashed sequence. Each member's line tail (its id in ASCII
     * and 0x0A) is encoded once per member, not once per point.
     *
     * Cost. A follower verifies every version it applies by this
     * fingerprint (docs/ring.md section 20), so it is on the path from a
     * change event to routing by the new ring. The bytes, about 14 a point
     * (1.8 MB for 1,000 nodes x 128 points), go to the digest through one
     * buffer in chunks of CHUNK bytes, for points and table entries alike,
     * so SHA-256 runs over whole blocks instead of three small update()
     * calls a point, whose per-call overhead cost more than the hashing
     * (docs/benchmarks.md, ClientApplyBenchmark). The contract leaves no
     * cheaper exact check: every byte is hashed. Resuming from a SHA-256
     * midstate kept by the previous version would skip only the bytes
     * before the first changed point, and a one-node change moves points
     * all over the ring: about 99% of the bytes are hashed again for a
     * join or a removal, on the md5 ring, ketama and Maglev alike
     * (FingerprintResumeReport), so no midstates are kept.
     *
     * HashRing computes the fingerprint on first use and caches it; a
     * snapshot never changes, so neither does its fingerprint.
     */

    /** Bytes handed to the digest at a time; a line (4 + 200 + 1 bytes at most) always fits. */
    static final int CHUNK = 1 << 14;

    private Fingerprint() {
    }

    /** The fingerprint of {@code ring}; the SHA-256 of zero bytes for a ring without points. */
    static String of(HashRing ring) {
        Node[] members = ring.members;
        byte[][] lines = new byte[members.length][];
        for (int m = 0; m < members.length; m++) {
            byte[] id = members[m].id().getBytes(StandardCharsets.US_ASCII);
            byte[] line = new byte[id.length + 1];
            System.arraycopy(id, 0, line, 0, id.length);
            line[id.length] = 0x0A;
            lines[m] = line;
        }
        MessageDigest sha = KeyHashes.newDigest("SHA-256");
        int[] owners = ring.owners;
        byte[] buf = new byte[CHUNK];
        int w = 0;
        if (ring.isTable()) { // section 15: each entry's owner id and 0x0A, in entry order
            for (int owner : owners) {
                byte[] line = lines[owner];
                if (w + line.length > CHUNK) {
                    sha.update(buf, 0, w);
                    w = 0;
                }
                System.arraycopy(line, 0, buf, w, line.length);
                w += line.length;
            }
        } else { // section 10: each point's 4 bytes big-endian, its owner's id and 0x0A, ascending
            int[] points = ring.points;
            for (int i = 0; i < points.length; i++) {
                byte[] line = lines[owners[i]];
                if (w + 4 + line.length > CHUNK) {
                    sha.update(buf, 0, w);
                    w = 0;
                }
                int p = points[i] ^ HashRing.BIAS;
                buf[w] = (byte) (p >>> 24);
                buf[w + 1] = (byte) (p >>> 16);
                buf[w + 2] = (byte) (p >>> 8);
                buf[w + 3] = (byte) p;
                System.arraycopy(line, 0, buf, w + 4, line.length);
                w += 4 + line.length;
            }
        }
        sha.update(buf, 0, w);
        return KeyHashes.toLowerHex(sha.digest());
    }
}
