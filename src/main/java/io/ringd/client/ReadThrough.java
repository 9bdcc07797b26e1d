package io.ringd.client;

/**
 * What {@link RingClient#readThrough(String, Loader)} found: the value, and
 * which node gave it, the key's owner or a node that held it before
 * (docs/ring.md section 21).
 *
 * @param key      the key read
 * @param owner    the key's owner in the ring the read was routed by, asked first (where a value found
 *                 on a previous owner belongs)
 * @param value    the value, or {@code null} when no node asked had it
 * @param node     the node that answered, or {@code null} when none did
 * @param fromPrevious whether that node is a previous owner rather than the owner (so the caller may copy
 *                 the value to the owner)
 * @param asked    how many nodes were asked, the owner included
 * @param <V>      the value's type
 */
public record ReadThrough<V>(String key, String owner, V value, String node, boolean fromPrevious, int asked) {

    /** Whether some node had the key. */
    public boolean found() {
        return node != null;
    }

    /**
     * Reads a key from one node: the value it holds, or {@code null} when it
     * does not hold the key (a miss; a node that is gone or unreachable should
     * answer a miss too, so the next one is asked).
     *
     * @param <V> the value's type
     */
    @FunctionalInterface
    public interface Loader<V> {
        V load(String node, String key);
    }
}
