package io.ringd.state;

import java.util.function.Consumer;

/**
 * Where a ring's planned changes are kept (docs/ring.md section 24): one
 * document, replaced by compare-and-set, durable before a write returns, and,
 * with a shared store, the choice of the one instance that drives the ring's
 * plans. The document's form is the plans feature's; the store keeps bytes.
 */
public interface PlanStore extends AutoCloseable {

    /**
     * The stored document and its stamp.
     *
     * @param document the bytes stored, or {@code null} when none was ever stored
     * @param stamp    what {@link #write} compares: changes with every write
     */
    record Stored(byte[] document, long stamp) {
    }

    /**
     * The document stored now.
     *
     * @throws StoreUnavailableException if it cannot be read now
     */
    Stored read();

    /**
     * Replaces the document, only if its stamp is still {@code stamp}; durable
     * when it returns true.
     *
     * @return false when another write came first (read again)
     * @throws StoreUnavailableException if it could not be made durable
     */
    boolean write(byte[] document, long stamp);

    /**
     * Calls {@code onChange} whenever another instance may have changed the document. A store with one
     * writer never calls it.
     */
    default void follow(Runnable onChange) {
    }

    /**
     * Takes part in choosing the one instance that drives the ring's plans:
     * {@code onLead} is told {@code true} when this instance becomes the
     * driver and {@code false} when it stops being it (its session lost). A
     * store with one writer makes it the driver at once.
     */
    default void lead(Consumer<Boolean> onLead) {
        onLead.accept(true);
    }

    /** Whether this instance drives the ring's plans now. */
    default boolean leads() {
        return true;
    }

    /** Where it lives, for logs. */
    String describe();

    /** Stops following and leading; keeps what is stored. */
    @Override
    default void close() {
    }

    /** A store in this process's memory: lost when it ends. */
    static PlanStore inMemory() {
        return new PlanStore() {
            private Stored stored = new Stored(null, 0);

            @Override
            public synchronized Stored read() {
                return stored;
            }

            @Override
            public synchronized boolean write(byte[] document, long stamp) {
                if (stamp != stored.stamp()) {
                    return false;
                }
                stored = new Stored(document.clone(), stamp + 1);
                return true;
            }

            @Override
            public String describe() {
                return "memory";
            }
        };
    }
}
