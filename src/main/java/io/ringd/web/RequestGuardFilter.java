package io.ringd.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.handler.HandlerMappingIntrospector;
import org.springframework.web.util.ServletRequestPathUtils;

import io.ringd.state.RingService;

/**
 * Refuses, before anything else runs, what the servlet container would
 * otherwise mangle or accept unbounded: a raw {@code ;} in the path (the
 * container would silently cut the key there), a query string that is not
 * valid UTF-8 or repeats a parameter (which would be joined with commas),
 * and bodies over 4 MiB. It knows no route: a refusal names the path
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
