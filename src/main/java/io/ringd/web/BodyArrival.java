package io.ringd.web;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.jetty.http.HttpException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import io.ringd.state.Rings;
import io.ringd.web.problem.ProblemWriter;
import io.ringd.web.problem.Problems;

/**
 * Receives every request body before anything reads it, without a thread:
 * the request goes asynchronous ({@code startAsync}) and a
 * {@link ReadListener} gathers the bytes as the container has them; once the
 * body is whole the request is dispatched again to the same path, and the
 * rest of the chain reads the gathered bytes through {@link CheckedBody}, as
 * it read the socket before (the same 400 and 413 answers). So a client
 * that trickles its body holds a connection and the bytes it sent, never
 * one of the container's worker threads, which stay free for lookups and
 * health.
 * <p>
 * A body must arrive within {@code ringd.http.body-timeout} of the end of
 * the headers: past it the answer is 408 ({@code body-timeout}) and the
 * connection is closed, the request never having reached a handler. The
 * bytes held for all bodies being received are bounded by
 * {@code ringd.http.body-memory}: a body that would pass it is refused with
 * 503 ({@code busy}, {@code Retry-After}). More than 4 MiB are not read:
 * the handler gets the first 4 MiB and one byte more, which
 * {@link CheckedBody} refuses with 413, and the connection is closed rather
 * than drained. It runs after {@link RequestGuardFilter}, so what the
 * headers alone refuse is refused before a byte of the body is awaited.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
class BodyArrival extends OncePerRequestFilter {

    /** The request attribute that holds a body once it has arrived. */
    static final String BODY = BodyArrival.class.getName() + ".body";
    /** The first array of a body: small, so that a thousand trickling bodies hold little of the budget. */
    private static final int FIRST = 512;

    private final HttpProperties settings;
    private final ProblemWriter problems;
    private final Rings rings;
    private final AtomicLong held = new AtomicLong();

    BodyArrival(HttpProperties settings, ProblemWriter problems, Rings rings) {
        this.settings = settings;
        this.problems = problems;
        this.rings = rings;
    }

    /** The body bytes held now, for all requests whose bodies are arriving or being handled. */
    long held() {
        return held.get();
    }

    @Override
    protected boolean shouldNotFilterAsyncDispatch() {
        return false; // the dispatch after the body has arrived must find it
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (isAsyncDispatch(request)) {
            Object body = request.getAttribute(BODY);
            chain.doFilter(body instanceof Body b ? new CheckedBody(new Arrived(request, b),
                    RequestGuardFilter.MAX_BODY_BYTES) : request, response);
            return;
        }
        long length = request.getContentLengthLong();
        boolean hasBody = length > 0 || length < 0 && request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
        if (!hasBody || !request.isAsyncSupported()) {
            chain.doFilter(request, response);
            return;
        }
        ServletRequest container = request;
        while (container instanceof ServletRequestWrapper w) {
            container = w.getRequest(); // the socket's bytes, not CheckedBody's: it checks them on the dispatch
        }
        AsyncContext async = request.startAsync();
        async.setTimeout(settings.bodyTimeout().toMillis());
        Receiver receiver = new Receiver(request, response, async, container.getInputStream(), length);
        async.addListener(receiver);
        try {
            receiver.in.setReadListener(receiver);
        } catch (UnsupportedOperationException e) {
            // A container without non-blocking reads (a mock of one, in a test of a controller): the chain
            // reads the body as it comes, on this thread, as it did before.
            async.complete();
            chain.doFilter(request, response);
        }
    }

    /** The bytes of one body as they arrive, and what is done once they have (or have not). */
    private final class Receiver implements ReadListener, AsyncListener {
        private final HttpServletRequest request;
        private final HttpServletResponse response;
        private final AsyncContext async;
        private final ServletInputStream in;
        private final long announced;
        private final AtomicBoolean decided = new AtomicBoolean();
        private final Body body = new Body();
        private long reserved;
        /** Answered 503 already: what still comes is read and dropped, so that the client reads the answer. */
        private boolean refused;

        Receiver(HttpServletRequest request, HttpServletResponse response, AsyncContext async, ServletInputStream in,
                long announced) {
            this.request = request;
            this.response = response;
            this.async = async;
            this.in = in;
            this.announced = announced;
        }

        @Override
        public void onDataAvailable() throws IOException {
            if (refused) {
                drain();
                return;
            }
            long most = RequestGuardFilter.MAX_BODY_BYTES + 1; // one byte more: CheckedBody's 413
            while (!decided.get() && in.isReady()) {
                if (!room(body.length + 1)) {
                    refuseBusy();
                    return;
                }
                int n = in.read(body.bytes, body.length, (int) Math.min(body.bytes.length - body.length,
                        most - body.length)); // a failure comes back through onError(AsyncEvent)
                if (n < 0) {
                    break;
                }
                body.length += n;
                if (body.length >= most) {
                    response.setHeader(HttpHeaders.CONNECTION, "close"); // the rest is never read
                    arrived();
                    return;
                }
            }
        }

        /** Whether the body's array can hold {@code needed} bytes, grown within the budget if need be. */
        private boolean room(int needed) {
            if (needed <= body.bytes.length) {
                return true;
            }
            long most = RequestGuardFilter.MAX_BODY_BYTES + 1;
            long size = Math.min(most, Math.max(needed, Math.max(FIRST, 2L * body.bytes.length)));
            if (announced > 0 && announced >= needed && announced < size) {
                size = announced; // the whole body, and not a byte more
            }
            long more = size - body.bytes.length;
            long budget = settings.bodyMemory().toBytes();
            for (long h = held.get();; h = held.get()) {
                if (h + more > budget) {
                    return false;
                }
                if (held.compareAndSet(h, h + more)) {
                    break;
                }
            }
            reserved += more;
            body.bytes = java.util.Arrays.copyOf(body.bytes, (int) size);
            return true;
        }

        @Override
        public void onAllDataRead() {
            if (refused) {
                async.complete();
            } else {
                arrived();
            }
        }

        /**
         * Reads and drops what has come. Closing with bytes unread would reset the connection, and a client
         * still sending might lose the answer with it.
         */
        private void drain() throws IOException {
            byte[] scratch = new byte[FIRST];
            while (in.isReady() && in.read(scratch) >= 0) {
                // dropped
            }
        }

        private void arrived() {
            if (decided.compareAndSet(false, true)) {
                body.query = request.getQueryString();
                request.setAttribute(BODY, body);
                async.dispatch(); // to the request's own path, still percent-encoded
            }
        }

        /**
         * A failed read: a body that broke its framing (a malformed chunk) is the client's, 400; a client gone
         * has nobody to answer.
         */
        @Override
        public void onError(Throwable t) {
            if (!decided.compareAndSet(false, true)) {
                return;
            }
            try {
                if (malformed(t)) {
                    refuse(Problems.BAD_REQUEST, "the body could not be read as its headers frame it (a malformed "
                            + "chunk)");
                } else {
                    async.complete();
                }
            } catch (IOException | RuntimeException e) {
                async.complete();
            }
        }

        @Override
        public void onTimeout(AsyncEvent event) throws IOException {
            if (refused) {
                async.complete(); // answered already; the rest of the body never came
            } else if (decided.compareAndSet(false, true)) {
                refuse(Problems.BODY_TIMEOUT, "the body did not arrive within "
                        + seconds(settings.bodyTimeout().toMillis()) + " (" + body.length + " bytes received"
                        + (announced >= 0 ? " of " + announced : "") + "): send it at once, or smaller");
            }
        }

        /** Answers 503 at once, and drops the rest of the body until it ends or its deadline passes. */
        private void refuseBusy() throws IOException {
            if (decided.compareAndSet(false, true)) {
                refused = true;
                held.addAndGet(-reserved); // the bytes kept so far are not needed any more
                reserved = 0;
                body.bytes = Body.EMPTY;
                response.setHeader(HttpHeaders.RETRY_AFTER, "1");
                answer(Problems.BUSY, "too many request bodies are arriving at once: try again shortly");
                response.flushBuffer();
                drain();
            }
        }

        private void refuse(Problems type, String detail) throws IOException {
            try {
                answer(type, detail);
            } finally {
                async.complete();
            }
        }

        private void answer(Problems type, String detail) throws IOException {
            response.setHeader(HttpHeaders.CONNECTION, "close"); // the rest of the body is not awaited
            if (RingHeaders.carries(request)) {
                RingHeaders.set(response, RingPaths.of(request, rings));
            }
            problems.write(response, type, detail, "body");
        }

        @Override
        public void onComplete(AsyncEvent event) {
            held.addAndGet(-reserved);
            reserved = 0;
            body.bytes = Body.EMPTY;
        }

        /** An asynchronous error: the container ends the answer. */
        @Override
        public void onError(AsyncEvent event) {
            decided.set(true);
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            event.getAsyncContext().addListener(this); // a handler that goes asynchronous keeps the bytes held
        }
    }

    /** Whether {@code error} is, or is caused by, the container's refusal of what the client sent. */
    static boolean malformed(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof HttpException http && http.getCode() == 400) {
                return true;
            }
        }
        return false;
    }

    private static String seconds(long millis) {
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }

    /** A body's bytes: the first {@code length} of {@code bytes}. */
    private static final class Body {
        static final byte[] EMPTY = new byte[0];
        byte[] bytes = EMPTY;
        int length;
        String query;
    }

    /**
     * The request as it came, its body the bytes that arrived: the dispatch
     * that brings it back is the container's way of resuming a request, not
     * a new one, so it answers as the request did ({@code REQUEST}, its query
     * string, which a dispatch to a path drops) for the interceptors and
     * handlers that look.
     */
    private static final class Arrived extends HttpServletRequestWrapper {
        private final Body body;
        private ServletInputStream stream;

        Arrived(HttpServletRequest request, Body body) {
            super(request);
            this.body = body;
        }

        @Override
        public DispatcherType getDispatcherType() {
            return DispatcherType.REQUEST;
        }

        @Override
        public String getQueryString() {
            return body.query;
        }

        @Override
        public ServletInputStream getInputStream() {
            if (stream == null) {
                stream = new Bytes(new ByteArrayInputStream(body.bytes, 0, body.length));
            }
            return stream;
        }

        @Override
        public java.io.BufferedReader getReader() {
            return new java.io.BufferedReader(new java.io.InputStreamReader(getInputStream(),
                    java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    private static final class Bytes extends ServletInputStream {
        private final ByteArrayInputStream in;

        Bytes(ByteArrayInputStream in) {
            this.in = in;
        }

        @Override
        public int read() {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            return in.read(b, off, len);
        }

        @Override
        public int available() {
            return in.available();
        }

        @Override
        public boolean isFinished() {
            return in.available() == 0;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
            try {
                if (in.available() > 0) {
                    listener.onDataAvailable();
                }
                listener.onAllDataRead();
            } catch (IOException e) {
                listener.onError(e);
            }
        }
    }
}
