package io.ringd.web;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import org.springframework.http.HttpHeaders;

/**
 * The {@code Allow} header that OPTIONS answers for a request's path, asked
 * of the application itself (the rest of the filter chain) with the answer
 * discarded: what a refused TRACE names as allowed, and what a CORS
 * preflight is told ({@link ProtocolEdgesFilter}). A path no route serves
 * has none.
 */
final class AllowProbe {

    private AllowProbe() {
    }

    /** The methods OPTIONS allows for {@code request}'s path, or {@code null} when it gives no answer. */
    static String allow(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException {
        HttpServletRequest options = new HttpServletRequestWrapper(request) {
            @Override
            public String getMethod() {
                return "OPTIONS";
            }

            @Override
            public String getHeader(String name) {
                return name.equalsIgnoreCase("Origin") || name.startsWith("Access-Control") || bodyHeader(name) ? null
                        : super.getHeader(name);
            }

            // the probe has no body, whatever the request carries: nothing downstream (BodyArrival) waits for one
            @Override
            public long getContentLengthLong() {
                return 0;
            }

            @Override
            public int getContentLength() {
                return 0;
            }
        };
        AllowCapture probe = new AllowCapture(response);
        try {
            chain.doFilter(options, probe);
        } catch (RuntimeException | ServletException e) {
            // no answer for OPTIONS: Allow stays empty
        }
        return servletDefault(probe.allow) ? null : probe.allow;
    }

    /**
     * Whether {@code allow} is the servlet's own answer for a path no route
     * serves: every method, TRACE included, which no route of ringd allows.
     */
    private static boolean servletDefault(String allow) {
        return allow != null && List.of(allow.toUpperCase(Locale.ROOT).split("\\s*,\\s*")).contains("TRACE");
    }

    private static boolean bodyHeader(String name) {
        return name.equalsIgnoreCase(HttpHeaders.CONTENT_LENGTH) || name.equalsIgnoreCase(HttpHeaders.TRANSFER_ENCODING);
    }

    /** A response that keeps only the {@code Allow} header written to it and passes nothing on. */
    private static final class AllowCapture extends HttpServletResponseWrapper {
        private String allow;
        private final Map<String, String> headers = new HashMap<>();
        private final ServletOutputStream sink = new ServletOutputStream() {
            @Override
            public void write(int b) {
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setWriteListener(WriteListener listener) {
            }
        };

        AllowCapture(HttpServletResponse response) {
            super(response);
        }

        private void header(String name, String value) {
            if (name.equalsIgnoreCase(HttpHeaders.ALLOW)) {
                allow = value;
            }
            headers.put(name.toLowerCase(Locale.ROOT), value);
        }

        @Override
        public void setHeader(String name, String value) {
            header(name, value);
        }

        @Override
        public void addHeader(String name, String value) {
            header(name, value);
        }

        @Override
        public boolean containsHeader(String name) {
            return headers.containsKey(name.toLowerCase(Locale.ROOT));
        }

        @Override
        public String getHeader(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        @Override
        public Collection<String> getHeaders(String name) {
            String v = getHeader(name);
            return v == null ? List.of() : List.of(v);
        }

        @Override
        public void setStatus(int sc) {
        }

        @Override
        public void sendError(int sc) {
        }

        @Override
        public void sendError(int sc, String msg) {
        }

        @Override
        public void setContentType(String type) {
        }

        @Override
        public void setContentLength(int len) {
        }

        @Override
        public void setContentLengthLong(long len) {
        }

        @Override
        public void setCharacterEncoding(String charset) {
        }

        @Override
        public ServletOutputStream getOutputStream() {
            return sink;
        }

        @Override
        public PrintWriter getWriter() {
            return new PrintWriter(OutputStream.nullOutputStream());
        }

        @Override
        public void flushBuffer() {
        }

        @Override
        public boolean isCommitted() {
            return false;
        }

        @Override
        public void reset() {
        }

        @Override
        public void resetBuffer() {
        }
    }
}
