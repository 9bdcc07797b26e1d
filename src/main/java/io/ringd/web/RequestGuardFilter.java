package io.ringd.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import io.ringd.state.RingService;

/**
 * Refuses, before anything else runs, what the servlet container would
 * otherwise mangle or accept unbounded: a raw {@code ;} in the path (the
 * container would silently cut the key there), a query string that is not
 * valid UTF-8 or repeats a parameter (which would be joined with commas),
 * and bodies over 4 MiB.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class RequestGuardFilter extends OncePerRequestFilter {

    /** The largest request body, in bytes. */
    static final long MAX_BODY_BYTES = 4L * 1024 * 1024;

    private final ProblemWriter problems;
    private final RingService ring;

    RequestGuardFilter(ProblemWriter problems, RingService ring) {
        this.problems = problems;
        this.ring = ring;
    }

    private void refuse(HttpServletResponse response, Problems type, String detail, String field) throws IOException {
        response.setHeader(RingHeaders.VERSION, Long.toString(ring.current().version()));
        problems.write(response, type, detail, field);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String uri = request.getRequestURI();
        if (uri != null && uri.indexOf(';') >= 0) {
            refuse(response, Problems.BAD_REQUEST,
                    "a raw ';' in the path is not allowed: percent-encode it as %3B (or pass the key as ?key=)",
                    uri.startsWith("/route/") || uri.startsWith("/preference/") ? "key" : "path");
            return;
        }
        long length = request.getContentLengthLong();
        if (length > MAX_BODY_BYTES) {
            refuse(response, Problems.PAYLOAD_TOO_LARGE,
                    "the body must be at most " + MAX_BODY_BYTES + " bytes: it is " + length, "body");
            return;
        }
        if (request.getQueryString() != null && !checkQuery(request, response)) {
            return;
        }
        chain.doFilter(length < 0 ? new Limited(request) : request, response);
    }

    /** Refuses a query string that is not valid percent-encoded UTF-8, or that repeats a parameter. */
    private boolean checkQuery(HttpServletRequest request, HttpServletResponse response) throws IOException {
        java.util.Map<String, String[]> params;
        try {
            params = request.getParameterMap();
        } catch (IllegalStateException e) { // the container's InvalidParameterException
            refuse(response, Problems.BAD_REQUEST,
                    "the query string is not valid percent-encoded UTF-8", "query");
            return false;
        }
        for (java.util.Map.Entry<String, String[]> p : params.entrySet()) {
            if (p.getValue().length > 1) {
                String name = p.getKey().length() > 40 ? p.getKey().substring(0, 40) + "..." : p.getKey();
                refuse(response, Problems.BAD_REQUEST, "the parameter " + name + " is given "
                        + p.getValue().length + " times; give it once", name);
                return false;
            }
        }
        return true;
    }

    /** A request whose body, of unknown length, fails past the limit. */
    private static final class Limited extends HttpServletRequestWrapper {
        private ServletInputStream stream;

        Limited(HttpServletRequest request) {
            super(request);
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                ServletInputStream in = super.getInputStream();
                stream = new ServletInputStream() {
                    private long read;

                    @Override
                    public int read() throws IOException {
                        int b = in.read();
                        if (b >= 0) {
                            count(1);
                        }
                        return b;
                    }

                    @Override
                    public int read(byte[] buf, int off, int len) throws IOException {
                        int n = in.read(buf, off, len);
                        if (n > 0) {
                            count(n);
                        }
                        return n;
                    }

                    private void count(int n) throws IOException {
                        read += n;
                        if (read > MAX_BODY_BYTES) {
                            throw new BodyTooLargeException(MAX_BODY_BYTES);
                        }
                    }

                    @Override
                    public boolean isFinished() {
                        return in.isFinished();
                    }

                    @Override
                    public boolean isReady() {
                        return in.isReady();
                    }

                    @Override
                    public void setReadListener(ReadListener listener) {
                        in.setReadListener(listener);
                    }
                };
            }
            return stream;
        }
    }
}
