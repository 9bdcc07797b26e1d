package io.ringd.state;

/**
 * A write the movement guard refused ({@link MovementGuard}): it would move
 * more of the hash space than {@code ringd.guard.max-moved-share}. Nothing
 * was changed; the same write forced is made whatever it moves. 409 over
 * HTTP, with the shares.
 */
public final class MovementRefusedException extends RuntimeException {

    /** The setting that bounds a write's moved share. */
    public static final String SETTING = "ringd.guard.max-moved-share";

    private final long movedCount;
    private final double movedShare;
    private final double maxMovedShare;

    public MovementRefusedException(long movedCount, double movedShare, double maxMovedShare) {
        super("the change would move " + movedShare + " of the hash space (" + movedCount
                + " hash values), more than " + SETTING + " (" + maxMovedShare + ") allows; nothing was changed");
        this.movedCount = movedCount;
        this.movedShare = movedShare;
        this.maxMovedShare = maxMovedShare;
    }

    /** The hash values the write would move. */
    public long movedCount() {
        return movedCount;
    }

    /** {@code movedCount / 2^32}. */
    public double movedShare() {
        return movedShare;
    }

    /** The guard's share, which {@link #movedShare()} passes. */
    public double maxMovedShare() {
        return maxMovedShare;
    }
}
