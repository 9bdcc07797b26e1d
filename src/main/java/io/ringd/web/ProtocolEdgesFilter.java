package io.ringd.web;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.cors.CorsUtils;
import org.springframework.web.filter.OncePerRequestFilter;

import io.ringd.web.problem.ProblemWriter;
import io.ringd.web.problem.Problems;

/**
 * What the container answers at the edges of HTTP before any route runs:
 * an HTTP/0.9 request (a bare request line, which the container would answer
 * with a bare body, without status or headers) gets nothing, and the
 * connection is closed; a CORS preflight is answered for its path alone. An
 * origin {@code ringd.cors.allowed-origins} does not name, or a method the
 * path does not serve, is refused with a 403 problem detail, and an allowed
 * one is told the methods of that path (the {@code Allow} of
 * {@link AllowProbe}) among those cross-origin calls may use, not every
 * method of the API.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 5)
class ProtocolEdgesFilter extends OncePerRequestFilter {

    /** The methods a cross-origin page may use at all (WebConfiguration's CORS mapping). */
    static final List<String> CROSS_ORIGIN_METHODS = List.of("GET", "HEAD", "POST", "PUT", "DELETE");

    private final ProblemWriter problems;
    private final CorsProperties cors;

    ProtocolEdgesFilter(ProblemWriter problems, CorsProperties cors) {
        this.problems = problems;
        this.cors = cors;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String protocol = request.getProtocol();
        if (protocol == null || protocol.isEmpty() || "HTTP/0.9".equals(protocol)) {
            response.setHeader("Connection", "close"); // not sent (HTTP/0.9 has no headers), but ends the connection
            return; // nothing at all: a body without status and headers would pass for an answer
        }
        if (!CorsUtils.isPreFlightRequest(request)) {
            chain.doFilter(request, response);
            return;
        }
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        if (!cors.allowedOrigins().contains(origin)) {
            problems.write(response, Problems.FORBIDDEN, "this origin may not call ringd "
                    + "(ringd.cors.allowed-origins)", "Origin");
            return;
        }
        String allow = AllowProbe.allow(request, response, chain);
        Set<String> served = allow == null ? Set.of()
                : Arrays.stream(allow.split(",")).map(m -> m.trim().toUpperCase(Locale.ROOT)).collect(Collectors.toSet());
        List<String> methods = CROSS_ORIGIN_METHODS.stream().filter(served::contains).toList();
        String wanted = request.getHeader(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD).trim();
        if (!methods.contains(wanted)) {
            problems.write(response, Problems.FORBIDDEN, "a cross-origin " + wanted + " is not allowed on this path"
                    + (methods.isEmpty() ? "" : "; allowed: " + String.join(", ", methods)),
                    HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD);
            return;
        }
        String pathMethods = String.join(",", methods);
        chain.doFilter(request, new HttpServletResponseWrapper(response) {
            @Override
            public void setHeader(String name, String value) {
                super.setHeader(name, HttpHeaders.ACCESS_CONTROL_ALLOW_METHODS.equalsIgnoreCase(name) ? pathMethods
                        : value);
            }

            @Override
            public void addHeader(String name, String value) {
                if (HttpHeaders.ACCESS_CONTROL_ALLOW_METHODS.equalsIgnoreCase(name)) {
                    super.setHeader(name, pathMethods);
                } else {
                    super.addHeader(name, value);
                }
            }
        });
    }
}
