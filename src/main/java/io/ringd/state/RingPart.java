package io.ringd.state;

/**
 * Something kept for each ring beside its {@link RingService}: its metrics, its change streams, its loads.
 * {@link Rings} attaches every part to a ring before the ring loads, so the part's listener is told of its
 * first version, and detaches them when the ring is deleted.
 */
public interface RingPart {

    /**
     * What this part keeps for {@code ring}: a {@link RingListener} (then told of each of its versions), a
     * {@link NodeLoads}, a {@link LookupEvents} or any object, found again with {@link ServedRing#part}.
     * {@code ring}'s service is built but not started.
     */
    Object attach(ServedRing ring);

    /** {@code ring} was deleted: release what {@link #attach} made for it (end its streams, remove its meters). */
    default void detach(ServedRing ring) {
    }
}
