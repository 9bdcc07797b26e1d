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

/**
 * Refuses, before anything else runs, what the servlet container would
 * otherwise mangle or accept unbounded: a raw {@code ;} in the path (the
 * container would silently cut the key there) and bodies over 4 MiB.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class RequestGuardFilter extends OncePerRequestFilter {

    /** The largest request body, in bytes. */
    static final long MAX_BODY_BYTES = 4L * 1024 * 1024;

    private final ProblemWriter problems;

    RequestGuardFilter(ProblemWriter problems) {
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String uri = request.getRequestURI();
        if (uri != null && uri.indexOf(';') >= 0) {
            problems.write(response, Problems.BAD_REQUEST,
                    "a raw ';' in the path is not allowed: percent-encode it as %3B (or pass the key as ?key=)",
                    uri.startsWith("/route/") || uri.startsWith("/preference/") ? "key" : "path");
            return;
        }
        long length = request.getContentLengthLong();
        if (length > MAX_BODY_BYTES) {
            problems.write(response, Problems.PAYLOAD_TOO_LARGE,
                    "the body must be at most " + MAX_BODY_BYTES + " bytes: it is " + length, "body");
            return;
        }
        chain.doFilter(length < 0 ? new Limited(request) : request, response);
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
