package io.ringd.state;

/**
 * The load of each member, for bounded-load lookups (docs/ring.md section 19): a
 * value an admin reported, or else a decayed count of the keys routed to it.
 * Lookups count the keys they answer into it and read it; the load feature
 * implements it (with its admin calls), the metrics export it.
 *
 * <p>Loads follow the members of the ring and never change them: a member
 * that leaves drops its load, one that joins starts at 0. Implementations
 * are called on the request path and take no lock there.
 */
public interface NodeLoads {

    /** No loads: every load is 0 and nothing is counted, so every member is within any bound. */
    NodeLoads NONE = new NodeLoads() {
        @Override
        public void routed(long version, String node, int count) {
        }

        @Override
        public Reading read() {
            return Reading.ZERO;
        }

        @Override
        public double load(String node) {
            return 0;
        }
    };

    /**
     * {@code count} keys answered with {@code node} at {@code version} at one
     * instant; counted only when {@code version} is the one whose members the
     * loads follow (the current one), so callers report every answer. A
     * decayed count weighs them {@code count} times one key; a batch reports
     * each node once.
     */
    void routed(long version, String node, int count);

    /** One key answered with {@code node} at {@code version}: {@code routed(version, node, 1)}. */
    default void routed(long version, String node) {
        routed(version, node, 1);
    }

    /** Every member's load, read at one instant. */
    Reading read();

    /** One member's load now; 0 for a node that is not a member. */
    double load(String node);

    /** The loads of every member at one instant. */
    interface Reading {

        /** No members, or every load 0. */
        Reading ZERO = new Reading() {
            @Override
            public double mean() {
                return 0;
            }

            @Override
            public double load(String node) {
                return 0;
            }
        };

        /** The mean load over every member (those that own no point included); 0 without members. */
        double mean();

        /** A member's load at the instant of this reading; 0 for a node that is not a member. */
        double load(String node);
    }
}
