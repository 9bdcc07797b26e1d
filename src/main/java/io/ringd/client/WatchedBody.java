package io.ringd.client;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;

/**
 * A response body whose reads are timed, which {@link RingFollower}'s watchdog closes when it
 * stays silent too long: a read then fails saying so, and the follower reconnects.
 */
final class WatchedBody extends FilterInputStream {

    final long timeoutNanos;
    volatile long lastProgressNanos = System.nanoTime();
    volatile boolean silent;

    WatchedBody(InputStream in, long timeoutNanos) {
        super(in);
        this.timeoutNanos = timeoutNanos;
    }

    @Override
    public int read() throws IOException {
        int b = checked(super.read());
        if (b >= 0) {
            lastProgressNanos = System.nanoTime();
        }
        return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
        int n;
        try {
            n = super.read(buf, off, len);
        } catch (IOException e) {
            if (silent) {
                throw silence();
            }
            throw e;
        }
        checked(n);
        if (n > 0) {
            lastProgressNanos = System.nanoTime();
        }
        return n;
    }

    private int checked(int n) throws IOException {
        if (silent) {
            throw silence();
        }
        return n;
    }

    private IOException silence() {
        return new IOException("nothing heard from the server for "
                + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms; reconnecting");
    }

    void abort(boolean forSilence) {
        silent |= forSilence;
        try {
            in.close();
        } catch (IOException e) {
            // closing is all that was wanted
        }
    }
}
