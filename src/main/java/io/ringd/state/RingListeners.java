package io.ringd.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link RingListener}s of one {@link RingService}, and how they are told: of each swap (a listener that
 * fails is logged and the others told all the same, but at start-up, where its failure fails the start), and
 * of each write the movement guard refuses.
 */
final class RingListeners {

    /** Logged under the service's name, as before the listeners had their own class. */
    private static final Logger log = LoggerFactory.getLogger(RingService.class);

    private volatile List<RingListener> listeners;

    RingListeners(List<RingListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    /** Adds a listener; the service allows it only before it starts. */
    void add(RingListener listener) {
        List<RingListener> all = new ArrayList<>(listeners);
        all.add(Objects.requireNonNull(listener, "listener"));
        listeners = List.copyOf(all);
    }

    /** Tells every listener of the swap from {@code previous} to {@code next}. */
    void swapped(RingState previous, RingState next, RingListener.Op op) {
        for (RingListener l : listeners) {
            try {
                l.ringSwapped(previous, next, op);
            } catch (RuntimeException e) {
                if (op == RingListener.Op.START) {
                    throw e;
                }
                log.warn("A ring listener failed on version {}", next.version(), e);
            }
        }
    }

    /** Tells every listener that the movement guard refused a write built on {@code cur}. */
    void movementRefused(RingState cur, RingListener.Op op, MovementRefusedException e) {
        for (RingListener l : listeners) {
            try {
                l.movementRefused(cur, op, e);
            } catch (RuntimeException failed) {
                log.warn("A ring listener failed on a refused write at version {}", cur.version(), failed);
            }
        }
    }
}
