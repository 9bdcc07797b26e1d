package io.ringd.ring;

/**
 * The versions a {@link HandoffIndex} walks when they have no common coordinate (its design note):
 * each version's owner of a key or a hash value, newest first.
 */
abstract class HandoffWalk {

    /**
     * The owner at position {@code p} of {@code key}, or of the hash value {@code hash} when key is
     * null ({@code null}: no owner), given {@code next}, the owner at {@code p + 1} (unused at the
     * newest). Callers go from the newest position down.
     */
    abstract String owner(int p, String key, int hash, String next);

    /** An estimate of the heap the walk holds beyond the newest ring and what a trail holds anyway. */
    abstract long memoryBytes();

    /** A version's own owner: null for an empty ring. */
    static String owner(HashRing r, String key, int hash) {
        return r.isEmpty() ? null : key != null ? r.route(key) : r.routeHash(hash & 0xFFFF_FFFFL);
    }

    /** Whole rings, oldest first: each routes the key itself. */
    static HandoffWalk of(HashRing[] rings) {
        return new HandoffWalk() {
            @Override
            String owner(int p, String key, int hash, String next) {
                return owner(rings[p], key, hash);
            }

            @Override
            long memoryBytes() {
                long bytes = 0;
                for (int p = 0; p < rings.length - 1; p++) {
                    bytes += rings[p].memoryBytes();
                }
                return bytes;
            }
        };
    }

    /**
     * A trail's versions: the newest ring, and each older version relative to the next one
     * ({@link HandoffDelta#owner}). What they hold is the trail's, so the walk counts nothing.
     */
    static HandoffWalk of(HashRing current, HandoffDelta[] older) {
        return new HandoffWalk() {
            @Override
            String owner(int p, String key, int hash, String next) {
                return p == older.length ? owner(current, key, hash) : older[p].owner(key, hash, next);
            }

            @Override
            long memoryBytes() {
                return 0;
            }
        };
    }
}
