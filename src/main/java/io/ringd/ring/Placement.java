package io.ringd.ring;

/**
 * Something that sends keys to nodes: what the placements ringd serves
 * ({@link HashRing}: ring, ketama, Maglev) and the ones it only compares
 * them with ({@link RendezvousHash}, {@link JumpHash}) have in common, so
 * one harness can measure balance and movement for all of them.
 *
 * <p>Implementations are immutable and thread-safe. A key is hashed once
 * to a value in {@code 0 .. 2^32-1} ({@link #hash(String)}), and
 * {@code route(key)} is {@code routeHash(hash(key))}.
 */
public interface Placement {

    /**
     * The node {@code key} goes to.
     *
     * @throws RingException.NoNodes when there is no node
     */
    String route(String key);

    /**
     * The node a key hash goes to.
     *
     * @throws IllegalArgumentException if {@code hash} is outside {@code 0 .. 2^32-1}
     * @throws RingException.NoNodes    when there is no node
     */
    String routeHash(long hash);

    /** The hash of {@code key}, unsigned, in {@code 0 .. 2^32-1}. */
    long hash(String key);
}
