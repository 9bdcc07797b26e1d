package io.ringd.web;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * A deadline for a request's line and headers as a whole. Jetty reads
 * headers without holding a thread, but its idle timeout bounds only the gap
 * between two bytes: a client sending a header byte every few seconds would
 * keep its connection and buffers for hours. Every 200 ms this closes the
 * connections whose request began (its first byte) more than the deadline
 * ago and whose headers have still not ended (no answer: the client has not
 * finished asking). A request whose headers have ended is no longer its
 * concern: {@link BodyArrival} bounds its body.
 */
final class HeaderDeadline extends AbstractLifeCycle implements Connection.Listener {

    private static final long SWEEP_MILLIS = 200;

    private final Server server;
    private final long limitNanos;
    /** The open HTTP/1.1 connections, kept as they open and close (asking the selectors for them costs more). */
    private final Set<HttpConnection> connections = ConcurrentHashMap.newKeySet();
    private Scheduler.Task sweep;

    HeaderDeadline(Server server, long headerTimeoutMillis) {
        this.server = server;
        this.limitNanos = TimeUnit.MILLISECONDS.toNanos(headerTimeoutMillis);
        for (Connector connector : server.getConnectors()) {
            connector.addEventListener(this);
        }
    }

    @Override
    public void onOpened(Connection connection) {
        if (connection instanceof HttpConnection http) {
            connections.add(http);
        }
    }

    @Override
    public void onClosed(Connection connection) {
        if (connection instanceof HttpConnection http) {
            connections.remove(http);
        }
    }

    @Override
    protected void doStart() {
        schedule();
    }

    @Override
    protected void doStop() {
        Scheduler.Task task = sweep;
        if (task != null) {
            task.cancel();
        }
    }

    private void schedule() {
        if (isRunning() || isStarting()) {
            sweep = server.getScheduler().schedule(this::sweep, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    private void sweep() {
        try {
            closeLateHeaders(System.nanoTime());
        } finally {
            schedule();
        }
    }

    /** Ends every connection whose request line and headers have taken longer than the deadline at {@code now}. */
    void closeLateHeaders(long now) {
        for (HttpConnection connection : connections) {
            HttpParser parser = connection.getParser();
            // START: no byte of a request yet (a new or kept-alive connection, the idle timeout's concern)
            if (!parser.isStart() && parser.inHeaderState() && now - parser.getBeginNanoTime() > limitNanos) {
                connection.getEndPoint().close();
            }
        }
    }
}
