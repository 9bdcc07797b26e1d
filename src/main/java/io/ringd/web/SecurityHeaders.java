package io.ringd.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The security headers of every answer (docs/security.md), set before
 * anything else runs so that refusals, errors and the actuator carry them
 * too: {@code X-Content-Type-Options: nosniff}, {@code Referrer-Policy:
 * no-referrer}, {@code X-Frame-Options: DENY} and a Content-Security-Policy.
 * The API's policy allows nothing ({@code default-src 'none'; frame-ancestors
 * 'none'}); the API browser under {@code /swagger-ui} gets one that lets its
 * own scripts and styles run. A handler that sets a policy of its own (a page
 * and its assets) replaces this one: it is only a default. An event stream
 * ({@code text/event-stream}) is marked {@code Cache-Control: no-cache}.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class SecurityHeaders extends OncePerRequestFilter {

    /** The policy of API answers: they are data, never run or framed. */
    public static final String API_POLICY = "default-src 'none'; frame-ancestors 'none'";
    /** The policy of the API browser: its own scripts, styles and images, and calls to this server. */
    public static final String SWAGGER_UI_POLICY = "default-src 'none'; script-src 'self'; "
            + "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        apply(response, request.getRequestURI());
        chain.doFilter(request, new EventStreamNoCache(response));
    }

    /**
     * Marks an event stream {@code Cache-Control: no-cache} (unless its handler chose otherwise), so that
     * proxies pass its events on as they come instead of buffering the answer.
     */
    private static final class EventStreamNoCache extends HttpServletResponseWrapper {

        EventStreamNoCache(HttpServletResponse response) {
            super(response);
        }

        @Override
        public void setContentType(String type) {
            super.setContentType(type);
            noCacheIfStream(type);
        }

        @Override
        public void setHeader(String name, String value) {
            super.setHeader(name, value);
            if ("Content-Type".equalsIgnoreCase(name)) {
                noCacheIfStream(value);
            }
        }

        @Override
        public void addHeader(String name, String value) {
            super.addHeader(name, value);
            if ("Content-Type".equalsIgnoreCase(name)) {
                noCacheIfStream(value);
            }
        }

        private void noCacheIfStream(String type) {
            if (type != null && type.regionMatches(true, 0, "text/event-stream", 0, 17)
                    && !containsHeader("Cache-Control")) {
                super.setHeader("Cache-Control", "no-cache");
            }
        }
    }

    /** Sets the headers on {@code response} for a request to {@code path}, keeping a policy already set. */
    public static void apply(HttpServletResponse response, String path) {
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader("X-Frame-Options", "DENY");
        if (!response.containsHeader("Content-Security-Policy")) {
            response.setHeader("Content-Security-Policy", path != null && path.startsWith("/swagger-ui")
                    ? SWAGGER_UI_POLICY : API_POLICY);
        }
    }

    /** Marks an answer that no cache may keep: errors and admin answers. */
    public static void noStore(HttpServletResponse response) {
        response.setHeader("Cache-Control", "no-store");
    }
}
