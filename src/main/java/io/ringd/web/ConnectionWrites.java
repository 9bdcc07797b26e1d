package io.ringd.web;

import java.nio.ByteBuffer;
import java.util.function.Consumer;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.jetty.ee11.servlet.ServletContextRequest;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.Callback;

/**
 * Writes to the connection of a long answer, past the container's answer
 * machinery. An HTTP/1.1 answer without a length that closes its connection
 * when it ends is delimited by that close: its body is the bytes on the
 * connection after its headers, as they are (no chunks). Writing them
 * straight to the connection skips, on every write, what the container
 * does for an answer (the output buffer, the handlers' write events, the
 * context's scope, the check of the written length against the headers):
 * most of the cost of writing one server-sent event to each of 10,000
 * streams (docs/benchmarks.md, "Fan-out").
 *
 * <p>Only for an answer whose headers are sent ({@code flushBuffer}), that
 * nothing else writes to while these writes go on, and whose end (the
 * container's, on {@code AsyncContext.complete}) comes after the last of
 * them.
 */
public final class ConnectionWrites {

    private final EndPoint endPoint;

    private ConnectionWrites(EndPoint endPoint) {
        this.endPoint = endPoint;
    }

    /**
     * The writes of {@code response}'s connection, or {@code null} when its body is not delimited by the
     * connection's close (chunked, a length, another protocol or container): then write through the response.
     */
    public static ConnectionWrites of(HttpServletRequest request, HttpServletResponse response) {
        if (!response.isCommitted() || response.containsHeader("Content-Length")
                || !"close".equalsIgnoreCase(response.getHeader("Connection"))) {
            return null;
        }
        ServletContextRequest jetty = ServletContextRequest.getServletContextRequest(request);
        if (jetty == null || !(jetty.getConnectionMetaData().getConnection() instanceof HttpConnection http)) {
            return null;
        }
        if (!http.getGenerator().isCommitted() || http.getGenerator().isChunking()) {
            return null;
        }
        return new ConnectionWrites(http.getEndPoint());
    }

    /**
     * Writes that do not wait: each starts writing its bytes and returns, and {@code written} or
     * {@code failed} is called when it ends: on the writing thread when the connection took them at
     * once, else later from the container's threads. One write at a time: the next starts after the
     * last one ended.
     */
    public Async async(Runnable written, Consumer<Throwable> failed) {
        return new Async(new Callback() {
            @Override
            public void succeeded() {
                written.run();
            }

            @Override
            public void failed(Throwable cause) {
                failed.accept(cause);
            }
        });
    }

    /** The writes of {@link #async}: one callback for all of them, since one is in flight at a time. */
    public final class Async {
        private final Callback done;

        private Async(Callback done) {
            this.done = done;
        }

        public void write(byte[] bytes) {
            endPoint.write(done, ByteBuffer.wrap(bytes));
        }
    }
}
