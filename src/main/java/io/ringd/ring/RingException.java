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
}
