package io.ringd.state;

/**
 * A save found that another writer stored a later version first. The write
 * was not applied; the writer catches up with {@link #latest()} and tries
 * again.
 */
public class StoreConflictException extends RuntimeException {

    private final transient PersistedState latest;

    public StoreConflictException(PersistedState latest) {
        super("another instance stored version " + latest.version() + " first", null, false, false);
        this.latest = latest;
    }

    /** The state stored now. */
    public PersistedState latest() {
        return latest;
    }
}
