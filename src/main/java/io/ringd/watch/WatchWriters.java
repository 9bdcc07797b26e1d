package io.ringd.watch;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that write to the {@code /ring/events} streams: the writers'
 * pool (ringd.watch.writers threads, more while writes hold threads), and
 * the closer that ends answers off the commit's thread.
 */
final class WatchWriters {

    /** Streams a writer drains in a row before it takes the next run of a fan-out. */
    static final int RUN = 64;

    private final int writers;
    private final ThreadPoolExecutor pool;
    private final ExecutorService closer = Executors.newSingleThreadExecutor(daemons("ringd-watch-closer-"));

    WatchWriters(int writers) {
        this.writers = writers;
        this.pool = new ThreadPoolExecutor(writers, writers, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                daemons("ringd-watch-writer-"));
    }

    ThreadPoolExecutor pool() {
        return pool;
    }

    ExecutorService closer() {
        return closer;
    }

    /**
     * Has the writers drain {@code claimed}, streams whose drains a fan-out claimed
     * ({@link WatchStream#offerClaimed}): a few tasks that take them in runs of {@link #RUN}, not one
     * task per stream, so that an event reaches 10,000 streams for little more than the writes' own
     * cost (docs/benchmarks.md, "Fan-out").
     */
    void drain(List<WatchStream> claimed) {
        if (claimed.isEmpty()) {
            return;
        }
        AtomicInteger next = new AtomicInteger();
        Runnable run = () -> {
            for (int from; (from = next.getAndAdd(RUN)) < claimed.size();) {
                for (int i = from, to = Math.min(claimed.size(), from + RUN); i < to; i++) {
                    claimed.get(i).drainClaimed();
                }
            }
        };
        int tasks = Math.min(writers, (claimed.size() + RUN - 1) / RUN);
        for (int t = 0; t < tasks; t++) {
            try {
                pool.execute(run);
            } catch (RejectedExecutionException e) { // the pool is shut down: the streams end here
                claimed.forEach(s -> s.close("the server is stopping"));
                run.run();
                return;
            }
        }
    }

    /** Sets the pool to {@code size} threads: the writers, and one for each write that holds a thread too long. */
    void resize(int size) {
        if (size > pool.getMaximumPoolSize()) {
            pool.setMaximumPoolSize(size);
            pool.setCorePoolSize(size);
        } else if (size < pool.getCorePoolSize()) {
            pool.setCorePoolSize(size);
            pool.setMaximumPoolSize(size);
        }
    }

    void shutdown() {
        pool.shutdownNow();
        closer.shutdown();
    }

    static ThreadFactory daemons(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
