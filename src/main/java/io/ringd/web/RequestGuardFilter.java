package io.ringd.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.handler.HandlerMappingIntrospector;
import org.springframework.web.util.ServletRequestPathUtils;

import io.ringd.state.RingService;
import io.ringd.web.problem.ApiException;
import io.ringd.web.problem.BodyTooLargeException;
import io.ringd.web.problem.InvalidBodyException;
import io.ringd.web.problem.ProblemWriter;
import io.ringd.web.problem.Problems;

/**
 * Refuses, before anything else runs, what the servlet container would
 * otherwise mangle or accept unbounded: a raw {@code ;} in the path (the
 * container would silently cut the key there), a query string that is not
 * valid UTF-8 or repeats a parameter (which would be joined with commas),
 * bodies over 4 MiB or not strict UTF-8, a body {@code Content-Encoding}
 * (ringd decodes none: 415) or a charset other than UTF-8 (415), and TRACE
 * (405). It knows no route: a refusal names the path
 * variable of the handler the path would reach, and carries the ring headers
 * as {@link RingHeaders} decides.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class RequestGuardFilter extends OncePerRequestFilter {

    /** The largest request body, in bytes. */
    static final long MAX_BODY_BYTES = 4L * 1024 * 1024;

    private final ProblemWriter problems;
    private final RingService ring;
    private final HandlerMappingIntrospector handlers;

    RequestGuardFilter(ProblemWriter problems, RingService ring, HandlerMappingIntrospector handlers) {
        this.problems = problems;
        this.ring = ring;
        this.handlers = handlers;
    }

    private void refuse(HttpServletRequest request, HttpServletResponse response, Problems type, String detail,
            String field) throws IOException {
        if (RingHeaders.carries(request)) {
            response.setHeader(RingHeaders.VERSION, Long.toString(ring.current().version()));
        }
        problems.write(response, type, detail, field);
    }

    /**
     * The name of the path variable that the raw {@code ;} of {@code request}'s
     * path falls in: that of the handler the path reaches once the {@code ;} is
     * percent-encoded, or {@code "path"}. Looked up on refusals only.
     */
    private String pathVariable(HttpServletRequest request) {
        HttpServletRequest encoded = new HttpServletRequestWrapper(request) {
            @Override
            public String getRequestURI() {
                return super.getRequestURI().replace(";", "%3B");
            }
        };
        try {
            ServletRequestPathUtils.parseAndCache(encoded);
            for (HandlerMapping mapping : handlers.getHandlerMappings()) {
                HandlerExecutionChain chain = mapping.getHandler(encoded);
                if (chain != null && chain.getHandler() instanceof HandlerMethod hm) {
                    for (MethodParameter p : hm.getMethodParameters()) {
                        PathVariable v = p.getParameterAnnotation(PathVariable.class);
                        if (v != null) {
                            p.initParameterNameDiscovery(new DefaultParameterNameDiscoverer());
                            String name = !v.name().isEmpty() ? v.name() : p.getParameterName();
                            return name != null ? name : "path";
                        }
                    }
                }
            }
        } catch (Exception e) {
            // no handler takes this path (or its method): name the path itself
        }
        return "path";
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if ("TRACE".equals(request.getMethod())) {
            refuseTrace(request, response, chain);
            return;
        }
        String uri = request.getRequestURI();
        if (uri != null && uri.indexOf(';') >= 0) {
            String field = pathVariable(request);
            refuse(request, response, Problems.BAD_REQUEST, "a raw ';' in the path is not allowed (the "
                    + field + " would be cut there): percent-encode it as %3B", field);
            return;
        }
        long length = request.getContentLengthLong();
        if (length > MAX_BODY_BYTES) {
            refuse(request, response, Problems.PAYLOAD_TOO_LARGE,
                    "the body must be at most " + MAX_BODY_BYTES + " bytes: it is " + length, "body");
            return;
        }
        String accept = request.getHeader(HttpHeaders.ACCEPT);
        if (accept != null && !parses(accept)) {
            refuse(request, response, Problems.NOT_ACCEPTABLE, "the Accept header is not a list of media "
                    + "types: send application/json (or leave it out)", HttpHeaders.ACCEPT);
            return;
        }
        String encoding = request.getHeader(HttpHeaders.CONTENT_ENCODING);
        if (encoding != null && !encoding.trim().equalsIgnoreCase("identity")) {
            refuse(request, response, Problems.UNSUPPORTED_CONTENT_ENCODING, "ringd reads bodies as sent: "
                    + "send them without a Content-Encoding (not " + ApiException.abbreviate(encoding) + ")",
                    HttpHeaders.CONTENT_ENCODING);
            return;
        }
        boolean body = length > 0 || length < 0 && request.getHeader("Transfer-Encoding") != null;
        String charset = body ? charset(request.getContentType()) : null;
        if (charset != null && !charset.equalsIgnoreCase("UTF-8")) {
            refuse(request, response, Problems.UNSUPPORTED_MEDIA_TYPE, "bodies are JSON in UTF-8: "
                    + "leave the charset out or make it UTF-8 (not " + ApiException.abbreviate(charset) + ")",
                    HttpHeaders.CONTENT_TYPE);
            return;
        }
        if (request.getQueryString() != null && !checkQuery(request, response)) {
            return;
        }
        try {
            chain.doFilter(new Checked(request), response);
        } catch (BodyTooLargeException | InvalidBodyException e) {
            // Read by a filter before any handler (not ringd's: it reads no form bodies, but a container
            // or library filter may): the same refusal a handler's read gets, unless the answer has begun.
            if (response.isCommitted()) {
                throw e;
            }
            response.resetBuffer();
            refuse(request, response, e instanceof BodyTooLargeException ? Problems.PAYLOAD_TOO_LARGE
                    : Problems.BAD_REQUEST, e.getMessage(), "body");
            return;
        }
    }

    private static boolean parses(String accept) {
        try {
            MediaType.parseMediaTypes(accept);
            return true;
        } catch (InvalidMediaTypeException e) {
            return false;
        }
    }

    /** The charset parameter of a Content-Type, or {@code null} (none, or no valid Content-Type). */
    private static String charset(String contentType) {
        if (contentType == null) {
            return null;
        }
        try {
            return MediaType.parseMediaType(contentType).getParameter("charset") == null ? null
                    : MediaType.parseMediaType(contentType).getParameter("charset").replace("\"", "");
        } catch (InvalidMediaTypeException e) {
            return null; // MVC refuses it with 415
        }
    }

    /**
     * TRACE is refused everywhere with 405 and the {@code Allow} header that
     * OPTIONS answers for the same path (asked of the application itself, its
     * answer discarded).
     */
    private void refuseTrace(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest options = new HttpServletRequestWrapper(request) {
            @Override
            public String getMethod() {
                return "OPTIONS";
            }

            @Override
            public String getHeader(String name) {
                return name.equalsIgnoreCase("Origin") || name.startsWith("Access-Control") ? null
                        : super.getHeader(name);
            }
        };
        AllowCapture probe = new AllowCapture(response);
        try {
            chain.doFilter(options, probe);
        } catch (RuntimeException | ServletException e) {
            // no answer for OPTIONS: Allow stays empty
        }
        response.setHeader(HttpHeaders.ALLOW, probe.allow == null ? "" : probe.allow);
        refuse(request, response, Problems.METHOD_NOT_ALLOWED, "TRACE is not allowed"
                + (probe.allow == null || probe.allow.isEmpty() ? "" : "; allowed: " + probe.allow), null);
    }

    /** A response that keeps only the {@code Allow} header written to it and passes nothing on. */
    private static final class AllowCapture extends HttpServletResponseWrapper {
        private String allow;
        private final java.util.Map<String, String> headers = new java.util.HashMap<>();
        private final ServletOutputStream sink = new ServletOutputStream() {
            @Override
            public void write(int b) {
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setWriteListener(jakarta.servlet.WriteListener listener) {
            }
        };

        AllowCapture(HttpServletResponse response) {
            super(response);
        }

        private void header(String name, String value) {
            if (name.equalsIgnoreCase(HttpHeaders.ALLOW)) {
                allow = value;
            }
            headers.put(name.toLowerCase(java.util.Locale.ROOT), value);
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
            return headers.containsKey(name.toLowerCase(java.util.Locale.ROOT));
        }

        @Override
        public String getHeader(String name) {
            return headers.get(name.toLowerCase(java.util.Locale.ROOT));
        }

        @Override
        public java.util.Collection<String> getHeaders(String name) {
            String v = getHeader(name);
            return v == null ? java.util.List.of() : java.util.List.of(v);
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
        public java.io.PrintWriter getWriter() {
            return new java.io.PrintWriter(java.io.OutputStream.nullOutputStream());
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

    /** Refuses a query string that is not valid percent-encoded UTF-8, or that repeats a parameter. */
    private boolean checkQuery(HttpServletRequest request, HttpServletResponse response) throws IOException {
        java.util.Map<String, String[]> params;
        try {
            params = request.getParameterMap();
        } catch (IllegalStateException e) { // the container's InvalidParameterException
            refuse(request, response, Problems.BAD_REQUEST,
                    "the query string is not valid percent-encoded UTF-8", "query");
            return false;
        }
        for (java.util.Map.Entry<String, String[]> p : params.entrySet()) {
            if (p.getValue().length > 1) {
                String name = p.getKey().length() > 40 ? p.getKey().substring(0, 40) + "..." : p.getKey();
                refuse(request, response, Problems.BAD_REQUEST, "the parameter " + name + " is given "
                        + p.getValue().length + " times; give it once", name);
                return false;
            }
        }
        return true;
    }

    /**
     * A request whose body fails past the limit (whatever its announced
     * length) and unless it is strict UTF-8: an invalid byte, an overlong
     * form ({@code C0 AE} for {@code .}), a surrogate or a truncated sequence
     * is refused as the path's bytes are.
     */
    private static final class Checked extends HttpServletRequestWrapper {
        private ServletInputStream stream;

        Checked(HttpServletRequest request) {
            super(request);
        }

        @Override
        public java.io.BufferedReader getReader() throws IOException {
            return new java.io.BufferedReader(new java.io.InputStreamReader(getInputStream(),
                    java.nio.charset.StandardCharsets.UTF_8));
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                ServletInputStream in = super.getInputStream();
                stream = new ServletInputStream() {
                    private long read;
                    private int need;
                    private int lo = 0x80;
                    private int hi = 0xBF;

                    @Override
                    public int read() throws IOException {
                        int b = in.read();
                        if (b >= 0) {
                            count(1);
                            check(b);
                        } else {
                            end();
                        }
                        return b;
                    }

                    @Override
                    public int read(byte[] buf, int off, int len) throws IOException {
                        int n = in.read(buf, off, len);
                        if (n > 0) {
                            count(n);
                            for (int i = off; i < off + n; i++) {
                                check(buf[i] & 0xff);
                            }
                        } else if (n < 0) {
                            end();
                        }
                        return n;
                    }

                    private void count(int n) throws IOException {
                        read += n;
                        if (read > MAX_BODY_BYTES) {
                            throw new BodyTooLargeException(MAX_BODY_BYTES);
                        }
                    }

                    /** One byte of the UTF-8 grammar of RFC 3629 (its table of well-formed sequences). */
                    private void check(int b) throws InvalidBodyException {
                        if (need > 0) {
                            if (b < lo || b > hi) {
                                invalid();
                            }
                            need--;
                            lo = 0x80;
                            hi = 0xBF;
                            return;
                        }
                        if (b < 0x80) {
                            return;
                        }
                        if (b >= 0xC2 && b <= 0xDF) {
                            need = 1;
                        } else if (b == 0xE0) {
                            need = 2;
                            lo = 0xA0;
                        } else if (b >= 0xE1 && b <= 0xEC || b == 0xEE || b == 0xEF) {
                            need = 2;
                        } else if (b == 0xED) {
                            need = 2;
                            hi = 0x9F;
                        } else if (b == 0xF0) {
                            need = 3;
                            lo = 0x90;
                        } else if (b >= 0xF1 && b <= 0xF3) {
                            need = 3;
                        } else if (b == 0xF4) {
                            need = 3;
                            hi = 0x8F;
                        } else {
                            invalid();
                        }
                    }

                    private void end() throws InvalidBodyException {
                        if (need > 0) {
                            need = 0;
                            throw new InvalidBodyException("the body is not valid UTF-8: it ends inside a character");
                        }
                    }

                    private void invalid() throws InvalidBodyException {
                        need = 0;
                        throw new InvalidBodyException("the body is not valid UTF-8 (an invalid, overlong or "
                                + "surrogate sequence near byte " + read + ")");
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
