package io.ringd.web;

/** What the request path reports for the metrics; implementations must only count. */
public interface LookupEvents {

    /** Counts nothing: for a context without metrics. */
    LookupEvents NONE = new LookupEvents() {
        @Override
        public void routed(long version, String node) {
        }

        @Override
        public void stale(long lag) {
        }
    };

    /**
     * A key answered with {@code node} by {@code /route} at {@code version};
     * only answers at the current version count, so callers report every one.
     */
    void routed(long version, String node);

    /** A request from a client {@code lag} versions behind. */
    void stale(long lag);
}
