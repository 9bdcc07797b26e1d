package io.ringd.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

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
 * and its assets) replaces this one: it is only a default.
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
        chain.doFilter(request, response);
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
