package io.ringd.state;

/**
 * The shared store no longer holds the ring this instance serves: it holds
 * none (a ZooKeeper path wiped or deleted) or another one (another
 * incarnation). The instance keeps its ring for lookups and refuses writes
 * until an operator re-seeds the store (docs/ring.md section 20); a new
 * instance does not start a ring of its own there.
 */
public class StoreLostException extends RuntimeException {

    public StoreLostException(String message) {
        super(message, null, false, false);
    }

    /** What a refused write is told: the cause, and the way out. */
    public String detail() {
        return getMessage() + ": the change was not applied; an operator restores the store from a ring an "
                + "instance still holds (POST /store/reseed)";
    }
}
