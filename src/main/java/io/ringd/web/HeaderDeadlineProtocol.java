package io.ringd.web;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.apache.coyote.Processor;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.net.NioChannel;
import org.apache.tomcat.util.net.SocketEvent;
import org.apache.tomcat.util.net.SocketWrapperBase;

/**
 * Tomcat's NIO HTTP/1.1 connector with a deadline for the request line and
 * headers as a whole. Tomcat reads headers without holding a thread, but
 * its {@code connectionTimeout} bounds only the gap between two bytes: a
 * client sending a header byte every few seconds would keep its connection
 * and buffers for hours (32 KiB of headers). Every 200 ms this closes the
 * connections whose request began (its first byte) more than
 * {@link #setHeaderTimeout header-timeout} ago and whose headers have still
 * not ended, through the connector's own error path (no answer: the client
 * has not finished asking). A request whose headers have ended is no
 * longer its concern: {@link BodyArrival} bounds its body.
 */
public class HeaderDeadlineProtocol extends Http11NioProtocol {

    private static final long SWEEP_MILLIS = 200;

    private volatile long headerTimeoutNanos = TimeUnit.SECONDS.toNanos(10);
    private ScheduledFuture<?> sweep;

    /** The most a request's line and headers may take, from their first byte, in milliseconds. */
    public void setHeaderTimeout(long millis) {
        this.headerTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(millis);
    }

    public long getHeaderTimeout() {
        return TimeUnit.NANOSECONDS.toMillis(headerTimeoutNanos);
    }

    @Override
    public void start() throws Exception {
        super.start();
        sweep = getUtilityExecutor().scheduleWithFixedDelay(this::closeLateHeaders, SWEEP_MILLIS, SWEEP_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() throws Exception {
        if (sweep != null) {
            sweep.cancel(false);
            sweep = null;
        }
        super.stop();
    }

    /** Ends every connection whose request line and headers have taken longer than the deadline. */
    void closeLateHeaders() {
        long now = System.nanoTime();
        long limit = headerTimeoutNanos;
        for (SocketWrapperBase<NioChannel> socket : getEndpoint().getConnections()) {
            // A processor stays with a waiting connection only part-way through a request: its headers (neither
            // asynchronous nor upgraded), or an asynchronous request such as a body arriving or a stream. While
            // a worker thread runs a request the connection holds no processor.
            if (socket.getCurrentProcessor() instanceof Processor processor && !processor.isAsync()
                    && !processor.isUpgrade()) {
                long start = processor.getRequest().getStartTimeNanos(); // -1 until the request's first byte
                if (start != -1 && now - start > limit) {
                    getEndpoint().processSocket(socket, SocketEvent.ERROR, true);
                }
            }
        }
    }
}
