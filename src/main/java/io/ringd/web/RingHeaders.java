package io.ringd.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerMapping;

import io.ringd.state.ServedRing;

/**
 * The headers of ring answers ({@code docs/ring.md}, REST API), and the one
 * rule for which answers carry them: those of {@link RingApi} controllers,
 * and refusals made before any handler was chosen (a raw {@code ;}, a body
 * over the limit, a method or content type no handler takes). Answers of
 * other handlers (actuator, the API description, {@code /error}) do not.
 */
public final class RingHeaders {

    /** The server's current version on answers; a client's own version on requests. */
    public static final String VERSION = "X-Ring-Version";
    /** {@code true} when the client's version is older than the server's. */
    public static final String STALE = "X-Ring-Stale";
    /** The name of the ring an answer is about, beside its version (docs/ring.md section 22). */
    public static final String NAME = "X-Ring-Name";

    private RingHeaders() {
    }

    /** Whether the answer to {@code request} carries the ring headers, by the handler chosen for it, if any. */
    public static boolean carries(HttpServletRequest request) {
        Object handler = request.getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE);
        return handler == null || carries(handler);
    }

    /** Whether answers of this handler carry the ring headers. */
    public static boolean carries(Object handler) {
        return handler instanceof HandlerMethod hm && carries(hm.getBeanType());
    }

    /** Whether answers of this controller class carry the ring headers. */
    public static boolean carries(Class<?> controller) {
        return AnnotatedElementUtils.hasAnnotation(controller, RingApi.class);
    }

    /** Sets {@code X-Ring-Name} and {@code X-Ring-Version} (at {@code version}) for {@code ring}. */
    public static void set(HttpServletResponse response, ServedRing ring, long version) {
        response.setHeader(NAME, ring.name());
        response.setHeader(VERSION, Long.toString(version));
    }

    /** Sets them at the ring's current version. */
    public static void set(HttpServletResponse response, ServedRing ring) {
        set(response, ring, ring.service().current().version());
    }

    /** A non-negative decimal version (as a client sends it), or {@code null} if {@code s} is not one. */
    public static Long parseVersion(String s) {
        if (s == null || s.isEmpty() || s.length() > 18) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
        }
        return Long.parseLong(s);
    }
}
