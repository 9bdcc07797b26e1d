package io.ringd.web;

import java.io.IOException;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;

/**
 * The rest of a refused request's body, read and dropped after the answer
 * has been sent, so that a client still sending it reads the answer: a
 * connection closed with bytes unread is reset, and a reset can destroy the
 * answer before the client has read it. At most {@code limit} bytes are
 * read, within {@code timeout}, without a thread (non-blocking reads); then
 * the connection is closed.
 */
final class Swallow implements ReadListener, AsyncListener {

    private final AsyncContext async;
    private final ServletInputStream in;
    private final long limit;
    private final byte[] scratch = new byte[8192];
    private long read;

    private Swallow(AsyncContext async, ServletInputStream in, long limit) {
        this.async = async;
        this.in = in;
        this.limit = limit;
    }

    /**
     * Ends a refused answer whose request has a body not read: the answer is flushed with {@code Connection:
     * close}, then the body is dropped as it comes. A request without a body, or already asynchronous, is left.
     */
    static void rest(HttpServletRequest request, HttpServletResponse response, long limit, long timeoutMillis)
            throws IOException {
        boolean body = request.getContentLengthLong() > 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
        if (!body || request.isAsyncStarted() || !request.isAsyncSupported()) {
            return;
        }
        if (!response.isCommitted()) {
            response.setHeader(HttpHeaders.CONNECTION, "close");
        }
        response.flushBuffer();
        AsyncContext async = request.startAsync();
        async.setTimeout(timeoutMillis);
        Swallow swallow = new Swallow(async, request.getInputStream(), limit);
        async.addListener(swallow);
        try {
            swallow.in.setReadListener(swallow);
        } catch (IllegalStateException | UnsupportedOperationException e) {
            async.complete(); // the body was read already, or cannot be read without blocking
        }
    }

    @Override
    public void onDataAvailable() throws IOException {
        while (in.isReady()) {
            int n = in.read(scratch);
            if (n < 0) {
                return;
            }
            read += n;
            if (read > limit) {
                async.complete();
                return;
            }
        }
    }

    @Override
    public void onAllDataRead() {
        async.complete();
    }

    @Override
    public void onError(Throwable t) {
        async.complete();
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        async.complete();
    }

    @Override
    public void onComplete(AsyncEvent event) {
    }

    @Override
    public void onError(AsyncEvent event) {
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
    }
}
