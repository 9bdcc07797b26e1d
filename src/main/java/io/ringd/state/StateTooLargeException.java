package io.ringd.state;

/**
 * A write whose encoded state is larger than the store takes ({@code ringd.zookeeper.max-state-bytes}):
 * refused before anything was written, so nothing was changed.
 */
public class StateTooLargeException extends RuntimeException {

    private final long size;
    private final long cap;

    public StateTooLargeException(long size, long cap, String setting) {
        super("the ring's encoded state would be " + size + " bytes, over the store's cap of " + cap + " bytes ("
                + setting + ")", null, false, false);
        this.size = size;
        this.cap = cap;
    }

    /** The encoded size of the refused state, in bytes. */
    public long size() {
        return size;
    }

    /** The cap it is over, in bytes. */
    public long cap() {
        return cap;
    }
}
