package io.ringd.state;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import com.google.common.cache.Cache;

/**
 * Expensive results computed once per key however many ask at once, kept in
 * a cache: the first to miss computes through the gate of expensive reads;
 * the others wait for that computation, but only as long as the gate lets
 * anyone wait, and are then refused busy as well, so that no request thread
 * waits long behind another's work.
 *
 * @param <K> the key
 * @param <V> the result
 */
public final class SingleFlight<K, V> {

    private final Cache<K, V> done;
    private final ExpensiveReads reads;
    private final ConcurrentHashMap<K, CompletableFuture<V>> running = new ConcurrentHashMap<>();

    /** Results kept in {@code done} (its size and weights are the caller's), computed through {@code reads}. */
    public SingleFlight(Cache<K, V> done, ExpensiveReads reads) {
        this.done = done;
        this.reads = reads;
    }

    /**
     * The result for {@code key}: cached, being computed for another request
     * (waited for), or computed now by {@code work}.
     *
     * @throws BusyException when no permit frees, or another's computation does not end, within the wait
     */
    public V get(K key, String what, Supplier<V> work) {
        V cached = done.getIfPresent(key);
        if (cached != null) {
            return cached;
        }
        CompletableFuture<V> mine = new CompletableFuture<>();
        CompletableFuture<V> theirs = running.putIfAbsent(key, mine);
        if (theirs == null) {
            try {
                V value = done.getIfPresent(key); // done between the first look and now
                if (value == null) {
                    value = reads.run(what, work);
                    done.put(key, value);
                }
                mine.complete(value);
                return value;
            } catch (RuntimeException | Error e) {
                mine.completeExceptionally(e);
                throw e;
            } finally {
                running.remove(key, mine);
            }
        }
        try {
            return theirs.get(reads.waitNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new BusyException("another request is computing what this one asks (" + what
                    + "); try again in a second");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(what + " failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BusyException("interrupted while waiting to " + what);
        }
    }

    /** The result for {@code key} if it is cached, else {@code null}; computes nothing. */
    public V cached(K key) {
        return done.getIfPresent(key);
    }

    /** The results cached now. */
    public long size() {
        return done.size();
    }

    /** Forgets every cached result (computations under way finish, and are kept). */
    public void invalidateAll() {
        done.invalidateAll();
    }
}
