package io.ringd.ring;

/**
 * A hash from a string to the ring's 32-bit hash space.
 *
 * <p>The result is an unsigned 32-bit value carried in an {@code int}; use
 * {@link Integer#toUnsignedLong(int)} to read it. Implementations must be pure
 * and thread-safe. The named functions live in {@link KeyHashes}; tests may
 * inject any function.
 */
@FunctionalInterface
public interface KeyHash {

    /** Hashes {@code key} (over its UTF-8 bytes for the named functions). */
    int hash(String key);

    /** The name this function is known by in ring settings, or {@code "custom"}. */
    default String name() {
        return "custom";
    }

    /** The hash of {@code key} as an unsigned value in {@code 0 .. 2^32-1}. */
    default long hashUnsigned(String key) {
        return Integer.toUnsignedLong(hash(key));
    }
}
