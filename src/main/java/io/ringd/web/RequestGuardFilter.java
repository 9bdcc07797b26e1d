package io.ringd.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.handler.HandlerMappingIntrospector;

import io.ringd.state.Rings;
import io.ringd.web.problem.ApiException;
import io.ringd.web.problem.BodyTooLargeException;
import io.ringd.web.problem.InvalidBodyException;
import io.ringd.web.problem.ProblemWriter;
import io.ringd.web.problem.Problems;

/**
 * Refuses, before anything else runs, what the servlet container would
 * otherwise mangle or accept unbounded, in this order: TRACE (405, with the
 * {@code Allow} of {@link AllowProbe}), a raw {@code ;} in the path (the
 * container would silently cut the key there), what the headers alone
 * refuse ({@link HeadCheck}: a body announced over 4 MiB, an unparsable
 * {@code Accept}, a {@code Content-Encoding}, a charset other than UTF-8), a
 * query string that is not valid UTF-8 or repeats a parameter
 * ({@link QueryCheck}), and, as it is read, a body over 4 MiB or not strict
 * UTF-8 ({@link CheckedBody}). It knows no route: a refusal names the path
 * variable of the handler the path would reach ({@link PathVariableLookup}),
 * and carries the ring headers as {@link RingHeaders} decides.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class RequestGuardFilter extends OncePerRequestFilter {

    /** The largest request body, in bytes. */
    static final long MAX_BODY_BYTES = 4L * 1024 * 1024;

    private final ProblemWriter problems;
    private final Rings rings;
    private final PathVariableLookup pathVariables;
    private final HttpProperties http;

    RequestGuardFilter(ProblemWriter problems, Rings rings, HandlerMappingIntrospector handlers,
            HttpProperties http) {
        this.http = http;
        this.problems = problems;
        this.rings = rings;
        this.pathVariables = new PathVariableLookup(handlers);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if ("TRACE".equals(request.getMethod())) {
            String allow = AllowProbe.allow(request, response, chain);
            response.setHeader(HttpHeaders.ALLOW, allow == null ? "" : allow);
            refuse(request, response, Problems.METHOD_NOT_ALLOWED, "TRACE is not allowed"
                    + (allow == null || allow.isEmpty() ? "" : "; allowed: " + allow), null);
            return;
        }
        String uri = request.getRequestURI();
        if (uri != null && uri.indexOf(';') >= 0) {
            String field = pathVariables.nameAt(request);
            refuse(request, response, Problems.BAD_REQUEST, "a raw ';' in the path is not allowed (the "
                    + field + " would be cut there): percent-encode it as %3B", field);
            return;
        }
        try {
            HeadCheck.check(request, MAX_BODY_BYTES);
            QueryCheck.check(request);
        } catch (ApiException e) {
            refuse(request, response, e.problem(), e.getMessage(), e.field());
            return;
        }
        try {
            chain.doFilter(new CheckedBody(request, MAX_BODY_BYTES), response);
        } catch (BodyTooLargeException | InvalidBodyException e) {
            // Read by a filter before any handler (not ringd's: it reads no form bodies, but a container
            // or library filter may): the same refusal a handler's read gets, unless the answer has begun.
            if (response.isCommitted()) {
                throw e;
            }
            response.resetBuffer();
            refuse(request, response, e instanceof BodyTooLargeException ? Problems.PAYLOAD_TOO_LARGE
                    : Problems.BAD_REQUEST, e.getMessage(), "body");
        }
    }

    private void refuse(HttpServletRequest request, HttpServletResponse response, Problems type, String detail,
            String field) throws IOException {
        if (RingHeaders.carries(request)) {
            RingHeaders.set(response, RingPaths.of(request, rings));
        }
        problems.write(response, type, detail, field);
        // a body refused before it was read (or part-way): dropped as it comes, so the client reads the answer
        Swallow.rest(request, response, MAX_BODY_BYTES, http.bodyTimeout().toMillis());
    }
}
