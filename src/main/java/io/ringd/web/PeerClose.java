package io.ringd.web;

import java.io.IOException;
import java.nio.ByteBuffer;

import jakarta.servlet.ServletRequest;

import org.eclipse.jetty.ee11.servlet.ServletContextRequest;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * Notices, without writing, that the client of a long answer has closed its
 * connection. While an asynchronous answer is open the container reads
 * nothing from its connection, so a client that went away is otherwise
 * found only by the next write failing. This asks the connection's selector
 * to say when it becomes readable: a client of a server-sent-events answer
 * sends nothing more, so readable means closed (or reset). Bytes that do
 * come are dropped, and the watch goes on.
 *
 * <p>The answer must close its connection when it ends ({@code Connection:
 * close}): the watch cannot be withdrawn, so the connection is not used for
 * another request; closing it ends the watch.
 */
public final class PeerClose implements Callback {

    private final EndPoint endPoint;
    private final Runnable onClose;
    private final ByteBuffer scratch = BufferUtil.allocate(64);

    private PeerClose(EndPoint endPoint, Runnable onClose) {
        this.endPoint = endPoint;
        this.onClose = onClose;
    }

    /**
     * Watches the connection of {@code request} (an asynchronous answer already started) and runs
     * {@code onClose} once the client closes it or it fails. Returns false when it cannot watch (another
     * container, or the connection is being read): the caller then finds a closed client by writing.
     */
    public static boolean watch(ServletRequest request, Runnable onClose) {
        ServletContextRequest jetty = ServletContextRequest.getServletContextRequest(request);
        if (jetty == null) {
            return false;
        }
        Connection connection = jetty.getConnectionMetaData().getConnection();
        EndPoint endPoint = connection == null ? null : connection.getEndPoint();
        return endPoint != null && endPoint.tryFillInterested(new PeerClose(endPoint, onClose));
    }

    /** The connection became readable: the client closed it, or sent bytes that are dropped. */
    @Override
    public void succeeded() {
        try {
            BufferUtil.clear(scratch);
            int n = endPoint.fill(scratch);
            if (n < 0 || !endPoint.isOpen()) {
                onClose.run();
            } else if (!endPoint.tryFillInterested(this)) {
                onClose.run(); // someone else reads the connection now: it is no longer this answer's
            }
        } catch (IOException | RuntimeException e) {
            onClose.run();
        }
    }

    /** The connection failed or was closed by the server. */
    @Override
    public void failed(Throwable cause) {
        onClose.run();
    }

    /** Runs on the selector's thread: it reads without blocking and {@code onClose} must not block either. */
    @Override
    public InvocationType getInvocationType() {
        return InvocationType.NON_BLOCKING;
    }
}
