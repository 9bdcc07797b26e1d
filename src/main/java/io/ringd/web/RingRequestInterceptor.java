package io.ringd.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

import io.ringd.state.RingService;

/**
 * On every ring request: checks the admin token of {@link AdminOnly}
 * handlers, sets {@code X-Ring-Version}, and marks and counts clients that
 * sent an older {@code X-Ring-Version} as stale.
 */
@Component
class RingRequestInterceptor implements HandlerInterceptor {

    private final RingService ring;
    private final AdminToken token;
    private final LookupEvents events;

    RingRequestInterceptor(RingService ring, AdminToken token, ObjectProvider<LookupEvents> events) {
        this.ring = ring;
        this.token = token;
        this.events = events.getIfAvailable(() -> LookupEvents.NONE); // resolved once, not per request
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        long version = ring.current().version();
        response.setHeader(RingHeaders.VERSION, Long.toString(version));
        Long client = Versions.parseVersion(request.getHeader(RingHeaders.VERSION));
        if (client != null && client < version) {
            response.setHeader(RingHeaders.STALE, "true");
            events.stale(version - client);
        }
        if (handler instanceof HandlerMethod hm && hm.hasMethodAnnotation(AdminOnly.class)) {
            String auth = request.getHeader(HttpHeaders.AUTHORIZATION);
            String presented = auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)
                    ? auth.substring(7).trim() : null;
            if (!token.matches(presented)) {
                response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"ringd\"");
                throw new ApiException(Problems.UNAUTHORIZED, auth == null
                        ? "this call needs 'Authorization: Bearer <admin token>'"
                        : presented == null ? "the Authorization header must be 'Bearer <admin token>'"
                                : "the admin token is not valid", "Authorization");
            }
        }
        return true;
    }
}
