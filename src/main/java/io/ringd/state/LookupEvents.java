package io.ringd.state;

/**
 * What serving lookups reports for the metrics: keys routed, bounded-load
 * answers and clients that hold an older version. Implementations only
 * count; they are called on the request path.
 */
public interface LookupEvents {

    /** Counts nothing: for a context without metrics. */
    LookupEvents NONE = new LookupEvents() {
        @Override
        public void routed(long version, String node, int count) {
        }

        @Override
        public void stale(long lag) {
        }
    };

    /**
     * {@code count} keys answered with {@code node} at {@code version}; only
     * answers at the current version count, so callers report every one. A
     * batch reports each node once. A bounded-load answer reports the node
     * that answered, and also {@link #bounded}.
     */
    void routed(long version, String node, int count);

    /** One key answered with {@code node} at {@code version}: {@code routed(version, node, 1)}. */
    default void routed(long version, String node) {
        routed(version, node, 1);
    }

    /**
     * A bounded-load answer ({@code /route?bound=c}) at {@code version} that
     * passed over {@code skipped} nodes of the key's preference order; like
     * {@link #routed}, only answers at the current version count.
     */
    default void bounded(long version, int skipped) {
    }

    /** A request from a client {@code lag} versions behind. */
    void stale(long lag);

    /**
     * A request from a client whose {@code X-Ring-Version} is ahead of this
     * instance's version: it has seen another ring (a memory store since
     * restarted) or a newer instance. The answer ignores it (docs/ring.md section 17).
     */
    default void ahead() {
    }
}
