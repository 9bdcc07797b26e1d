package io.ringd.state;

import java.util.Map;
import java.util.function.Consumer;

/**
 * A place in a shared store where every instance serving a ring posts one
 * small document of its own, and reads every other instance's: how the
 * instances of a ring share what each alone was told (the followers that
 * reported to it, docs/ring.md section 23) without a store write per report.
 * A document vanishes with the instance that posted it (its session).
 */
public interface SharedBoard extends AutoCloseable {

    /** This instance's id on the board, unique among the instances. */
    String instance();

    /**
     * Replaces this instance's document with {@code document}. May block on
     * the store; never called on a request thread.
     *
     * @throws StoreUnavailableException when the store cannot be written now (the next post tries again)
     */
    void post(byte[] document);

    /**
     * Calls {@code onChange} with every other instance's latest document
     * (instance id to bytes) now and whenever one is posted or vanishes, on
     * the store's thread; it must not block.
     */
    void follow(Consumer<Map<String, byte[]>> onChange);

    /** Stops following and takes this instance's document down. */
    @Override
    void close();
}
