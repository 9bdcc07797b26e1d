package io.ringd.state;

/** A version that cannot be answered for: never made, no longer kept, or not the one expected. */
public abstract class VersionException extends RuntimeException {

    private final long version;

    VersionException(long version, String message) {
        super(message);
        this.version = version;
    }

    public long version() {
        return version;
    }

    /** A version the ring has not reached. */
    public static final class NotMade extends VersionException {
        public NotMade(long version, long current) {
            super(version, "version " + version + " was never made; the current version is " + current);
        }
    }

    /** A version older than the history keeps. */
    public static final class Gone extends VersionException {
        public Gone(long version, long oldest) {
            super(version, "version " + version + " is no longer kept; the oldest kept is " + oldest);
        }
    }

    /** A write expected another version than the current one. */
    public static final class Mismatch extends VersionException {
        public Mismatch(long expected, long current) {
            super(expected, "the write expected version " + expected + " but the ring is at version " + current);
        }
    }
}
