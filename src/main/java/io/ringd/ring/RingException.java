package io.ringd.ring;

/** Base of the ring's own failures; each subclass names one cause. */
public abstract class RingException extends RuntimeException {

    RingException(String message) {
        super(message);
    }

    /** A lookup on a ring that has no node owning a point. */
    public static final class NoNodes extends RingException {
        public NoNodes() {
            super("the ring has no nodes");
        }
    }

    /** A change or query names a node that is not a member. */
    public static final class UnknownNode extends RingException {
        private final String id;

        public UnknownNode(String id) {
            super("no node with id " + id);
            this.id = id;
        }

        public String id() {
            return id;
        }
    }

    /** A change would take the ring past its node or point limit. */
    public static final class LimitExceeded extends RingException {
        public LimitExceeded(String message) {
            super(message);
        }
    }

    /** A batch of changes that cannot be applied as a whole (an id twice). */
    public static final class InvalidBatch extends RingException {
        private final String id;

        public InvalidBatch(String message, String id) {
            super(message);
            this.id = id;
        }

        public String id() {
            return id;
        }
    }

    /** Two members would be placed by the same string (a node's hashKey, or its id when it has none). */
    public static final class DuplicatePlacement extends RingException {
        private final String id;

        /**
         * @param id        a node of the pair
         * @param other     the other node
         * @param hashed    the one of the two whose hashKey makes the clash (the change to look at)
         * @param placement the string both would be placed by
         */
        public DuplicatePlacement(String id, String other, String hashed, String placement) {
            super("nodes " + (id.compareTo(other) < 0 ? id + " and " + other : other + " and " + id)
                    + " would both be placed by \"" + (placement.length() > 64 ? placement.substring(0, 64) + "..."
                            : placement) + "\" (a hashKey, or an id where a node has none): give " + hashed
                    + " a hashKey of its own");
            this.id = hashed;
        }

        /** The node whose hashKey makes the clash. */
        public String id() {
            return id;
        }
    }
}
