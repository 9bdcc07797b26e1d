package io.ringd.web;

/** What the request path reports for the metrics; implementations must only count. */
public interface LookupEvents {

    /** A key answered with {@code node} by {@code /route} at the current version {@code version}. */
    void routed(long version, String node);

    /** A request from a client {@code lag} versions behind. */
    void stale(long lag);
}
