package io.ringd.bench;

import io.ringd.ring.KeyHash;

import java.nio.charset.StandardCharsets;

/**
 * A weak hash for docs/algorithms.md only, to show why {@code "X#i"} labels
 * need a mixing hash: {@code h = 31 * h + b} over the UTF-8 bytes (unsigned),
 * which for an ASCII string is {@code String.hashCode()}. Labels that differ
 * in their last characters hash to values a few units apart, so a node's
 * points clump. Not a ring hash: it has no name in ring settings.
 */
final class FoldHash implements KeyHash {

    static final FoldHash INSTANCE = new FoldHash();

    private FoldHash() {
    }

    @Override
    public int hash(String key) {
        int h = 0;
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            h = 31 * h + (b & 0xff);
        }
        return h;
    }

    @Override
    public String toString() {
        return "fold31 (h = 31 * h + byte, as String.hashCode)";
    }
}
