package io.ringd.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a chunked state's manifest names (ZooKeeperStateNodes' design note): the chunks' id and
 * count, the state's length and its SHA-256.
 */
record ChunkManifest(String id, int chunks, int length, String sha256) {

    /** How a manifest begins; no gzip stream begins so (gzip's first byte is 0x1f). */
    static final byte[] MAGIC = "ringd-chunked-state/1\n".getBytes(StandardCharsets.US_ASCII);

    /** Whether {@code data}, the data of a state znode, is a manifest (and not a gzipped state). */
    static boolean isManifest(byte[] data) {
        return data != null && data.length >= MAGIC.length
                && Arrays.equals(data, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
    }

    /** The manifest's bytes: {@link #MAGIC}, then its fields, a line each. */
    byte[] bytes() {
        String text = "id=" + id + "\nchunks=" + chunks + "\nlength=" + length + "\nsha256=" + sha256 + "\n";
        byte[] body = text.getBytes(StandardCharsets.US_ASCII);
        byte[] out = Arrays.copyOf(MAGIC, MAGIC.length + body.length);
        System.arraycopy(body, 0, out, MAGIC.length, body.length);
        return out;
    }

    /** The manifest in {@code data}, which begins with {@link #MAGIC}. */
    static ChunkManifest parse(byte[] data) {
        String text = new String(data, MAGIC.length, data.length - MAGIC.length, StandardCharsets.US_ASCII);
        Map<String, String> fields = new TreeMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("a malformed chunk manifest: " + line);
            }
            fields.put(line.substring(0, eq), line.substring(eq + 1));
        }
        try {
            ChunkManifest m = new ChunkManifest(fields.get("id"), Integer.parseInt(fields.get("chunks")),
                    Integer.parseInt(fields.get("length")), fields.get("sha256"));
            if (m.id() == null || !m.id().matches("[0-9a-f]+") || m.chunks() < 1 || m.length() < 0
                    || m.sha256() == null) {
                throw new IllegalArgumentException("a malformed chunk manifest: " + fields);
            }
            return m;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a malformed chunk manifest: " + fields, e);
        }
    }
}
